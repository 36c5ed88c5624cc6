"""Reading a project's memories on SQLite: the shared reads (`memory_reads`) in its dialect,
and what SQLite does its own way: memories naming paths from the `memory_paths` index, a tool's
memories by walking their JSON event lists, a vector search on the reader thread, and a search's
rows through the file's `RowCache`."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from squirrel_memory.models import MemoryItem
from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.memory_reads import (
    SharedMemoryReads,
    load_many,
    row_reader,
)
from squirrel_memory.storage.memory_sql import MEMORY_COLUMN_NAMES
from squirrel_memory.storage.queries import ReadPlan, Row, Rows, Statement, Write, fetch
from squirrel_memory.storage.revisions import drive
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.row_cache import RowCache

# The same columns of `memory_items m`, for queries that join it (`memory_from_row` reads them).
MEMORY_COLUMNS_OF_M = ", ".join(f"m.{column}" for column in MEMORY_COLUMN_NAMES)
# The ids of the live memories naming one of the paths (a JSON list) and of the wanted types
# (a JSON list, or NULL for all), most important first, from the `memory_paths` index alone.
_PATH_MEMORY_IDS = (
    "SELECT memory_id FROM memory_paths WHERE path IN (SELECT value FROM json_each(?)) "
    "AND (? IS NULL OR type IN (SELECT value FROM json_each(?))) "
    "ORDER BY importance DESC, updated_at DESC, memory_id LIMIT ?"
)
_DOC_MEMORY_IDS = (
    "SELECT d.doc_id, d.memory_id FROM json_each(?) j CROSS JOIN memory_fts_docs d "
    "WHERE d.doc_id = j.value"
)

memory_from_row = row_reader(SQLITE)
"""The memory in a row selected by `SELECT_MEMORY` (decoded rows cached)."""


def rows_of(conn: sqlite3.Connection, step: Rows) -> list[Row]:
    """A read plan's step on `conn`."""
    return conn.execute(step.sql, step.params).fetchall()


def run(conn: sqlite3.Connection, step: Statement) -> Any:
    """A plan's statement on `conn`: a read's rows, or how many rows a change changed."""
    if isinstance(step, Rows):
        return conn.execute(step.sql, step.params).fetchall()
    if isinstance(step, Write):
        return conn.execute(step.sql, step.params).rowcount
    conn.executemany(step.sql, step.rows)
    return None


def load_memories(conn: sqlite3.Connection, memory_ids: Sequence[str]) -> list[MemoryItem]:
    """The memories with these ids (deleted ones too), in the order asked; unknown ids are
    skipped."""
    return drive(load_many(SQLITE, "", memory_ids), lambda step: rows_of(conn, step))


def cached_memories(
    conn: sqlite3.Connection, rows: RowCache, generation: int, memory_ids: Sequence[str]
) -> list[MemoryItem]:
    """`load_memories` through `rows`: the kept memories, the others read on `conn` and kept
    under `generation` (what `rows.begin(conn)` gave in the same read transaction)."""
    ids = list(dict.fromkeys(memory_ids))
    found = rows.memories(ids, generation)
    if len(found) < len(ids):
        fresh = load_memories(conn, [i for i in ids if i not in found])
        rows.keep(generation, fresh)
        found.update((m.id, m) for m in fresh)
    return [found[i] for i in ids if i in found]


def read_memories(
    conn: sqlite3.Connection, rows: RowCache, memory_ids: Sequence[str]
) -> list[MemoryItem]:
    """`cached_memories` in a read transaction of its own on `conn` (a reader's); no ids, no
    transaction (a search's vector side often has no row left to read: its hits that can
    reach the floor were the lexical side's, or none can)."""
    if not memory_ids:
        return []
    conn.execute("BEGIN")
    try:
        return cached_memories(conn, rows, rows.begin(conn), memory_ids)
    finally:
        conn.execute("COMMIT")


def memories_of_docs(
    conn: sqlite3.Connection,
    rows: RowCache,
    generation: int,
    ranked: Sequence[tuple[int, float, str | None]],
    *,
    project_id: str,
    kinds: Sequence[str] | None,
) -> list[tuple[MemoryItem, float]] | None:
    """The live memories of `project_id` behind ranked full-text doc ids (each with its score
    and its memory id, None where the ranking did not know it), in rank order, through `rows`
    (as `cached_memories`); None when `kinds` is asked and a doc's memory is gone or of another
    kind (the index's types lag: the caller asks FTS5 instead). A doc's unknown memory id is
    looked up in `memory_fts_docs` (through the row cache's doc map)."""
    if not ranked:
        return []
    docs = [d for d, _, _ in ranked]
    ids = {d: i for d, _, i in ranked if i is not None}
    if len(ids) < len(docs):
        ids.update(rows.memory_ids([d for d in docs if d not in ids], generation))
    if len(ids) < len(docs):
        missing = [d for d in docs if d not in ids]
        pairs = [(int(d), str(i)) for d, i in conn.execute(_DOC_MEMORY_IDS, (json.dumps(missing),))]
        rows.keep_docs(generation, pairs)
        ids.update(pairs)
    by_id = {m.id: m for m in cached_memories(conn, rows, generation, list(ids.values()))}
    found = {
        d: m
        for d, i in ids.items()
        if (m := by_id.get(i)) is not None and m.project_id == project_id and not m.deleted
    }
    if kinds is not None and (
        len(found) < len(docs) or any(str(m.type) not in kinds for m in found.values())
    ):
        return None
    return [(found[d], score) for d, score, _ in ranked if d in found]


def _with_paths(
    project_id: str, paths: list[str], kinds: list[str] | None, limit: int
) -> ReadPlan[list[MemoryItem]]:
    """`SharedMemoryReads._with_paths` from the `memory_paths` index: the ids first, then the
    memories."""
    # A memory has one row per wanted path it names, all with the same order keys.
    types = SQLITE.store_list(kinds) if kinds else None
    listed = yield from fetch(
        _PATH_MEMORY_IDS, SQLITE.store_list(paths), types, types, limit * len(paths)
    )
    ranked = list(dict.fromkeys(str(r[0]) for r in listed))[:limit]
    # By primary key, filtered here: with `project_id = ?` in the SQL the planner walked the
    # project's whole `(project_id, updated_at)` index instead.
    exact = set(paths)
    found = yield from load_many(SQLITE, project_id, ranked)
    return [
        m
        for m in found
        if m.project_id == project_id and not m.deleted and exact.intersection(m.file_paths)
    ]


class SqliteMemoryReads(SharedMemoryReads):
    """Reads of memory rows and their history (part of `SqliteStore`)."""

    _db: SqliteDatabase
    _dialect = SQLITE
    _FROM_TOOL = (
        "SELECT DISTINCT m.id FROM memory_items m, json_each(m.source_event_ids) j "
        "JOIN events e ON e.id = j.value WHERE m.project_id = ? AND e.source_tool = ?"
    )

    _with_paths = staticmethod(_with_paths)

    async def found_memories(
        self, find: Callable[[], Sequence[tuple[str, float]]]
    ) -> tuple[list[tuple[str, float]], list[MemoryItem]]:
        """`find()` (blocking: a query embedding and a vector search) and then the memories of
        the ids it returned, both on one reader thread: one hand-off from the event loop."""

        def read(conn: sqlite3.Connection) -> tuple[list[tuple[str, float]], list[MemoryItem]]:
            hits = list(find())
            return hits, read_memories(conn, self._db.rows, [m for m, _ in hits])

        return await self._db.read(read)
