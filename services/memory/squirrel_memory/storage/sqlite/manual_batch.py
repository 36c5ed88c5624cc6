"""Manual plans run many at once on SQLite: the steps of `manual_batches.batch` answered in one
write transaction."""

from __future__ import annotations

import sqlite3
from functools import partial
from typing import Any, TypeVar

from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.manual_batches import (
    BatchPlan,
    BatchStep,
    Lookalikes,
    SharedManualBatch,
)
from squirrel_memory.storage.revisions import drive
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.memories import answer
from squirrel_memory.storage.sqlite.reads import memory_from_row
from squirrel_memory.storage.sqlite.search import fts_match_expression, ranked_rows

T = TypeVar("T")


class SqliteManualBatch(SharedManualBatch):
    """`remember_batch` (part of `SqliteStore`)."""

    _db: SqliteDatabase

    async def _write_batch(self, plan: BatchPlan[T]) -> T:
        return await self._db.write(lambda conn: drive(plan, partial(self._answer, conn)))

    def _answer(self, conn: sqlite3.Connection, step: BatchStep) -> Any:
        """One step of a batch, inside the write transaction (savepoints cost a flush of the
        FTS5 index each); a look-alike search is SQLite's own: FTS5 inside the transaction."""
        if isinstance(step, Lookalikes):
            expression = fts_match_expression(step.content)
            if expression is None:
                return []
            kinds = to_json([str(step.memory_type)])
            rows = ranked_rows(conn, self.project_id, expression, kinds, step.limit)
            return [memory_from_row(r[2:]) for r in rows]
        return answer(conn, step)
