"""The event log of a project on Postgres: the shared event log (`event_log`) in its dialect,
and how Postgres stores a batch: its own, as servers append to one database at once.

Appending is idempotent in the database itself: `UNIQUE (project_id, user_id, hash)` turns an
event its author already stored (by this or another writer, now or in an earlier delivery) into
a duplicate; another author's event never is one (schema 9).
"""

from __future__ import annotations

import asyncio

from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.event_log import EventBatch, SharedEventLog, StoredBatch
from squirrel_memory.storage.event_sql import insert_event_sql, upsert_cursor_sql
from squirrel_memory.storage.postgres.database import PostgresDatabase

_INSERT_EVENT = (
    insert_event_sql(POSTGRES) + " ON CONFLICT (project_id, user_id, hash) DO NOTHING RETURNING id"
)
_UPSERT_CURSOR = upsert_cursor_sql(POSTGRES, ("project_id", "source_tool", "path"))


class PostgresEventLog(SharedEventLog):
    """Events, cursors and episodes of one project (part of `PostgresStore`)."""

    _db: PostgresDatabase
    _dialect = POSTGRES

    async def _store_events(self, batch: EventBatch) -> StoredBatch:
        prepared, rejected = await asyncio.to_thread(
            self._prepare_events, batch.project_id, batch.events
        )
        rows = batch.event_rows(POSTGRES, prepared)
        ids: list[str] = []
        async with self._db.transaction() as conn, conn.cursor() as cursor:
            # Appends of one project take turns, so `seq` grows in commit order.
            await cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (batch.project_id,))
            if rows:
                await cursor.executemany(_INSERT_EVENT, rows, returning=True)
                while True:
                    found = await cursor.fetchone()
                    if found is not None:
                        ids.append(str(found[0]))
                    if not cursor.nextset():
                        break
            await cursor.executemany(_UPSERT_CURSOR, batch.cursor_rows(POSTGRES))
        return StoredBatch(ids, len(rows) - len(ids), rejected)
