"""Manual plans run many at once on Postgres: the steps of `manual_batches.batch` answered in
one transaction."""

from __future__ import annotations

from typing import Any, TypeVar

from psycopg import AsyncConnection

from squirrel_memory.storage.manual_batches import (
    BatchPlan,
    BatchStep,
    Lookalikes,
    SharedManualBatch,
)
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.memories import answer
from squirrel_memory.storage.postgres.reads import load_memories
from squirrel_memory.storage.postgres.search import PostgresMemorySearch
from squirrel_memory.storage.revisions import drive_async

T = TypeVar("T")


class PostgresManualBatch(PostgresMemorySearch, SharedManualBatch):
    """`remember_batch` (part of `PostgresStore`)."""

    _db: PostgresDatabase

    async def _write_batch(self, plan: BatchPlan[T]) -> T:
        async with self._db.transaction() as conn:
            return await drive_async(plan, lambda step: self._answer(conn, step))

    async def _answer(self, conn: AsyncConnection, step: BatchStep) -> Any:
        """One step of a batch, inside the transaction; a look-alike search is Postgres's own:
        its `tsvector` search on the transaction's connection."""
        if isinstance(step, Lookalikes):
            hits = await self._search(step.content, [step.memory_type], step.limit, conn)
            if not hits:
                return []
            return await load_memories(conn, self.project_id, [i for i, _ in hits])
        return await answer(conn, self.project_id, step)
