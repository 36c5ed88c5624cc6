"""Instructions that come back: a tentative instruction said again later becomes a standing one.

The rules extractor keeps corrections and plain directives ("did you push?", "don't
summarize") as `tentative` user_style memories at low importance: said once, in the middle of
a task, they are usually about that task. When the same instruction (the same key) arrives
from another episode — another session, or the same one after a break of more than the
episode gap — the tentative memory is replaced by a standing one that cites both
occurrences. An instruction stated as a general rule replaces a tentative one at once, and
retention forgets a tentative one that did not come back within `retention.tentative_days`.

The same instruction comes back in other words more often than in the same ones ("keep going
until all tasks are done", "don't stop after one task, carry on until every task is done"):
two instructions whose content words mostly overlap (`paraphrases.same_instruction`) are one
instruction, whatever their keys, so the later one is filed under the earlier one's key
(`unify_keys` within a batch, `align_with_stored` against the stored ones). Every further
occurrence from another session raises the standing instruction's importance
(`recurring_importance`), so what the user keeps saying ranks first in the style view; the
user's emphasis or correction on it keeps its step above what recurrence alone gives.
Recurrence counts sessions, not messages (`SessionsOf`): an instruction said three times in one
session, across its breaks, is a standing one but weighs less than one said in two sessions,
and a further occurrence in a session already cited is cited without raising it (the weights:
`promotion`; an echo of the user's words met with its instruction: `extractors/echo_merge`).

A standing rule kept in the user's own words (`standing_words`) has a key made of its words, so
two such rules are compared by their words as a tentative one is; two standing rules of two
episodes are one rule said again when `paraphrases.same_standing_rule` says so, never by the
vectors alone, and a habit told by its cues keeps its own key. Whether two wordings are one
instruction (word overlap, the sentence vectors beside it, the words a memory quotes the user
saying) is `extractors.paraphrases`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from squirrel_memory.extractors.echo_merge import as_stored, merged_with_echo
from squirrel_memory.extractors.echoes import is_counted, is_echo, may_hear
from squirrel_memory.extractors.firmness import RESTATED_TAG, STANDING_TAG
from squirrel_memory.extractors.paraphrases import Likeness, same_instruction, same_standing_rule
from squirrel_memory.extractors.reply_habits import (
    BULLETS_KEY,
    CHANGED_LINES_KEY,
    EXPLAIN_KEY,
    FENCED_KEY,
    LENGTH_KEY,
    PLAIN_KEY,
    SUMMARY_KEY,
)
from squirrel_memory.extractors.reply_language import KEY as REPLY_LANGUAGE_KEY
from squirrel_memory.extractors.rule_sides import opposite_rules
from squirrel_memory.extractors.standing_words import PREFIX as OWN_WORDS_PREFIX
from squirrel_memory.extractors.workflow_habits import (
    CARRY_KEY,
    DONE_KEY,
    HANDOVER_KEY,
    PACE_KEY,
    PREVIEW_KEY,
)
from squirrel_memory.extractors.working_habits import HABIT_KEY
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.promotion import (
    MAX_RECURRING_IMPORTANCE,
    RECURRENCE_STEP,
    RECURRING_TAG,
    SessionsOf,
    firm_tags,
    is_tentative,
    pooled,
    promoted,
    recurring_importance,
    session_count,
    stress_marks,
    stress_of,
)

#: Keys every wording of one habit is filed under: whatever the words, they say the same.
ONE_MEANING_KEYS = frozenset(
    {
        HABIT_KEY,
        CARRY_KEY,
        DONE_KEY,
        PACE_KEY,
        PREVIEW_KEY,
        SUMMARY_KEY,
        HANDOVER_KEY,
        EXPLAIN_KEY,
        BULLETS_KEY,
        PLAIN_KEY,
        FENCED_KEY,
        CHANGED_LINES_KEY,
    }
)
#: Keys of habits told apart by their cues, not their words: two of them are never one
#: instruction, though their statements share a lead ("The user wants … replies").
_CUED_KEYS = ONE_MEANING_KEYS | {LENGTH_KEY}
#: Keys a project pass decides over every session at once (`project_work`): its statement
#: already counts the sessions, and replaces the stored one (`updates.rules`).
PROJECT_DECIDED_KEYS = frozenset({REPLY_LANGUAGE_KEY})


def _style_pair(
    first: MemoryCandidate | MemoryItem, second: MemoryCandidate, likeness: Likeness | None
) -> bool:
    if (
        first.type is not MemoryType.USER_STYLE
        or second.type is not MemoryType.USER_STYLE
        or first.key == second.key
        or (is_echo(second) and not may_hear(first))
        or (first.key in _CUED_KEYS and second.key in _CUED_KEYS)
    ):
        return False
    if (
        is_tentative(first.tags)
        or is_tentative(second.tags)
        or (first.key.startswith(OWN_WORDS_PREFIX) and second.key.startswith(OWN_WORDS_PREFIX))
    ):
        return same_instruction(first.content, second.content, likeness)
    # two standing rules of two episodes: one when their words say so, the vectors never
    # alone; a habit told by its cues keeps its own key
    return (
        first.source_episode_id != second.source_episode_id
        and first.key not in _CUED_KEYS
        and second.key not in _CUED_KEYS
        and same_standing_rule(first.content, second.content)
    )


def unify_keys(
    candidates: Sequence[MemoryCandidate], likeness: Likeness | None = None
) -> list[MemoryCandidate]:
    """Candidates with a user_style instruction said again in other words filed under the key
    (and scope) of its first occurrence in the batch, so the merge sees one instruction. An
    echo (`echoes`) is filed under an instruction it says again, before or after it in the
    batch, and is never compared with another echo."""
    seen: list[MemoryCandidate] = []
    result: list[MemoryCandidate | None] = []
    for cand in candidates:
        if is_echo(cand):
            result.append(None)  # filed below, once every instruction of the batch is seen
            continue
        first = next((s for s in seen if _style_pair(s, cand, likeness)), None)
        if first is not None:
            result.append(replace(cand, key=first.key, scope=first.scope))
            continue
        if cand.type is MemoryType.USER_STYLE:
            seen.append(cand)
        result.append(cand)
    for index, cand in enumerate(candidates):
        if result[index] is None:
            first = next((s for s in seen if _style_pair(s, cand, likeness)), None)
            result[index] = (
                cand if first is None else replace(cand, key=first.key, scope=first.scope)
            )
    return [cand for cand in result if cand is not None]


def align_with_stored(
    candidates: Sequence[MemoryCandidate],
    stored: Sequence[MemoryItem],
    likeness: Likeness | None = None,
) -> list[MemoryCandidate]:
    """Candidates that say a stored instruction again in other words, filed under its key and
    scope (manual memories keep their own path: they are never promoted)."""
    live = [
        m
        for m in stored
        if not m.deleted and m.type is MemoryType.USER_STYLE and m.source is not MemorySource.MANUAL
    ]
    result: list[MemoryCandidate] = []
    for cand in candidates:
        match = None
        if cand.type is MemoryType.USER_STYLE and not any(m.key == cand.key for m in live):
            match = next((m for m in live if _style_pair(m, cand, likeness)), None)
        result.append(cand if match is None else replace(cand, key=match.key, scope=match.scope))
    return result


def _worded_as(said: MemoryCandidate, earlier: MemoryCandidate | MemoryItem) -> MemoryCandidate:
    """An instruction said again: in the earlier wording when the later one is only the words
    the user said again (`restated`: no form read them as an instruction), else as said."""
    if RESTATED_TAG not in said.tags:
        return said
    tags = tuple(t for t in said.tags if t != RESTATED_TAG)
    return replace(said, content=earlier.content, tags=tags, scope=earlier.scope)


def is_restated(candidate: MemoryCandidate) -> bool:
    """Whether a candidate is only words the user said again, waiting for their instruction."""
    return RESTATED_TAG in candidate.tags and is_tentative(candidate.tags)


def merge_pair(
    first: MemoryCandidate, second: MemoryCandidate, sessions: SessionsOf | None = None
) -> MemoryCandidate | None:
    """Two user_style candidates on one anchor within a pass, when a tentative one is involved.

    Both tentative, from different episodes: the later one, promoted. One standing: it wins
    and cites both, and grows as a rule said in one more session when the tentative one came
    from another episode and session (a habit said in three sessions of one pass weighs more
    than one said in two). None when this rule has nothing to say (the caller merges as usual).
    """
    if first.type is not MemoryType.USER_STYLE or second.type is not MemoryType.USER_STYLE:
        return None
    if is_echo(first) or is_echo(second):
        return merged_with_echo(first, second, sessions)
    first_tentative, second_tentative = is_tentative(first.tags), is_tentative(second.tags)
    if first_tentative and second_tentative:
        if first.source_episode_id == second.source_episode_id:
            return None
        said = promoted(second, first.source_event_ids, first.tags, sessions)
        return _worded_as(said, first)
    if first_tentative or second_tentative:
        firm, other = (second, first) if first_tentative else (first, second)
        cited = pooled(firm.source_event_ids, other.source_event_ids)
        if first.source_episode_id != second.source_episode_id and session_count(
            cited, sessions
        ) > max(1, session_count(firm.source_event_ids, sessions)):
            grown = promoted(firm, other.source_event_ids, other.tags, sessions)
            return replace(grown, source_event_ids=cited)
        return replace(firm, source_event_ids=cited)
    if first.source_episode_id == second.source_episode_id or not (
        first.content == second.content or same_standing_rule(first.content, second.content)
    ):
        return None
    return _standing_again(first, second, sessions)


def _standing_again(
    first: MemoryCandidate, second: MemoryCandidate, sessions: SessionsOf | None
) -> MemoryCandidate:
    """A standing rule of the batch said again, as a rule, in a later episode: the first
    wording stays, both occurrences are cited and the importance grows with the sessions (as
    `_said_again` grows a stored one)."""
    cited = pooled(first.source_event_ids, second.source_event_ids)
    tags = firm_tags(pooled(first.tags, stress_marks(second.tags)), RECURRING_TAG)
    count = session_count(cited, sessions)
    step = RECURRENCE_STEP if count > session_count(first.source_event_ids, sessions) else 0.0
    base = max(first.importance, second.importance)
    grown = recurring_importance(count, stress=stress_of(tags)) if count >= 2 else 0.0
    return replace(
        first,
        tags=tags,
        importance=round(
            min(max(MAX_RECURRING_IMPORTANCE, base), max(grown, base + step)),
            3,
        ),
        source_event_ids=cited,
    )


def decide_recurrence(
    candidate: MemoryCandidate,
    existing: Sequence[MemoryItem],
    sessions: SessionsOf | None = None,
) -> UpdateDecision | None:
    """The decision for a user_style candidate against tentative memories on its anchor.

    - tentative candidate, a standing memory on the key → UPDATE_EXISTING with the occurrence
      cited and the importance grown when it comes from another episode (the user said the
      rule again), NOOP when from the same one;
    - tentative candidate, a tentative memory from another episode that does not already cite
      all its messages → DELETE_AND_ADD with the candidate promoted to a standing instruction
      citing both occurrences;
    - standing candidate, a tentative memory on the key → DELETE_AND_ADD (the rule replaces
      the one-off, citing it);
    - standing candidate saying a standing memory's rule again, from another episode →
      UPDATE_EXISTING with the occurrence cited and the importance grown.
    None otherwise (and for `PROJECT_DECIDED_KEYS`): the ordinary update rules decide. Manual
    memories are left alone.
    """
    if candidate.type is not MemoryType.USER_STYLE or candidate.key in PROJECT_DECIDED_KEYS:
        return None
    live = [
        m
        for m in existing
        if not m.deleted
        and m.type is MemoryType.USER_STYLE
        and m.key == candidate.key
        and m.source is not MemorySource.MANUAL
    ]
    waiting = [m for m in live if is_tentative(m.tags)]
    if is_tentative(candidate.tags):
        firm = [m for m in live if not is_tentative(m.tags)]
        if firm:
            target = firm[0]
            if target.source_episode_id == candidate.source_episode_id or set(
                candidate.source_event_ids
            ) <= set(target.source_event_ids):
                return _decision(UpdateAction.NOOP, candidate, target, "already a standing rule")
            return _said_again(candidate, target, sessions)
        # from another episode, citing a message the stored one does not: said again (a later
        # pass over the same messages, credited to a newer episode, says nothing new)
        earlier = [
            m
            for m in waiting
            if m.source_episode_id != candidate.source_episode_id
            and not set(candidate.source_event_ids) <= set(m.source_event_ids)
        ]
        if not earlier:
            return None
        target = earlier[0]
        if is_echo(candidate):
            candidate = as_stored(candidate, target)
        return _decision(
            UpdateAction.DELETE_AND_ADD,
            _worded_as(promoted(candidate, target.source_event_ids, target.tags, sessions), target),
            target,
            "instruction recurred in another episode",
        )
    if not waiting:
        return _restated(candidate, [m for m in live if not is_tentative(m.tags)], sessions)
    target = waiting[0]
    firm_candidate = replace(
        candidate,
        tags=firm_tags(candidate.tags, STANDING_TAG),
        source_event_ids=pooled(target.source_event_ids, candidate.source_event_ids),
    )
    return _decision(
        UpdateAction.DELETE_AND_ADD, firm_candidate, target, "instruction stated as a rule"
    )


def _restated(
    candidate: MemoryCandidate, firm: Sequence[MemoryItem], sessions: SessionsOf | None = None
) -> UpdateDecision | None:
    """A rule stated again as a rule in another episode: said again (its importance grows) when
    it says what the stored rule says; None otherwise, so that a changed rule on the same key
    ("prefers npm over pnpm" after "prefers pnpm over npm", "never use tabs" after "always use
    tabs") goes through the ordinary rules."""
    if not firm:
        return None
    target = firm[0]
    if target.source_episode_id == candidate.source_episode_id or set(
        candidate.source_event_ids
    ) <= set(target.source_event_ids):
        return None
    same = (
        candidate.key in ONE_MEANING_KEYS
        or candidate.content == target.content
        or (
            # "Never use tabs." on the key of "Always use tabs.": the rule changed
            not opposite_rules(candidate.content, target.content)
            and same_instruction(candidate.content, target.content)
        )
    )
    return _said_again(candidate, target, sessions) if same else None


def _said_again(
    candidate: MemoryCandidate, target: MemoryItem, sessions: SessionsOf | None = None
) -> UpdateDecision:
    """A standing rule said once more: the stored wording stays, the occurrence is cited and
    the importance grows with the sessions; said again in a session already cited, it is
    cited without growing. A request or routine counted by its own rule is worded anew: its
    words state the count ("In 4 sessions the user asked …")."""
    cited = pooled(target.source_event_ids, candidate.source_event_ids)
    tags = firm_tags(pooled(target.tags, stress_marks(candidate.tags)), RECURRING_TAG)
    count = session_count(cited, sessions)
    new_session = count > session_count(target.source_event_ids, sessions)
    step = RECURRENCE_STEP if new_session else 0.0
    grown = recurring_importance(count, stress=stress_of(tags)) if count >= 2 else 0.0
    content = candidate.content if is_counted(candidate) else target.content
    again = replace(
        candidate,
        content=content,
        tags=tags,
        importance=round(
            min(
                max(MAX_RECURRING_IMPORTANCE, target.importance),
                max(grown, target.importance + step),
            ),
            3,
        ),
        source_event_ids=cited,
        scope=target.scope,
    )
    decision = _decision(
        UpdateAction.UPDATE_EXISTING, again, target, "standing rule said again in another episode"
    )
    return replace(decision, merged_content=content)


def expired(items: Sequence[MemoryItem], cutoff: datetime) -> list[MemoryItem]:
    """Tentative instructions last confirmed before `cutoff`: one-offs that did not recur."""
    return [
        m
        for m in items
        if not m.deleted
        and m.type is MemoryType.USER_STYLE
        and m.source is not MemorySource.MANUAL
        and is_tentative(m.tags)
        and m.updated_at < cutoff
    ]


def _decision(
    action: UpdateAction, candidate: MemoryCandidate, target: MemoryItem, reason: str
) -> UpdateDecision:
    return UpdateDecision(
        action=action,
        candidate=candidate,
        target_id=target.id,
        reason=reason,
        extra={"decided_by": "recurrence"},
    )
