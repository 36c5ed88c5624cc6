"""Manual plans run many at once on SQLite: the steps of `manual_batches.batch` answered in one
write transaction; the texts of a type's memories (`memory_texts`)."""

from __future__ import annotations

import sqlite3
from functools import partial
from typing import Any, TypeVar

from squirrel_memory.models import MemorySource, MemoryType
from squirrel_memory.storage.checks import check_project, check_type
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.manual_batches import (
    SAVEPOINT_SQL,
    BatchPlan,
    BatchStep,
    KindTexts,
    KindVersion,
    Lookalikes,
    Savepoint,
    SharedManualBatch,
)
from squirrel_memory.storage.revisions import drive
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.memories import answer
from squirrel_memory.storage.sqlite.reads import memory_from_row
from squirrel_memory.storage.sqlite.search import fts_match_expression, ranked_rows

T = TypeVar("T")


def memory_texts(
    conn: sqlite3.Connection, project_id: str, memory_type: MemoryType, source: str | None
) -> list[tuple[str, str]]:
    """(id, content) of the live memories of one type (and of `source`, when not None)."""
    rows = conn.execute(
        "SELECT id, content FROM memory_items WHERE project_id = ? AND type = ? AND deleted = 0 "
        "AND (? IS NULL OR source = ?)",
        (project_id, str(memory_type), source, source),
    ).fetchall()
    return [(str(r[0]), str(r[1])) for r in rows]


def screened_texts(
    conn: sqlite3.Connection, project_id: str, memory_type: MemoryType
) -> list[tuple[str, str, bool]]:
    """(id, content, written by hand) of the live memories of one type (what a screen learns)."""
    rows = conn.execute(
        "SELECT id, content, source = 'manual' FROM memory_items "
        "WHERE project_id = ? AND type = ? AND deleted = 0",
        (project_id, str(memory_type)),
    ).fetchall()
    return [(str(r[0]), str(r[1]), bool(r[2])) for r in rows]


def memory_version(
    conn: sqlite3.Connection, project_id: str, memory_type: MemoryType
) -> tuple[int, int]:
    """The version of a type's memories: its rows and the sum of their versions, which every
    write of one of them raises (a row added, or a version more; rows are never removed)."""
    row = conn.execute(
        "SELECT COUNT(*), TOTAL(version) FROM memory_items WHERE project_id = ? AND type = ?",
        (project_id, str(memory_type)),
    ).fetchone()
    return int(row[0]), int(row[1])


class SqliteManualBatch(SharedManualBatch):
    """`remember_batch` and `memory_texts` (part of `SqliteStore`)."""

    _db: SqliteDatabase

    async def memory_texts(
        self, project_id: str, memory_type: MemoryType, source: MemorySource | None = None
    ) -> list[tuple[str, str]]:
        """(id, content) of the live memories of one type (and of `source`, when given)."""
        check_project(self.project_id, project_id)
        kind = check_type(memory_type)
        wanted = None if source is None else str(MemorySource(source))
        return await self._db.read(lambda conn: memory_texts(conn, project_id, kind, wanted))

    async def _write_batch(self, plan: BatchPlan[T]) -> T:
        return await self._db.write(lambda conn: drive(plan, partial(self._answer, conn)))

    def _answer(self, conn: sqlite3.Connection, step: BatchStep) -> Any:
        """One step of a batch, inside the write transaction (savepoints cost a flush of the
        FTS5 index each)."""
        if isinstance(step, Savepoint):
            for statement in SAVEPOINT_SQL[step.action]:
                conn.execute(statement)
            return None
        if isinstance(step, KindVersion):
            return memory_version(conn, self.project_id, step.memory_type)
        if isinstance(step, KindTexts):
            return screened_texts(conn, self.project_id, step.memory_type)
        if isinstance(step, Lookalikes):
            expression = fts_match_expression(step.content)
            if expression is None:
                return []
            kinds = to_json([str(step.memory_type)])
            rows = ranked_rows(conn, self.project_id, expression, kinds, step.limit)
            return [memory_from_row(r[2:]) for r in rows]
        return answer(conn, step)
