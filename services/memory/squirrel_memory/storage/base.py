"""The storage contract of one project: what the memory engine needs from a backend.

`Store` is made of four parts, each a protocol: `EventLog` (events, cursors, episodes,
processing marks), `MemoryBook` (memories, their history, change listeners), `MemorySearch`
(lexical search) and `Upkeep` (view staleness records, dead letters, retention, counts);
`Store` adds one-transaction processing results and the project's vector index
(`open_vector_index`). A backend implements all of it: `storage.sqlite` (embedded, one file per
project, FAISS) and `storage.postgres` (one shared database, pgvector); `tests/contract/` runs
the same tests on both. The values they exchange (`AppendResult`, `ProcessingResult`,
`MemoryChange`, `ViewMeta`, `DeadLetter`, and the steps of a manual plan) are in
`storage.values`, so that no caller depends on a backend's module.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, TypeAlias, TypeVar

from squirrel_core.errors import SquirrelError
from squirrel_core.events import Event, SourceCursor
from squirrel_memory.index import IndexProblem, VectorIndex
from squirrel_memory.models import (
    Episode,
    MemoryItem,
    MemorySource,
    MemoryType,
    MemoryVersion,
    Scope,
    StoredEvent,
    UpdateDecision,
)
from squirrel_memory.storage.kept_replies import KeptReply
from squirrel_memory.storage.outcome_log import OutcomeLog
from squirrel_memory.storage.values import (
    AppendResult,
    DeadLetter,
    FindAnchor,
    FindLookalikes,
    ManualStep,
    MemoryListener,
    ProcessingResult,
    Retirement,
    ViewMeta,
)
from squirrel_memory.user_memories.confirmations import Confirmations

__all__ = [
    "EventLog",
    "LookalikeScreen",
    "ManualPlan",
    "MemoryBook",
    "MemorySearch",
    "Store",
    "Upkeep",
]

T = TypeVar("T")


class LookalikeScreen(Protocol):
    """What a batch of manual plans may use to skip lexical searches that cannot matter.

    It is told the live memories of a type (`learn`) with the version of that type's memories
    (rows and the sum of their versions, raised by every write of one), then every memory a
    plan writes (`written`), and at the end of the batch, inside its transaction, the version
    the batch made (`settle`); `forget` when the batch failed. For a `FindLookalikes` step of a
    type it `knows` at the store's current version, and `rules_out`, the backend answers `[]`
    instead of searching: the screen has proved that no memory the plan would keep is there. When it
    does not know the type, the backend lets it `learn` only when it `wants` to.
    """

    def wants(self, count: int) -> bool:
        """Whether to learn a type of `count` live and deleted memories it does not know."""
        ...

    def knows(self, memory_type: MemoryType, version: Hashable) -> bool: ...
    def learn(
        self,
        memory_type: MemoryType,
        version: Hashable,
        memories: Sequence[tuple[str, str, bool]],
    ) -> None:
        """The (id, content, written by hand) of every live memory of `memory_type`, at
        `version`."""
        ...

    def written(self, item: MemoryItem) -> None: ...
    def settle(self, memory_type: MemoryType, version: Hashable) -> None: ...
    def forget(self) -> None: ...
    def rules_out(self, step: FindLookalikes) -> bool: ...


#: A rule of manual memory written as steps (a generator that yields `ManualStep`s, is sent
#: each answer and returns its result): the same plan runs over the public methods, one write
#: at a time, or inside one backend transaction with many others (`remember_batch`).
ManualPlan: TypeAlias = Generator[ManualStep, Any, T]


class EventLog(Protocol):
    """Events with their cursors, episodes and processing marks of one project.

    Appending is idempotent: an event whose dedup hash is already stored counts as a duplicate.
    """

    async def append_events(
        self,
        project_id: str,
        user_id: str,
        events: Sequence[Event],
        cursors: Sequence[SourceCursor],
    ) -> AppendResult: ...
    async def get_cursors(self, project_id: str) -> list[SourceCursor]: ...
    async def fetch_unprocessed(self, project_id: str, limit: int = 200) -> list[StoredEvent]: ...
    async def fetch_unprocessed_of_sessions(
        self, project_id: str, session_ids: Sequence[str | None], limit: int
    ) -> list[StoredEvent]: ...
    async def count_unprocessed(self, project_id: str) -> int: ...
    async def count_events(self, project_id: str) -> int: ...
    async def events_after(self, position: int, limit: int) -> list[tuple[int, StoredEvent]]:
        """Events stored after `position`, in storing order, with their positions (what has
        not yet been delivered onwards)."""
        ...

    async def count_events_after(self, position: int) -> int: ...
    async def get_events(self, event_ids: Sequence[str]) -> list[StoredEvent]: ...
    async def fetch_recent_of_types(
        self,
        project_id: str,
        event_types: Sequence[str],
        limit: int,
        origin: str | None = None,
        *,
        user_id: str | None = None,
    ) -> list[StoredEvent]:
        """The newest `limit` events of these types, oldest first; only those of `origin` and
        delivered by `user_id`, when given."""
        ...

    async def save_episodes(self, episodes: Sequence[Episode]) -> list[str]: ...
    async def get_episode(self, episode_id: str) -> Episode: ...
    async def mark_processed(self, event_ids: Sequence[str], at: datetime | None = None) -> int: ...


class MemoryBook(Protocol):
    """Memories of one project: update decisions, manual memory, history, listeners."""

    async def apply_decision(
        self,
        decision: UpdateDecision,
        *,
        user_id: str,
        source: MemorySource = MemorySource.RULES,
    ) -> MemoryItem | None: ...
    async def find_anchor(
        self,
        project_id: str,
        type: MemoryType,
        key: str,
        scope: Scope,
        user_id: str | None,
    ) -> list[MemoryItem]: ...
    async def find_anchors(
        self, project_id: str, anchors: Sequence[FindAnchor]
    ) -> list[list[MemoryItem]]:
        """`find_anchor` for each of `anchors`, in order, in one read."""
        ...

    async def remember(
        self,
        project_id: str,
        *,
        type: MemoryType,
        key: str,
        content: str,
        tags: Sequence[str],
        importance: float,
        scope: Scope,
        user_id: str | None,
        file_paths: Sequence[str] = (),
    ) -> MemoryItem: ...
    async def remember_batch(
        self,
        project_id: str,
        plans: Sequence[ManualPlan[T]],
        screen: LookalikeScreen | None = None,
    ) -> list[T | SquirrelError]:
        """Run `plans` in order inside ONE write transaction, each seeing the writes of the
        ones before it, and return their results. A plan that raises a `SquirrelError` gets it
        in its slot, and its own writes are undone; the others are still written. With a
        `screen`, look-alike searches it rules out are skipped."""
        ...

    async def supersede(self, memory_id: str, by_id: str, reason: str) -> MemoryItem: ...
    async def forget(self, memory_id: str, reason: str) -> MemoryItem: ...
    async def correct(
        self, memory_id: str, *, content: str | None, importance: float | None, reason: str
    ) -> tuple[MemoryItem, bool]: ...
    async def memory_keys(self, project_id: str) -> tuple[str, list[tuple[str, str, str]]]: ...
    async def key_mark(self, project_id: str) -> str: ...
    async def get_memory(self, memory_id: str) -> MemoryItem: ...
    async def memory_ids_from_tool(self, source_tool: str) -> set[str]: ...
    async def live_memory_ids(self) -> set[str]: ...
    async def memory_texts(
        self, project_id: str, memory_type: MemoryType, source: MemorySource | None = None
    ) -> list[tuple[str, str]]:
        """(id, content) of the live memories of one type (and of `source`, when given)."""
        ...

    async def get_memories(self, memory_ids: Sequence[str]) -> list[MemoryItem]: ...
    async def found_memories(
        self, find: Callable[[], Sequence[tuple[str, float]]]
    ) -> tuple[list[tuple[str, float]], list[MemoryItem]]:
        """Runs the blocking `find` off the event loop (a query embedding and a vector search:
        `(memory_id, score)` hits) and reads the memories of the ids it returned, as
        `get_memories` does. SQLite does both on one reader thread."""
        ...

    async def memory_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]: ...
    async def list_memories(
        self,
        project_id: str,
        types: Sequence[MemoryType] | None = None,
        include_deleted: bool = False,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[MemoryItem], int]: ...
    async def memories_with_paths(
        self,
        project_id: str,
        paths: Sequence[str],
        types: Sequence[MemoryType] | None = None,
        limit: int = 200,
    ) -> list[MemoryItem]: ...
    async def most_important(
        self, project_id: str, memory_type: MemoryType, limit: int = 20
    ) -> list[MemoryItem]: ...
    async def owned_memories(
        self, project_id: str, memory_type: MemoryType, owner: str, limit: int = 50
    ) -> list[MemoryItem]:
        """Live user-scoped memories of one type that belong to `owner`, newest first."""
        ...

    async def visible_memories(
        self,
        project_id: str,
        memory_type: MemoryType,
        viewer: str | None,
        *,
        limit: int = 50,
        by_importance: bool = False,
    ) -> list[MemoryItem]:
        """Live memories of one type that `viewer` may see (shared ones and their own private
        ones; all when None), newest (or most important) first, chosen in the query."""
        ...

    async def unowned_memories(self, project_id: str, memory_type: MemoryType) -> list[MemoryItem]:
        """Live project-scoped memories of one type with no owner, oldest first."""
        ...

    async def hand_over(self, old: MemoryItem, successor: MemoryItem, reason: str) -> bool:
        """`old` retired, superseded by `successor` (a new memory, or the next version of a
        live one), in one write; False (nothing written) when either changed meanwhile."""
        ...

    async def history(self, memory_id: str) -> list[MemoryVersion]: ...
    def add_listener(self, listener: MemoryListener) -> None: ...
    def remove_listener(self, listener: MemoryListener) -> None: ...


class MemorySearch(Protocol):
    """Lexical search over the live memories of one project.

    `search_fts` returns `(memory_id, score)` pairs, best first, scores higher-is-better;
    `search_fts_memories` the same hits with their memories (in one read where it can).
    """

    async def search_fts(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[str, float]]: ...
    async def search_fts_memories(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[MemoryItem, float]]: ...
    async def found_with_lexical(
        self,
        find: Callable[[], Sequence[tuple[str, float]]],
        project_id: str,
        query: str,
        *,
        types: Sequence[MemoryType] | None,
        limit: int,
        on_lexical: Callable[[list[tuple[MemoryItem, float]]], None],
    ) -> tuple[list[tuple[str, float]], list[MemoryItem], list[tuple[MemoryItem, float]]]:
        """`found_memories(find)` and `search_fts_memories` at once (the vector and the lexical
        side of a search); `on_lexical` gets the lexical hits as soon as they are read, maybe
        while `find` still runs, on another thread. SQLite runs both on two readers and wakes
        the event loop once."""
        ...

    async def rebuild_search_index(self) -> int: ...


class Upkeep(Protocol):
    """View staleness records, dead letters, retention and counts of one project."""

    async def get_view_meta(self, name: str) -> ViewMeta | None: ...
    async def put_view_meta(
        self, name: str, last_generated: datetime, events_count_at_gen: int, ttl: int
    ) -> None: ...
    async def record_dead_letter(
        self, kind: str, payload_ref: str, error: str, *, count_attempt: bool = True
    ) -> DeadLetter:
        """Park failed work; a repeat updates the error and, when `count_attempt`, adds one
        to its attempts (a forced retry does not use up the automatic back-off budget)."""
        ...

    async def list_dead_letters(self, kind: str | None = None) -> list[DeadLetter]: ...
    async def resolve_dead_letter(self, dead_letter_id: int) -> None: ...
    async def put_parked_events(self, dead_letter_id: int, event_ids: Sequence[str]) -> None:
        """Keep the event ids a dead letter parks beside it (not in its reference); they go
        with the letter. `NotFoundError` if the letter is unknown."""
        ...

    async def parked_events(self, dead_letter_id: int) -> list[str] | None:
        """The event ids kept for a dead letter, or None if none were kept."""
        ...

    async def claim_reply(self, key: str, method: str, fingerprint: str) -> KeptReply | None:
        """Claim an idempotency key (unique per project) for a call of `method` whose request
        has `fingerprint`: None when this call now holds it (a new key, or a claim abandoned
        for `CLAIM_SECONDS` taken over); else what the earlier call with the key left (its
        reply None while that call runs). `InvalidArgumentError` for a malformed key."""
        ...

    async def keep_reply(self, key: str, reply: bytes) -> None:
        """Keep the serialized reply of the call holding `key` for `KEEP_DAYS`."""
        ...

    async def release_reply(self, key: str) -> None:
        """Drop the claim on `key` of a call that failed (a kept reply stays)."""
        ...

    async def events_per_day(self, since: datetime) -> dict[str, int]: ...
    async def prune_processed_events(self, older_than: datetime) -> int: ...
    async def waiting_sessions(self, project_id: str) -> list[tuple[datetime, datetime]]: ...
    async def writer_counts(self) -> dict[str, int]: ...
    async def counts(self) -> dict[str, int]: ...
    async def vacuum(self) -> None: ...


class Store(EventLog, MemoryBook, MemorySearch, Upkeep, OutcomeLog, Protocol):
    """What the memory engine needs from storage for one project."""

    project_id: str

    @property
    def store_dir(self) -> Path:
        """The local folder of the project's views, confirmations (and, on SQLite, its data)."""
        ...

    @property
    def confirmations(self) -> Confirmations:
        """The flagged memories of this project the user confirmed."""
        ...

    async def apply_processing_result(
        self,
        episodes: Sequence[Episode],
        decisions: Sequence[UpdateDecision],
        processed_event_ids: Sequence[str],
        *,
        user_id: str,
        source: MemorySource = MemorySource.RULES,
        at: datetime | None = None,
        retirements: Sequence[Retirement] = (),
    ) -> ProcessingResult:
        """Episodes, decisions, `retirements` and processing marks, in ONE transaction."""
        ...

    def open_vector_index(self, dim: int, model_id: str) -> tuple[VectorIndex, IndexProblem | None]:
        """The project's vector index for one embedder (a FAISS file beside SQLite, pgvector
        rows on Postgres) and, when a stored index could not be used, why (the caller then
        fills it again). Blocking: call it from a thread."""
        ...

    async def close(self) -> None: ...
