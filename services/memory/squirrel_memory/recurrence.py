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
two instructions whose content words mostly overlap (`same_instruction`) are one instruction,
whatever their keys, so the later one is filed under the earlier one's key (`unify_keys`
within a batch, `align_with_stored` against the stored ones). Every further occurrence from
another episode raises the standing instruction's importance (`recurring_importance`), so
what the user keeps saying ranks first in the style view.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from squirrel_memory.extractors.instruction_words import instruction_words, telling_words
from squirrel_memory.extractors.preferences import (
    STANDING_TAG,
    TENTATIVE_TAG,
)
from squirrel_memory.extractors.workflow_habits import CARRY_KEY, DONE_KEY
from squirrel_memory.extractors.working_habits import HABIT_KEY
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)

#: Importance of an instruction seen in two episodes (a stated rule starts at 0.7 too).
RECURRING_IMPORTANCE = 0.7
#: What each further occurrence adds, and the most recurrence alone can give.
RECURRENCE_STEP = 0.05
MAX_RECURRING_IMPORTANCE = 0.9
RECURRING_TAG = "recurring"
#: Two instructions are the same when at least this many content words are shared and they
#: make up this share of the shorter one's words.
MIN_SHARED_WORDS = 2
_CHOICE = re.compile(r"^Prefers\s+(.+?)\s+(?:over|to|rather than|instead of)\s", re.IGNORECASE)
#: Keys every wording of one habit is filed under: whatever the words, they say the same.
ONE_MEANING_KEYS = frozenset({HABIT_KEY, CARRY_KEY, DONE_KEY})
MIN_SHARED_SHARE = 0.6


def recurring_importance(occurrences: int, floor: float = RECURRING_IMPORTANCE) -> float:
    """The importance of an instruction said `occurrences` times (two: `RECURRING_IMPORTANCE`),
    never below `floor`."""
    grown = RECURRING_IMPORTANCE + RECURRENCE_STEP * max(occurrences - 2, 0)
    return round(max(floor, min(MAX_RECURRING_IMPORTANCE, grown)), 3)


def same_instruction(first: str, second: str) -> bool:
    """Whether two instructions say the same thing in other words: most of the shorter one's
    content words (stemmed, without the words of firmness and filler) are in the other, and
    so are most of the words that tell instructions apart (not only "run" or "add")."""
    a, b = instruction_words(first), instruction_words(second)
    ta, tb = telling_words(a), telling_words(b)
    return (
        len(a & b) >= MIN_SHARED_WORDS
        and len(ta & tb) >= 1
        and len(a & b) / min(len(a), len(b)) >= MIN_SHARED_SHARE
        and len(ta & tb) / min(len(ta), len(tb)) >= MIN_SHARED_SHARE
    )


def _style_pair(first: MemoryCandidate | MemoryItem, second: MemoryCandidate) -> bool:
    return (
        first.type is MemoryType.USER_STYLE
        and second.type is MemoryType.USER_STYLE
        and first.key != second.key
        and (is_tentative(first.tags) or is_tentative(second.tags))
        and same_instruction(first.content, second.content)
    )


def unify_keys(candidates: Sequence[MemoryCandidate]) -> list[MemoryCandidate]:
    """Candidates with a user_style instruction said again in other words filed under the key
    (and scope) of its first occurrence in the batch, so the merge sees one instruction."""
    seen: list[MemoryCandidate] = []
    result: list[MemoryCandidate] = []
    for cand in candidates:
        first = next((s for s in seen if _style_pair(s, cand)), None)
        if first is not None:
            result.append(replace(cand, key=first.key, scope=first.scope))
            continue
        if cand.type is MemoryType.USER_STYLE:
            seen.append(cand)
        result.append(cand)
    return result


def align_with_stored(
    candidates: Sequence[MemoryCandidate], stored: Sequence[MemoryItem]
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
            match = next((m for m in live if _style_pair(m, cand)), None)
        result.append(cand if match is None else replace(cand, key=match.key, scope=match.scope))
    return result


def is_tentative(tags: Sequence[str]) -> bool:
    """Whether a memory or candidate is a one-off instruction still waiting for a repeat."""
    return TENTATIVE_TAG in tags


def _pooled(*groups: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for group in groups for i in group))


def _firm_tags(tags: Sequence[str], extra: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*(t for t in tags if t != TENTATIVE_TAG), extra)))


