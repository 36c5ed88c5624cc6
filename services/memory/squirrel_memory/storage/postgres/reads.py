"""Reading a project's memories on Postgres: the shared reads (`memory_reads`) in its dialect,
and what Postgres does its own way: memories naming paths by array overlap, a tool's memories
by matching their event arrays, and a vector search in a thread beside the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from psycopg import AsyncConnection

from squirrel_memory.models import MemoryItem
from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.memory_reads import SharedMemoryReads, load_many, row_reader
from squirrel_memory.storage.memory_sql import SELECT_MEMORY
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.queries import ReadPlan, Row, Rows, Statement, Write, fetch
from squirrel_memory.storage.revisions import drive_async

memory_from_row = row_reader(POSTGRES)
"""A `MemoryItem` from a row of `SELECT_MEMORY`."""


async def run(conn: AsyncConnection, step: Statement) -> Any:
    """A plan's statement on `conn`: a read's rows, or how many rows a change changed."""
    if isinstance(step, Rows):
        return list[Row](await (await conn.execute(step.sql, step.params)).fetchall())
    if isinstance(step, Write):
        return (await conn.execute(step.sql, step.params)).rowcount
    async with conn.cursor() as cursor:
        await cursor.executemany(step.sql, step.rows)
    return None


async def load_memories(
    conn: AsyncConnection, project_id: str, memory_ids: Sequence[str]
) -> list[MemoryItem]:
    """The project's memories with these ids, in the order asked; unknown ids are skipped."""
    plan = load_many(POSTGRES, project_id, memory_ids)
    return await drive_async(plan, lambda step: run(conn, step))


def _with_paths(
    project_id: str, paths: list[str], kinds: list[str] | None, limit: int
) -> ReadPlan[list[MemoryItem]]:
    """`SharedMemoryReads._with_paths` in one query: the paths' array overlaps `paths`."""
    rows = yield from fetch(
        SELECT_MEMORY + "WHERE project_id = %s AND NOT deleted AND file_paths && %s "
        "AND (%s::text[] IS NULL OR type = ANY(%s)) "
        "ORDER BY importance DESC, updated_at DESC, id LIMIT %s",
        project_id,
        paths,
        kinds,
        kinds,
        limit,
    )
    return [memory_from_row(r) for r in rows]


class PostgresMemoryReads(SharedMemoryReads):
    """Reads of memory rows and their history (part of `PostgresStore`)."""

    _db: PostgresDatabase
    _dialect = POSTGRES
    _FROM_TOOL = (
        # The events joined in the memory's own project: on a Postgres distributed by project
        # the join stays on the project's node.
        "SELECT DISTINCT m.id FROM memory_items m JOIN events e "
        "ON e.project_id = m.project_id AND e.id = ANY(m.source_event_ids) "
        "WHERE m.project_id = %s AND e.source_tool = %s"
    )

    _with_paths = staticmethod(_with_paths)

    async def found_memories(
        self, find: Callable[[], Sequence[tuple[str, float]]]
    ) -> tuple[list[tuple[str, float]], list[MemoryItem]]:
        """`find()` in a thread (it blocks), then the memories of the ids it returned."""
        hits = list(await asyncio.to_thread(find))
        return hits, await self.get_memories([m for m, _ in hits])
