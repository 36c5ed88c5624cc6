"""Reading a project's memories: by id, by page, by path, by importance, and their history."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from squirrel_core.errors import NotFoundError
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, MemoryVersion, Scope
from squirrel_memory.storage.checks import (
    IN_IDS,
    check_limit,
    check_offset,
    check_project,
    check_type,
    chunks,
)
from squirrel_memory.storage.formats import from_db_time, json_strings, to_json
from squirrel_memory.storage.memory_sql import SELECT_MEMORY
from squirrel_memory.storage.sqlite.database import SqliteDatabase

# The same columns of `memory_items m`, for queries that join it (`memory_from_row` reads them).
MEMORY_COLUMNS_OF_M = (
    "m.id, m.project_id, m.user_id, m.scope, m.type, m.key, m.content, m.tags, m.importance, "
    "m.created_at, m.updated_at, m.source, m.file_paths, m.source_episode_id, "
    "m.source_event_ids, m.deleted, m.superseded_by, m.version, m.source_refs, m.written_by"
)
_COUNT_MEMORIES = "SELECT COUNT(*) FROM memory_items "
_LIST_FILTER = (
    "WHERE project_id = ? AND (? IS NULL OR type IN (SELECT value FROM json_each(?))) "
    "AND (? OR deleted = 0) "
)
# The ids of the live memories naming one of the paths (a JSON list) and of the wanted types
# (a JSON list, or NULL for all), most important first, from the `memory_paths` index alone.
_PATH_MEMORY_IDS = (
    "SELECT memory_id FROM memory_paths WHERE path IN (SELECT value FROM json_each(?)) "
    "AND (? IS NULL OR type IN (SELECT value FROM json_each(?))) "
    "ORDER BY importance DESC, updated_at DESC, memory_id LIMIT ?"
)


ROW_CACHE_SIZE = 4096
"""Memory rows whose decoded `MemoryItem` stays cached. Decoding a row (four JSON lists, two
times, three enums) takes several times longer than reading it, and searches read the same
memories again and again."""


def memory_from_row(row: Sequence[Any]) -> MemoryItem:
    """The memory in a row selected by `SELECT_MEMORY`.

    Items are immutable and keyed by the whole row, so a row that differs in any column (a new
    version, a deletion) is decoded anew; a cached item is never stale."""
    return _decoded(tuple(row))


@functools.lru_cache(maxsize=ROW_CACHE_SIZE)
def _decoded(row: tuple[Any, ...]) -> MemoryItem:
    return MemoryItem(
        id=row[0],
        project_id=row[1],
        user_id=row[2],
        scope=Scope(row[3]),
        type=MemoryType(row[4]),
        key=row[5],
        content=row[6],
        tags=json_strings(row[7]),
        importance=float(row[8]),
        created_at=from_db_time(row[9]),
        updated_at=from_db_time(row[10]),
        source=MemorySource(row[11]),
        file_paths=json_strings(row[12]),
        source_episode_id=row[13],
        source_event_ids=json_strings(row[14]),
        deleted=bool(row[15]),
        superseded_by=row[16],
        version=int(row[17]),
        source_refs=json_strings(row[18]),
        written_by=row[19] or str(row[11]),
    )


def load_memory(conn: sqlite3.Connection, memory_id: str) -> MemoryItem | None:
    """One memory by id (deleted ones too), or None."""
    row = conn.execute(SELECT_MEMORY + "WHERE id = ?", (memory_id,)).fetchone()
    return memory_from_row(row) if row else None


def load_memories(conn: sqlite3.Connection, memory_ids: Sequence[str]) -> list[MemoryItem]:
    """The memories with these ids (deleted ones too), in the order asked; unknown ids are
    skipped."""
    ids = list(dict.fromkeys(memory_ids))
    found: dict[str, MemoryItem] = {}
    for chunk in chunks(ids):
        rows = conn.execute(
            SELECT_MEMORY + "WHERE id " + IN_IDS, (to_json(list(chunk)),)
        ).fetchall()
        found.update((r[0], memory_from_row(r)) for r in rows)
    return [found[i] for i in ids if i in found]


class SqliteMemoryReads:
    """Reads of memory rows and their history (part of `SqliteStore`)."""

    project_id: str
    _db: SqliteDatabase

    async def memory_ids_from_tool(self, source_tool: str) -> set[str]:
        """Ids of the memories (deleted ones too) with a source event from `source_tool`."""

        def read(conn: sqlite3.Connection) -> set[str]:
            rows = conn.execute(
                "SELECT DISTINCT m.id FROM memory_items m, json_each(m.source_event_ids) j "
                "JOIN events e ON e.id = j.value WHERE e.source_tool = ?",
                (source_tool,),
            ).fetchall()
            return {str(row[0]) for row in rows}

        return await self._db.read(read)

    async def live_memory_ids(self) -> set[str]:
        """Ids of the project's live memories (one index-only read, no rows decoded)."""

        def read(conn: sqlite3.Connection) -> set[str]:
            rows = conn.execute(
                "SELECT id FROM memory_items WHERE project_id = ? AND deleted = 0",
                (self.project_id,),
            ).fetchall()
            return {str(row[0]) for row in rows}

        return await self._db.read(read)

    async def get_memory(self, memory_id: str) -> MemoryItem:
        """One memory (deleted ones too); `NotFoundError` if unknown."""
        item = await self._db.read(lambda conn: load_memory(conn, memory_id))
        if item is None:
            raise NotFoundError(f"no memory {memory_id}")
        return item

    async def memory_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        """Ids (deleted memories too) that start with `prefix`, in order; at most `limit`."""
        if not prefix or not prefix.replace("_", "").isalnum() or not prefix.isascii():
            return []

        def read(conn: sqlite3.Connection) -> list[str]:
            rows = conn.execute(
                "SELECT id FROM memory_items WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                (prefix, prefix + "\x7f", limit),
            ).fetchall()
            return [str(r[0]) for r in rows]

        return await self._db.read(read)

    async def get_memories(self, memory_ids: Sequence[str]) -> list[MemoryItem]:
        """The memories with these ids, in the order asked; unknown ids are skipped."""
        ids = list(memory_ids)
        return await self._db.read(lambda conn: load_memories(conn, ids))

    async def found_memories(
        self, find: Callable[[], Sequence[tuple[str, float]]]
    ) -> tuple[list[tuple[str, float]], list[MemoryItem]]:
        """`find()` (blocking: a query embedding and a vector search) and then the memories of
        the ids it returned, both on one reader thread: one hand-off from the event loop."""

        def read(conn: sqlite3.Connection) -> tuple[list[tuple[str, float]], list[MemoryItem]]:
            hits = list(find())
            return hits, load_memories(conn, [m for m, _ in hits])

        return await self._db.read(read)

    async def list_memories(
        self,
        project_id: str,
        types: Sequence[MemoryType] | None = None,
        include_deleted: bool = False,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[MemoryItem], int]:
        """A page of memories, most recently updated first, and the total that match."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        check_offset(offset)
        type_list = to_json([str(check_type(t)) for t in types]) if types else None
        params = (project_id, type_list, type_list, int(include_deleted))

        def read(conn: sqlite3.Connection) -> tuple[list[MemoryItem], int]:
            total = int(conn.execute(_COUNT_MEMORIES + _LIST_FILTER, params).fetchone()[0])
            rows = conn.execute(
                SELECT_MEMORY + _LIST_FILTER + "ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?",
                (*params, limit, offset),
            ).fetchall()
            return [memory_from_row(r) for r in rows], total

        return await self._db.read(read)

    async def memories_with_paths(
        self,
        project_id: str,
        paths: Sequence[str],
        types: Sequence[MemoryType] | None = None,
        limit: int = 200,
    ) -> list[MemoryItem]:
        """Live memories whose `file_paths` hold one of `paths` exactly, most important first."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        wanted = list(dict.fromkeys(p for p in paths if p))[:200]
        if not wanted:
            return []
        kinds = to_json([str(check_type(t)) for t in types]) if types else None

        def read(conn: sqlite3.Connection) -> list[MemoryItem]:
            # A memory has one row per wanted path it names, all with the same order keys.
            rows_wanted = limit * len(wanted)
            listed = conn.execute(_PATH_MEMORY_IDS, (to_json(wanted), kinds, kinds, rows_wanted))
            ranked = list(dict.fromkeys(str(r[0]) for r in listed))[:limit]
            # By primary key, filtered here: with `project_id = ?` in the SQL the planner
            # walked the project's whole `(project_id, updated_at)` index instead.
            exact = set(wanted)
            return [
                m
                for m in load_memories(conn, ranked)
                if m.project_id == project_id and not m.deleted and exact.intersection(m.file_paths)
            ]

        return await self._db.read(read)

    async def most_important(
        self, project_id: str, memory_type: MemoryType, limit: int = 20
    ) -> list[MemoryItem]:
        """Live memories of one type, most important first, then most recently updated."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        kind = str(check_type(memory_type))

        def read(conn: sqlite3.Connection) -> list[MemoryItem]:
            rows = conn.execute(
                SELECT_MEMORY + "WHERE project_id = ? AND type = ? AND deleted = 0 "
                "ORDER BY importance DESC, updated_at DESC, id LIMIT ?",
                (project_id, kind, limit),
            ).fetchall()
            return [memory_from_row(r) for r in rows]

        return await self._db.read(read)

    async def history(self, memory_id: str) -> list[MemoryVersion]:
        """Every version of a memory, oldest first (the last is the current one)."""

        def read(conn: sqlite3.Connection) -> list[MemoryVersion] | None:
            if load_memory(conn, memory_id) is None:
                return None
            rows = conn.execute(
                "SELECT memory_id, version, action, content, tags, importance, changed_at, "
                "reason, source_event_ids, superseded_by, source_refs, written_by "
                "FROM memory_history "
                "WHERE memory_id = ? ORDER BY version",
                (memory_id,),
            ).fetchall()
            return [
                MemoryVersion(
                    memory_id=r[0],
                    version=int(r[1]),
                    action=r[2],
                    content=r[3],
                    tags=json_strings(r[4]),
                    importance=float(r[5]),
                    changed_at=from_db_time(r[6]),
                    reason=r[7],
                    source_event_ids=json_strings(r[8]),
                    superseded_by=r[9],
                    source_refs=json_strings(r[10]),
                    written_by=r[11],
                )
                for r in rows
            ]

        versions = await self._db.read(read)
        if versions is None:
            raise NotFoundError(f"no memory {memory_id}")
        return versions
