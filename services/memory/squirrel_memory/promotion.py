"""What an instruction said again weighs: a tentative one promoted to a standing one, its
importance grown with the sessions it was said in.

Recurrence counts sessions, not messages (`SessionsOf`): an instruction seen in two sessions
stands at `RECURRING_IMPORTANCE`, each further session adds `RECURRENCE_STEP` up to
`MAX_RECURRING_IMPORTANCE`, and one said again only within one session (after a break) stands
at `ONE_SESSION_IMPORTANCE`. The user's emphasis or correction on any occurrence adds its step
on top (`stress_of`). The rules that decide when an instruction came back are `recurrence`'s
(and, for the user's words said again in a form no rule reads, `extractors/echo_merge`'s).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from squirrel_memory.extractors.firmness import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    TENTATIVE_TAG,
)
from squirrel_memory.models import MemoryCandidate

#: Importance of an instruction seen in two sessions (a stated rule starts at 0.7 too).
RECURRING_IMPORTANCE = 0.7
#: Importance of an instruction said again only within one session (after a break): a
#: standing one, below what a second session gives.
ONE_SESSION_IMPORTANCE = 0.65
#: What each further occurrence adds, and the most recurrence alone can give.
RECURRENCE_STEP = 0.05
MAX_RECURRING_IMPORTANCE = 0.9
RECURRING_TAG = "recurring"
#: What the user's emphasis, and a correction, add to a recurring instruction's importance
#: (as they do to an instruction said once: `firmness`).
_STRESS_STEPS = {EMPHASIS_TAG: EMPHASIS_STEP, CORRECTION_TAG: CORRECTION_STEP}

SessionsOf = Mapping[str, str]
"""The session of each event an instruction cites (event id → session id). An event it does
not know (pruned, or no map given) counts as a session of its own."""


def recurring_importance(
    sessions: int, floor: float = RECURRING_IMPORTANCE, *, stress: float = 0.0
) -> float:
    """The importance of an instruction said in `sessions` sessions (two:
    `RECURRING_IMPORTANCE`; one, said again after a break: `ONE_SESSION_IMPORTANCE`), plus the
    `stress` the user put on it (`stress_of`), never below `floor`."""
    if sessions < 2:
        grown = ONE_SESSION_IMPORTANCE
    else:
        grown = RECURRING_IMPORTANCE + RECURRENCE_STEP * (sessions - 2)
    grown = min(MAX_RECURRING_IMPORTANCE, grown) + stress
    return round(max(floor, min(MAX_RECURRING_IMPORTANCE, grown)), 3)


def session_count(event_ids: Sequence[str], sessions: SessionsOf | None = None) -> int:
    """How many sessions the events `event_ids` were said in (`SessionsOf`)."""
    known = sessions or {}
    return len({known.get(event_id) or f"event:{event_id}" for event_id in event_ids})


def stress_of(tags: Sequence[str]) -> float:
    """What an instruction's marks add when it recurs: `EMPHASIS_STEP` when any occurrence
    was stressed (capitals, "I told you", said twice in one session), `CORRECTION_STEP` when
    any corrected the assistant."""
    return sum(step for tag, step in _STRESS_STEPS.items() if tag in tags)


def is_tentative(tags: Sequence[str]) -> bool:
    """Whether a memory or candidate is a one-off instruction still waiting for a repeat."""
    return TENTATIVE_TAG in tags


def pooled(*groups: Sequence[str]) -> tuple[str, ...]:
    """The ids of every group, each once, in order."""
    return tuple(dict.fromkeys(i for group in groups for i in group))


def firm_tags(tags: Sequence[str], extra: str) -> tuple[str, ...]:
    """`tags` without the tentative mark, with `extra` (a standing or recurring mark)."""
    return tuple(dict.fromkeys((*(t for t in tags if t != TENTATIVE_TAG), extra)))


def promoted(
    candidate: MemoryCandidate,
    earlier: Sequence[str],
    earlier_tags: Sequence[str] = (),
    sessions: SessionsOf | None = None,
) -> MemoryCandidate:
    """`candidate` as a standing instruction that also cites the `earlier` events (whose
    memory or candidate carried `earlier_tags`); each session cited beyond the second adds
    `RECURRENCE_STEP`, and the user's stress on any occurrence its step (`stress_of`)."""
    cited = pooled(earlier, candidate.source_event_ids)
    tags = firm_tags(pooled(candidate.tags, stress_marks(earlier_tags)), RECURRING_TAG)
    return replace(
        candidate,
        tags=tags,
        importance=recurring_importance(
            session_count(cited, sessions), candidate.importance, stress=stress_of(tags)
        ),
        source_event_ids=cited,
    )


def stress_marks(tags: Sequence[str]) -> tuple[str, ...]:
    """The stress marks among `tags`, which an instruction keeps when said again."""
    return tuple(t for t in tags if t in _STRESS_STEPS)


__all__ = [
    "MAX_RECURRING_IMPORTANCE",
    "ONE_SESSION_IMPORTANCE",
    "RECURRENCE_STEP",
    "RECURRING_IMPORTANCE",
    "RECURRING_TAG",
    "SessionsOf",
    "firm_tags",
    "is_tentative",
    "pooled",
    "promoted",
    "recurring_importance",
    "session_count",
    "stress_marks",
    "stress_of",
]
