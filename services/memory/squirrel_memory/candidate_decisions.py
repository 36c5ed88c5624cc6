"""Deciding candidates against the store: merged per anchor within a batch, then one
Mem0-style decision each (add, update, delete or keep)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from squirrel_core.secret_assignments import states_secret
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.extractors.echoes import is_echo
from squirrel_memory.extractors.paraphrases import Likeness
from squirrel_memory.instruction_meaning import comparable, instruction_likeness
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.pass_report import Decide
from squirrel_memory.promotion import SessionsOf
from squirrel_memory.recurrence import (
    align_with_stored,
    decide_recurrence,
    is_restated,
    merge_pair,
    unify_keys,
)
from squirrel_memory.storage import Store
from squirrel_memory.storage.values import FindAnchor, FindLookalikes
from squirrel_memory.updates import decide_update, replaces, reverses, says_less
from squirrel_memory.updates.writers import spare_rules_memory
from squirrel_memory.user_memories.manual import LOOKALIKE_LIMIT, WordScreen, manual_lookalikes

STYLE_LIMIT = 500
"""Stored user_style memories an instruction said again in other words is compared with."""


def merge_candidates(
    candidates: Sequence[MemoryCandidate],
    likeness: Likeness | None = None,
    sessions: SessionsOf | None = None,
) -> list[MemoryCandidate]:
    """One candidate per anchor (type, key, scope) within a batch: a later one that contradicts
    an earlier one (`updates.replaces`: the project moved on), else the one that says more (a
    manifest's language over a counted one: `updates.says_less`), else the most important wins,
    evidence (event ids, paths, tags) is pooled, so two episodes cannot both ADD the same key.
    A tentative instruction repeated by another episode, in the same words or others (close in
    meaning by `likeness`), is promoted (`recurrence`), weighed by the `sessions` it was said
    in."""
    merged: dict[tuple[str, str, str], MemoryCandidate] = {}
    for cand in unify_keys(candidates, likeness):
        anchor = (cand.type.value, cand.key, cand.scope.value)
        best = merged.get(anchor)
        if best is None:
            merged[anchor] = cand
            continue
        if (recurring := merge_pair(best, cand, sessions)) is not None:
            merged[anchor] = recurring
            continue
        if replaces(cand, best):
            # The later episode contradicts the earlier one: the project moved on, and the
            # older statement's evidence is no evidence for the newer one.
            merged[anchor] = cand
            continue
        stronger = says_less(best, cand) or (
            not says_less(cand, best) and cand.importance > best.importance
        )
        winner, other = (cand, best) if stronger else (best, cand)
        merged[anchor] = replace(
            winner,
            source_event_ids=tuple(
                dict.fromkeys((*winner.source_event_ids, *other.source_event_ids))
            ),
            file_paths=tuple(dict.fromkeys((*winner.file_paths, *other.file_paths))),
            source_refs=tuple(dict.fromkeys((*winner.source_refs, *other.source_refs))),
            # The tags of what says less (`touched`, `summary`) would mark the winner so.
            tags=tuple(
                dict.fromkeys((*winner.tags, *(() if says_less(other, winner) else other.tags)))
            ),
        )
    return _without_taken_back(list(merged.values()))


def _without_taken_back(candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """The batch's instructions but those a later one takes back (`updates.reverses`: "from
    now on 4 spaces, not 2" after "indent with 2 spaces")."""
    styles = [c for c in candidates if c.type is MemoryType.USER_STYLE]
    gone = {
        id(earlier)
        for i, earlier in enumerate(styles)
        for later in styles[i + 1 :]
        if not is_echo(later) and reverses(later.content, earlier.content)
    }
    return [c for c in candidates if id(c) not in gone]


def _taking_back(decision: UpdateDecision, stored: Sequence[MemoryItem]) -> UpdateDecision:
    """A new instruction that takes a stored one back (`updates.reverses`) replaces it: the
    older one is deleted, superseded by the new one (a manual memory stays: what the user wrote
    is theirs to change)."""
    cand = decision.candidate
    if cand.type is not MemoryType.USER_STYLE or decision.action is not UpdateAction.ADD_NEW:
        return decision
    for item in stored:
        if (
            not item.deleted
            and item.source is not MemorySource.MANUAL
            and item.key != cand.key
            and reverses(cand.content, item.content)
        ):
            return replace(
                decision,
                action=UpdateAction.DELETE_AND_ADD,
                target_id=item.id,
                reason="takes back an earlier instruction",
            )
    return decision


async def decide_candidates(
    store: Store,
    candidates: Sequence[MemoryCandidate],
    user: str,
    decide: Decide,
    meaning: Embedder | None = None,
    *,
    owner: str | None = None,
) -> list[UpdateDecision]:
    """One Mem0-style decision per merged candidate against what the store holds (a
    model's candidate never retires a rules memory: see `spare_rules_memory`). With a
    `meaning` embedder, an instruction said again in other words is also told by how close
    its meaning is to an earlier one (`instruction_meaning`). With an `owner` (the user of a
    team server's pass, whose style findings are theirs: `style_owner`) style is weighed
    against that user's stored style only, read by owner; without one (a laptop), against
    the project's."""
    project_id = store.project_id
    decisions: list[UpdateDecision] = []
    # A secret is never kept: a candidate that gives one a value (a command's `TOKEN=…`, an
    # assignment whose value ingest redacted) says nothing, whatever rule found it.
    candidates = [c for c in candidates if not states_secret(c.content)]
    styles = [c for c in candidates if c.type is MemoryType.USER_STYLE]
    stored: list[MemoryItem] = []
    if styles and owner is not None:
        stored = await store.owned_memories(
            project_id, MemoryType.USER_STYLE, owner, limit=STYLE_LIMIT
        )
    elif styles:
        stored, _ = await store.list_memories(
            project_id, [MemoryType.USER_STYLE], limit=STYLE_LIMIT
        )
    said = [c.content for c in styles if not is_echo(c)]
    echoed = [c.content for c in styles if is_echo(c)]
    likeness = (
        await instruction_likeness(meaning, comparable(said, stored, echoed)) if styles else None
    )
    sessions = await _sessions_of(store, [*styles, *stored])
    merged = merge_candidates(candidates, likeness, sessions)
    if styles:
        # An instruction said again in other words is filed under the stored one's key.
        merged = merge_candidates(align_with_stored(merged, stored, likeness), likeness, sessions)
    # Words the user said again that match no instruction given before say nothing yet.
    held = {m.key for m in stored if not m.deleted}
    merged = [c for c in merged if not (is_restated(c) and c.key not in held)]
    # The look-alike search below finds manual memories only: without any, it is skipped,
    # and it runs only for candidates the words of the manual memories do not rule out.
    manual = bool(merged) and (await store.writer_counts()).get(str(MemorySource.MANUAL), 0) > 0
    screen = WordScreen()
    # Every candidate's anchor in one read (the decisions are written together at the end).
    anchored = await store.find_anchors(
        project_id, [FindAnchor(c.type, c.key, c.scope, user) for c in merged]
    )
    for cand, existing in zip(merged, anchored, strict=True):
        if manual and not screen.knows(cand.type, 0):  # the manual memories, for this pass
            texts = await store.memory_texts(project_id, cand.type, MemorySource.MANUAL)
            screen.learn(cand.type, 0, [(i, text, True) for i, text in texts])
        # A manual memory saying the same thing under another key: NOOP, wording kept.
        if manual and not screen.rules_out(
            FindLookalikes(cand.type, cand.content, LOOKALIKE_LIMIT)
        ):
            existing += [
                m
                for m in await manual_lookalikes(
                    store,
                    project_id,
                    memory_type=cand.type,
                    scope=cand.scope,
                    user_id=user,
                    content=cand.content,
                )
                if m.key != cand.key
            ]
        if cand.type is MemoryType.USER_STYLE:
            sessions = {**sessions, **await _sessions_of(store, existing, known=sessions)}
        recurring = decide_recurrence(cand, existing, sessions)
        if recurring is None and is_echo(cand):
            continue  # words said again in the instruction's own session: nothing new
        decision = recurring or await decide(cand, existing)
        decisions.append(spare_rules_memory(_taking_back(decision, stored), existing))
    return decisions


async def decide_by_rules(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    """The rules' decision, as a `Decide` (without a model, the rules decide alone)."""
    return decide_update(candidate, existing)


async def _sessions_of(
    store: Store,
    cited: Sequence[MemoryCandidate | MemoryItem],
    known: SessionsOf | None = None,
) -> dict[str, str]:
    """The session of each event the user_style memories and candidates `cited` name (those
    not in `known` yet): recurrence counts sessions, not messages. An event no longer stored
    is left out (it then counts as a session of its own)."""
    wanted = {
        event_id
        for item in cited
        if item.type is MemoryType.USER_STYLE
        for event_id in item.source_event_ids
        if not known or event_id not in known
    }
    if not wanted:
        return {}
    return {e.id: e.session_id for e in await store.get_events(sorted(wanted)) if e.session_id}
