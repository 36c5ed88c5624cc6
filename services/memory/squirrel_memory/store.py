"""The per-project store over `<repo>/.ctx/data.db`: the `Store` protocol and `SqliteStore`."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

import structlog

from squirrel_core.events import Event, SourceCursor
from squirrel_memory.confirmations import Confirmations
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
from squirrel_memory.paths import ProjectPaths
from squirrel_memory.schema import DATA_MIGRATIONS, to_db_time
from squirrel_memory.store_checks import MAX_CONTENT_BYTES, Clock, RejectReason, utc_now
from squirrel_memory.store_events import AppendResult, EventLog, mark_events, write_episodes
from squirrel_memory.store_memories import (
    ChangeSet,
    HistoryAction,
    MemoryBook,
    MemoryChange,
    MemoryListener,
)
from squirrel_memory.store_search import MemorySearch, fts_match_expression
from squirrel_memory.store_upkeep import DeadLetter, Upkeep, ViewMeta
from squirrel_memory.writer import SqliteDatabase

__all__ = [
    "AppendResult",
    "DeadLetter",
    "HistoryAction",
    "MemoryChange",
    "MemoryListener",
    "ProcessingResult",
    "ProjectStores",
    "RejectReason",
    "SqliteStore",
    "Store",
    "ViewMeta",
    "fts_match_expression",
]

log = structlog.get_logger()


@dataclass(frozen=True, slots=True)
class ProcessingResult:
    """What `apply_processing_result` wrote: episodes, memories touched and events marked."""

    episode_ids: tuple[str, ...]
    memories: tuple[MemoryItem, ...]
    change: MemoryChange
    processed: int


class Store(Protocol):
    """What the memory engine needs from storage for one project."""

    project_id: str

    async def append_events(
        self,
        project_id: str,
        user_id: str,
        events: Sequence[Event],
        cursors: Sequence[SourceCursor],
    ) -> AppendResult: ...
    async def get_cursors(self, project_id: str) -> list[SourceCursor]: ...
    async def fetch_unprocessed(self, project_id: str, limit: int = 200) -> list[StoredEvent]: ...
    async def count_unprocessed(self, project_id: str) -> int: ...
    async def count_events(self, project_id: str) -> int: ...
    async def get_events(self, event_ids: Sequence[str]) -> list[StoredEvent]: ...
    async def fetch_recent_of_types(
        self, project_id: str, event_types: Sequence[str], limit: int, origin: str | None = None
    ) -> list[StoredEvent]: ...
    async def save_episodes(self, episodes: Sequence[Episode]) -> list[str]: ...
    async def get_episode(self, episode_id: str) -> Episode: ...
    async def mark_processed(self, event_ids: Sequence[str], at: datetime | None = None) -> int: ...
    async def apply_processing_result(
        self,
        episodes: Sequence[Episode],
        decisions: Sequence[UpdateDecision],
        processed_event_ids: Sequence[str],
        *,
        user_id: str,
        source: MemorySource = MemorySource.RULES,
        at: datetime | None = None,
    ) -> ProcessingResult: ...
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
    ) -> MemoryItem: ...
    async def supersede(self, memory_id: str, by_id: str, reason: str) -> MemoryItem: ...
    async def forget(self, memory_id: str, reason: str) -> MemoryItem: ...
    async def correct(
        self, memory_id: str, *, content: str | None, importance: float | None, reason: str
    ) -> tuple[MemoryItem, bool]: ...
    async def get_memory(self, memory_id: str) -> MemoryItem: ...
    async def memory_ids_from_tool(self, source_tool: str) -> set[str]: ...
    async def get_memories(self, memory_ids: Sequence[str]) -> list[MemoryItem]: ...
    async def memory_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]: ...
    async def list_memories(
        self,
        project_id: str,
        types: Sequence[MemoryType] | None = None,
        include_deleted: bool = False,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[MemoryItem], int]: ...
    async def history(self, memory_id: str) -> list[MemoryVersion]: ...
    async def search_fts(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[str, float]]: ...
    async def rebuild_search_index(self) -> int: ...
    async def get_view_meta(self, name: str) -> ViewMeta | None: ...
    async def put_view_meta(
        self, name: str, last_generated: datetime, events_count_at_gen: int, ttl: int
    ) -> None: ...
    async def record_dead_letter(self, kind: str, payload_ref: str, error: str) -> DeadLetter: ...
    async def list_dead_letters(self, kind: str | None = None) -> list[DeadLetter]: ...
    async def events_per_day(self, since: datetime) -> dict[str, int]: ...
    async def resolve_dead_letter(self, dead_letter_id: int) -> None: ...
    async def prune_processed_events(self, older_than: datetime) -> int: ...
    async def vacuum(self) -> None: ...
    def add_listener(self, listener: MemoryListener) -> None: ...
    def remove_listener(self, listener: MemoryListener) -> None: ...
    async def close(self) -> None: ...


class SqliteStore(EventLog, MemoryBook, MemorySearch, Upkeep):
    """`Store` over one project's `data.db` (one writer thread, pooled readers).

    Open with `await SqliteStore.open(project_id)`. Methods that take `project_id` check that it
    is this store's project and raise `InvalidArgumentError` otherwise.
    """

    def __init__(
        self,
        project_id: str,
        db: SqliteDatabase,
        *,
        clock: Clock = utc_now,
        max_content_bytes: int = MAX_CONTENT_BYTES,
    ) -> None:
        self.project_id = project_id
        self._db = db
        self._clock = clock
        self._max_content_bytes = max_content_bytes
        self._listeners: list[MemoryListener] = []
        self._confirmations: Confirmations | None = None

    @classmethod
    async def open(
        cls,
        project_id: str,
        *,
        clock: Clock = utc_now,
        max_content_bytes: int = MAX_CONTENT_BYTES,
        readers: int = 2,
        store_dir: Path | None = None,
    ) -> SqliteStore:
        """Open (creating and migrating as needed) `<store_dir>/data.db` (default
        `<project_id>/.ctx`). Whether the folder is trusted is decided before (`provenance`)."""
        paths = ProjectPaths.for_project(project_id, store_dir).ensure()
        db = SqliteDatabase(paths.data_db, DATA_MIGRATIONS, readers=readers)
        try:
            await db.open()
        except BaseException:
            await db.close()
            raise
        return cls(project_id, db, clock=clock, max_content_bytes=max_content_bytes)

    @property
    def path(self) -> Path:
        """The database file."""
        return self._db.path

    @property
    def store_dir(self) -> Path:
        """The folder holding the database, its views and its vector index."""
        return self._db.path.parent

    @property
    def confirmations(self) -> Confirmations:
        """The flagged memories of this store the user confirmed."""
        if self._confirmations is None:
            self._confirmations = Confirmations(self.store_dir)
        return self._confirmations

    async def close(self) -> None:
        """Finish queued writes and close the database."""
        await self._db.close()

    async def apply_processing_result(
        self,
        episodes: Sequence[Episode],
        decisions: Sequence[UpdateDecision],
        processed_event_ids: Sequence[str],
        *,
        user_id: str,
        source: MemorySource = MemorySource.RULES,
        at: datetime | None = None,
    ) -> ProcessingResult:
        """Write episodes, apply decisions and mark events processed in ONE transaction."""
        self._check_episodes(episodes)
        for decision in decisions:
            self._check_decision(decision, user_id)
        now = at or self._clock()
        changes = ChangeSet()

        def write(conn: sqlite3.Connection) -> int:
            write_episodes(conn, episodes)
            for decision in decisions:
                self._apply(
                    conn,
                    decision,
                    user_id=user_id,
                    source=MemorySource(source),
                    now=now,
                    changes=changes,
                )
            return mark_events(conn, processed_event_ids, to_db_time(now))

        processed = await self._db.write(write)
        change = changes.freeze()
        log.info(
            "processing_result_applied",
            project_id=self.project_id,
            episodes=len(episodes),
            added=len(change.added),
            updated=len(change.updated),
            deleted=len(change.deleted),
            processed=processed,
        )
        await self._notify(change)
        return ProcessingResult(
            tuple(ep.id for ep in episodes), tuple(changes.items), change, processed
        )


class ProjectStores:
    """Opens each project's store once and hands it out by project id."""

    def __init__(self, *, clock: Clock = utc_now, readers: int = 2) -> None:
        self._clock = clock
        self._readers = readers
        self._stores: dict[str, SqliteStore] = {}
        self._lock = asyncio.Lock()

    async def get(self, project_id: str, store_dir: Path | None = None) -> SqliteStore:
        """The open store for `project_id`, opening it (in `store_dir`) on first use."""
        async with self._lock:
            store = self._stores.get(project_id)
            if store is None:
                store = await SqliteStore.open(
                    project_id, clock=self._clock, readers=self._readers, store_dir=store_dir
                )
                self._stores[project_id] = store
            return store

    def open_projects(self) -> list[str]:
        """Ids of the projects whose store is open."""
        return list(self._stores)

    async def close(self) -> None:
        """Close every open store."""
        async with self._lock:
            for store in self._stores.values():
                await store.close()
            self._stores.clear()