def promoted(candidate: MemoryCandidate, earlier: Sequence[str]) -> MemoryCandidate:
    """`candidate` as a standing instruction that also cites the `earlier` events; each
    cited occurrence beyond the second adds `RECURRENCE_STEP`."""
    pooled = _pooled(earlier, candidate.source_event_ids)
    return replace(
        candidate,
        tags=_firm_tags(candidate.tags, RECURRING_TAG),
        importance=recurring_importance(len(pooled), candidate.importance),
        source_event_ids=pooled,
    )


def merge_pair(first: MemoryCandidate, second: MemoryCandidate) -> MemoryCandidate | None:
    """Two user_style candidates on one anchor within a pass, when a tentative one is involved.

    Both tentative, from different episodes: the later one, promoted. One standing: it wins
    and cites both. None when this rule has nothing to say (the caller merges as usual).
    """
    if first.type is not MemoryType.USER_STYLE or second.type is not MemoryType.USER_STYLE:
        return None
    first_tentative, second_tentative = is_tentative(first.tags), is_tentative(second.tags)
    if first_tentative and second_tentative:
        if first.source_episode_id == second.source_episode_id:
            return None
        return promoted(second, first.source_event_ids)
    if first_tentative or second_tentative:
        firm, other = (second, first) if first_tentative else (first, second)
        pooled = _pooled(firm.source_event_ids, other.source_event_ids)
        return replace(firm, source_event_ids=pooled)
    return None


def decide_recurrence(
    candidate: MemoryCandidate, existing: Sequence[MemoryItem]
) -> UpdateDecision | None:
    """The decision for a user_style candidate against tentative memories on its anchor.

    - tentative candidate, a standing memory on the key → UPDATE_EXISTING with the occurrence
      cited and the importance grown when it comes from another episode (the user said the
      rule again), NOOP when from the same one;
    - tentative candidate, a tentative memory from another episode → DELETE_AND_ADD with the
      candidate promoted to a standing instruction citing both occurrences;
    - standing candidate, a tentative memory on the key → DELETE_AND_ADD (the rule replaces
      the one-off, citing it);
    - standing candidate saying a standing memory's rule again, from another episode →
      UPDATE_EXISTING with the occurrence cited and the importance grown.
    None otherwise: the ordinary update rules decide. Manual memories are left alone.
    """
    if candidate.type is not MemoryType.USER_STYLE:
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
            return _said_again(candidate, target)
        earlier = [m for m in waiting if m.source_episode_id != candidate.source_episode_id]
        if not earlier:
            return None
        target = earlier[0]
        return _decision(
            UpdateAction.DELETE_AND_ADD,
            promoted(candidate, target.source_event_ids),
            target,
            "instruction recurred in another episode",
        )
    if not waiting:
        return _restated(candidate, [m for m in live if not is_tentative(m.tags)])
    target = waiting[0]
    firm_candidate = replace(
        candidate,
        tags=_firm_tags(candidate.tags, STANDING_TAG),
        source_event_ids=_pooled(target.source_event_ids, candidate.source_event_ids),
    )
    return _decision(
        UpdateAction.DELETE_AND_ADD, firm_candidate, target, "instruction stated as a rule"
    )


def _restated(candidate: MemoryCandidate, firm: Sequence[MemoryItem]) -> UpdateDecision | None:
    """A rule stated again as a rule in another episode: said again (its importance grows) when
    it says what the stored rule says; None otherwise, so that a changed rule on the same key
    ("prefers npm over pnpm" after "prefers pnpm over npm") goes through the ordinary rules."""
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
            _chosen(candidate.content) == _chosen(target.content)
            and same_instruction(candidate.content, target.content)
        )
    )
    return _said_again(candidate, target) if same else None


def _chosen(content: str) -> str:
    """What a choice prefers ("Prefers pnpm over npm." → "pnpm"); empty for other rules. The
    same words in the other order are the opposite choice."""
    match = _CHOICE.match(content)
    return match.group(1).lower() if match else ""


def _said_again(candidate: MemoryCandidate, target: MemoryItem) -> UpdateDecision:
    """A standing rule said once more: the stored wording stays, the occurrence is cited and
    the importance grows with the occurrences."""
    pooled = _pooled(target.source_event_ids, candidate.source_event_ids)
    again = replace(
        candidate,
        content=target.content,
        tags=_firm_tags(target.tags, RECURRING_TAG),
        importance=min(
            max(MAX_RECURRING_IMPORTANCE, target.importance),
            max(recurring_importance(len(pooled)), target.importance + RECURRENCE_STEP),
        ),
        source_event_ids=pooled,
        scope=target.scope,
    )
    decision = _decision(
        UpdateAction.UPDATE_EXISTING, again, target, "standing rule said again in another episode"
    )
    return replace(decision, merged_content=target.content)


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
