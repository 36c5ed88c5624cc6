"""Reading a project's memories on Postgres: by id, by page, by path, by importance, and their
history."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from psycopg import AsyncConnection

from squirrel_core.errors import NotFoundError
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, MemoryVersion, Scope
from squirrel_memory.storage.checks import check_limit, check_offset, check_project, check_type
from squirrel_memory.storage.memory_sql import SELECT_MEMORY
from squirrel_memory.storage.postgres.database import PostgresDatabase

_COUNT_MEMORIES = "SELECT COUNT(*) FROM memory_items "


def memory_from_row(row: Sequence[Any]) -> MemoryItem:
    """A `MemoryItem` from a row of `SELECT_MEMORY`."""
    return MemoryItem(
        id=row[0],
        project_id=row[1],
        user_id=row[2],
        scope=Scope(row[3]),
        type=MemoryType(row[4]),
        key=row[5],
        content=row[6],
        tags=tuple(row[7]),
        importance=float(row[8]),
        created_at=row[9],
        updated_at=row[10],
        source=MemorySource(row[11]),
        file_paths=tuple(row[12]),
        source_episode_id=row[13],
        source_event_ids=tuple(row[14]),
        deleted=bool(row[15]),
        superseded_by=row[16],
        version=int(row[17]),
        source_refs=tuple(row[18]),
        written_by=row[19] or str(row[11]),
    )


async def load_memory(
    conn: AsyncConnection, project_id: str, memory_id: str, *, lock: bool = False
) -> MemoryItem | None:
    """One of the project's memories by id (deleted ones too), or None; `lock` reads it `FOR
    UPDATE`."""
    cursor = await conn.execute(
        SELECT_MEMORY + "WHERE id = %s AND project_id = %s" + (" FOR UPDATE" if lock else ""),
        (memory_id, project_id),
    )
    row = await cursor.fetchone()
    return memory_from_row(row) if row else None


async def memory_texts(
    conn: AsyncConnection, project_id: str, memory_type: MemoryType, source: str | None
) -> list[tuple[str, str]]:
    """(id, content) of the live memories of one type (and of `source`, when not None)."""
    cursor = await conn.execute(
        "SELECT id, content FROM memory_items WHERE project_id = %s AND type = %s "
        "AND NOT deleted AND (%s::text IS NULL OR source = %s)",
        (project_id, str(memory_type), source, source),
    )
    return [(str(r[0]), str(r[1])) for r in await cursor.fetchall()]


async def screened_texts(
    conn: AsyncConnection, project_id: str, memory_type: MemoryType
) -> list[tuple[str, str, bool]]:
    """(id, content, written by hand) of the live memories of one type (what a screen learns)."""
    cursor = await conn.execute(
        "SELECT id, content, source = 'manual' FROM memory_items "
        "WHERE project_id = %s AND type = %s AND NOT deleted",
        (project_id, str(memory_type)),
    )
    return [(str(r[0]), str(r[1]), bool(r[2])) for r in await cursor.fetchall()]


async def memory_version(
    conn: AsyncConnection, project_id: str, memory_type: MemoryType
) -> tuple[int, int]:
    """The version of a type's memories: rows and the sum of their versions, which every
    write of one of them raises (a row added, or a version more; rows are never removed)."""
    cursor = await conn.execute(
        "SELECT COUNT(*), COALESCE(SUM(version), 0) FROM memory_items "
        "WHERE project_id = %s AND type = %s",
        (project_id, str(memory_type)),
    )
    row = await cursor.fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


async def load_memories(
    conn: AsyncConnection, project_id: str, memory_ids: Sequence[str]
) -> list[MemoryItem]:
    """The project's memories with these ids, in the order asked; unknown ids are skipped."""
    ids = list(dict.fromkeys(memory_ids))
    cursor = await conn.execute(
        SELECT_MEMORY + "WHERE project_id = %s AND id = ANY(%s)", (project_id, ids)
    )
    found = {m.id: m for m in (memory_from_row(r) for r in await cursor.fetchall())}
    return [found[i] for i in ids if i in found]


class PostgresMemoryReads:
    """Reads of memory rows and their history (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase

    async def _memories(self, sql: str, params: Sequence[Any]) -> list[MemoryItem]:
        async with self._db.transaction() as conn:
            cursor = await conn.execute(SELECT_MEMORY + sql, params)
            return [memory_from_row(r) for r in await cursor.fetchall()]

    async def memory_ids_from_tool(self, source_tool: str) -> set[str]:
        """Ids of the memories (deleted ones too) with a source event from `source_tool`."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT DISTINCT m.id FROM memory_items m JOIN events e "
                "ON e.id = ANY(m.source_event_ids) WHERE m.project_id = %s "
                "AND e.source_tool = %s",
                (self.project_id, source_tool),
            )
            return {str(row[0]) for row in await cursor.fetchall()}

    async def live_memory_ids(self) -> set[str]:
        """Ids of the project's live memories."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT id FROM memory_items WHERE project_id = %s AND NOT deleted",
                (self.project_id,),
            )
            return {str(row[0]) for row in await cursor.fetchall()}

    async def memory_texts(
        self, project_id: str, memory_type: MemoryType, source: MemorySource | None = None
    ) -> list[tuple[str, str]]:
        """(id, content) of the live memories of one type (and of `source`, when given)."""
        check_project(self.project_id, project_id)
        kind = check_type(memory_type)
        wanted = None if source is None else str(MemorySource(source))
        async with self._db.transaction() as conn:
            return await memory_texts(conn, project_id, kind, wanted)

    async def get_memory(self, memory_id: str) -> MemoryItem:
        """One memory (deleted ones too); `NotFoundError` if unknown."""
        async with self._db.transaction() as conn:
            item = await load_memory(conn, self.project_id, memory_id)
        if item is None:
            raise NotFoundError(f"no memory {memory_id}")
        return item

    async def memory_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        """Ids (deleted memories too) that start with `prefix`, in order; at most `limit`."""
        if not prefix or not prefix.replace("_", "").isalnum() or not prefix.isascii():
            return []
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT id FROM memory_items WHERE project_id = %s AND id >= %s AND id < %s "
                "ORDER BY id LIMIT %s",
                (self.project_id, prefix, prefix + "\x7f", limit),
            )
            return [str(r[0]) for r in await cursor.fetchall()]

    async def get_memories(self, memory_ids: Sequence[str]) -> list[MemoryItem]:
        """The memories with these ids, in the order asked; unknown ids are skipped."""
        async with self._db.transaction() as conn:
            return await load_memories(conn, self.project_id, memory_ids)

    async def found_memories(
        self, find: Callable[[], Sequence[tuple[str, float]]]
    ) -> tuple[list[tuple[str, float]], list[MemoryItem]]:
        """`find()` in a thread (it blocks), then the memories of the ids it returned."""
        hits = list(await asyncio.to_thread(find))
        return hits, await self.get_memories([m for m, _ in hits])

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
        kinds = [str(check_type(t)) for t in types] if types else None
        where = (
            "WHERE project_id = %s AND (%s::text[] IS NULL OR type = ANY(%s)) "
            "AND (%s OR NOT deleted) "
        )
        params = (project_id, kinds, kinds, bool(include_deleted))
        async with self._db.transaction() as conn:
            cursor = await conn.execute(_COUNT_MEMORIES + where, params)
            row = await cursor.fetchone()
            cursor = await conn.execute(
                SELECT_MEMORY + where + "ORDER BY updated_at DESC, id DESC LIMIT %s OFFSET %s",
                (*params, limit, offset),
            )
            items = [memory_from_row(r) for r in await cursor.fetchall()]
        return items, int(row[0]) if row else 0

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
        kinds = [str(check_type(t)) for t in types] if types else None
        return await self._memories(
            "WHERE project_id = %s AND NOT deleted AND file_paths && %s "
            "AND (%s::text[] IS NULL OR type = ANY(%s)) "
            "ORDER BY importance DESC, updated_at DESC, id LIMIT %s",
            (project_id, wanted, kinds, kinds, limit),
        )

    async def most_important(
        self, project_id: str, memory_type: MemoryType, limit: int = 20
    ) -> list[MemoryItem]:
        """Live memories of one type, most important first, then most recently updated."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        return await self._memories(
            "WHERE project_id = %s AND type = %s AND NOT deleted "
            "ORDER BY importance DESC, updated_at DESC, id LIMIT %s",
            (project_id, str(check_type(memory_type)), limit),
        )

    async def history(self, memory_id: str) -> list[MemoryVersion]:
        """Every version of a memory, oldest first (the last is the current one)."""
        async with self._db.transaction() as conn:
            if await load_memory(conn, self.project_id, memory_id) is None:
                raise NotFoundError(f"no memory {memory_id}")
            cursor = await conn.execute(
                "SELECT memory_id, version, action, content, tags, importance, changed_at, "
                "reason, source_event_ids, superseded_by, source_refs, written_by "
                "FROM memory_history WHERE memory_id = %s ORDER BY version",
                (memory_id,),
            )
            rows = await cursor.fetchall()
        return [
            MemoryVersion(
                memory_id=r[0],
                version=int(r[1]),
                action=r[2],
                content=r[3],
                tags=tuple(r[4]),
                importance=float(r[5]),
                changed_at=r[6],
                reason=r[7],
                source_event_ids=tuple(r[8]),
                superseded_by=r[9],
                source_refs=tuple(r[10]),
                written_by=r[11],
            )
            for r in rows
        ]
