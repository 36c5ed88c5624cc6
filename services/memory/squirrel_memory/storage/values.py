"""The values a project's store exchanges with its callers, whatever the backend: what an append
and a processing pass did, a view's staleness record, a dead letter, a memory's change and its
listeners, and the steps of a manual plan (`storage.base.ManualPlan`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeAlias

from squirrel_memory.models import MemoryItem, MemoryType, Scope

__all__ = [
    "AppendResult",
    "DeadLetter",
    "FindAnchor",
    "FindLookalikes",
    "HistoryAction",
    "ManualStep",
    "MemoryChange",
    "MemoryListener",
    "ProcessingResult",
    "Retirement",
    "Supersede",
    "ViewMeta",
    "WriteManual",
]


@dataclass(frozen=True, slots=True)
class AppendResult:
    """Outcome of `append_events`; `event_ids` are the ids of the accepted events, in order."""

    accepted: int
    duplicates: int
    rejected: list[tuple[int, str]]
    event_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ViewMeta:
    """A `view_meta` row: when a view was built and how many events existed then."""

    view_name: str
    last_generated: datetime
    events_count_at_gen: int
    ttl_seconds: int


@dataclass(frozen=True, slots=True)
class DeadLetter:
    """Work that failed repeatedly and is parked for inspection (`sqrl status` counts them)."""

    id: int
    kind: str
    payload_ref: str
    error: str
    attempts: int
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of_row(cls, row: Sequence[Any], load_time: Callable[[Any], datetime]) -> DeadLetter:
        """A `dead_letters` row (id, kind, payload_ref, error, attempts, created_at, updated_at)
        with its times read by the dialect's `load_time`."""
        return cls(
            int(row[0]), row[1], row[2], row[3], int(row[4]), load_time(row[5]), load_time(row[6])
        )


class HistoryAction(StrEnum):
    """What produced one version in `memory_history`."""

    CREATED = "created"
    UPDATED = "updated"
    SUPERSEDED = "superseded"
    FORGOTTEN = "forgotten"


@dataclass(frozen=True, slots=True)
class MemoryChange:
    """Memory ids changed by one committed write, as passed to listeners.

    An id may be in more than one list when one batch touched it twice (added, then superseded);
    its final state is what `get_memories` returns now. Listeners run on the event loop after
    the commit; an exception in one is logged and does not undo the write.
    """

    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.updated or self.deleted)


MemoryListener = Callable[[MemoryChange], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class ProcessingResult:
    """What `apply_processing_result` wrote: episodes, memories touched and events marked."""

    episode_ids: tuple[str, ...]
    memories: tuple[MemoryItem, ...]
    change: MemoryChange
    processed: int


@dataclass(frozen=True, slots=True)
class Retirement:
    """A memory a pass wrote before and no longer finds, forgotten with `reason` in the pass's
    own write (`apply_processing_result`); one already gone, or written by hand, is left."""

    memory_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class FindLookalikes:
    """A step of a manual plan: the memories (deleted ones too) among the `limit` best lexical
    matches of `content` of this type, best first; what `search_fts` then `get_memories` give.

    With `manual` False the plan keeps none of the manual memories among them (a statement
    under a named key only supersedes extracted look-alikes): a screen may then rule the search
    out when only manual memories could be kept."""

    memory_type: MemoryType
    content: str
    limit: int
    manual: bool = True


@dataclass(frozen=True, slots=True)
class FindAnchor:
    """A step of a manual plan: the live memories on one anchor, oldest first (`find_anchor`)."""

    memory_type: MemoryType
    key: str
    scope: Scope
    user_id: str | None


@dataclass(frozen=True, slots=True)
class WriteManual:
    """A step of a manual plan: add a manual memory, or update the live manual memory on the
    same anchor (`remember`); answered with the memory. `last`: the plan writes nothing after
    it, so a batch may run this write without a savepoint (a step that fails writes nothing,
    and no later step of the plan could fail after it)."""

    memory_type: MemoryType
    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    scope: Scope
    user_id: str | None
    last: bool = False
    #: Project-relative paths the memory holds for (added to those it already names).
    file_paths: tuple[str, ...] = ()
    #: Who states it (the caller's user, whatever the scope), added to the memory's writers;
    #: set by `checked_manual` from `user_id`.
    writer: str | None = None


@dataclass(frozen=True, slots=True)
class Supersede:
    """A step of a manual plan: mark a live extracted memory superseded by `by_id`
    (`supersede`); answered with the memory."""

    memory_id: str
    by_id: str
    reason: str


ManualStep: TypeAlias = FindLookalikes | FindAnchor | WriteManual | Supersede
