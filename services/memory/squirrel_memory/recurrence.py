"""Instructions that come back: a tentative instruction said again later becomes a standing one.

The rules extractor keeps corrections and plain directives ("did you push?", "don't
summarize") as `tentative` user_style memories at low importance: said once, in the middle of
a task, they are usually about that task. When the same instruction (the same key) arrives
from another episode — another session, or the same one after a break of more than the
episode gap — the tentative memory is replaced by a standing one that cites both
occurrences. An instruction stated as a general rule replaces a tentative one at once, and
retention forgets a tentative one that did not come back within `retention.tentative_days`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from squirrel_memory.extractors.preferences import STANDING_TAG, TENTATIVE_TAG
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
RECURRING_TAG = "recurring"


def is_tentative(tags: Sequence[str]) -> bool:
    """Whether a memory or candidate is a one-off instruction still waiting for a repeat."""
    return TENTATIVE_TAG in tags


def _pooled(*groups: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for group in groups for i in group))


def _firm_tags(tags: Sequence[str], extra: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*(t for t in tags if t != TENTATIVE_TAG), extra)))


def promoted(candidate: MemoryCandidate, earlier: Sequence[str]) -> MemoryCandidate:
    """`candidate` as a standing instruction that also cites the `earlier` events."""
    return replace(
        candidate,
        tags=_firm_tags(candidate.tags, RECURRING_TAG),
        importance=max(candidate.importance, RECURRING_IMPORTANCE),
        source_event_ids=_pooled(earlier, candidate.source_event_ids),
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

    - tentative candidate, a standing memory on the key → NOOP (the rule already stands);
    - tentative candidate, a tentative memory from another episode → DELETE_AND_ADD with the
      candidate promoted to a standing instruction citing both occurrences;
    - standing candidate, a tentative memory on the key → DELETE_AND_ADD (the rule replaces
      the one-off, citing it).
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
            return _decision(UpdateAction.NOOP, candidate, firm[0], "already a standing rule")
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
        return None
    target = waiting[0]
    firm_candidate = replace(
        candidate,
        tags=_firm_tags(candidate.tags, STANDING_TAG),
        source_event_ids=_pooled(target.source_event_ids, candidate.source_event_ids),
    )
    return _decision(
        UpdateAction.DELETE_AND_ADD, firm_candidate, target, "instruction stated as a rule"
    )


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
