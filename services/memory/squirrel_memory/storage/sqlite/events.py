"""The event log of a project on SQLite: the shared event log (`event_log`) in its dialect, and
how SQLite stores a batch (the stored hashes looked up first, on the writer thread): its own,
as a file of one project has one writer and no unique key on the hash.

On a team server an event is a duplicate of one its author stored: another author's event
with the same hash is never the one that is kept for it (`event_log`). A laptop has one user:
an event is a duplicate of any stored with its hash, so re-reading transcripts after
`general.user_id` changed stores nothing again."""

from __future__ import annotations

import sqlite3

from squirrel_memory.storage.checks import chunks
from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.event_log import EventBatch, SharedEventLog, StoredBatch
from squirrel_memory.storage.event_sql import insert_event_sql, upsert_cursor_sql
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.sqlite.database import SqliteDatabase

_INSERT_EVENT = insert_event_sql(SQLITE)
_UPSERT_CURSOR = upsert_cursor_sql(SQLITE, ("source_tool", "path"))


class SqliteEventLog(SharedEventLog):
    """Events, cursors and episodes of one project (part of `SqliteStore`)."""

    _db: SqliteDatabase
    _per_author: bool
    _dialect = SQLITE

    async def _store_events(self, batch: EventBatch) -> StoredBatch:
        project_id, user_id = batch.project_id, batch.user_id

        def write(conn: sqlite3.Connection) -> StoredBatch:
            # Checked and hashed on the writer thread too: one hop per batch instead of two.
            prepared, rejected = self._prepare_events(project_id, batch.events)
            hashes = list(dict.fromkeys(digest for _, _, digest in prepared))
            stored: set[str] = set()
            # One author's duplicates on a team server; any on a laptop (module docstring).
            author = " AND user_id = ?" if self._per_author else ""
            for chunk in chunks(hashes):
                params = (project_id, to_json(list(chunk)), *([user_id] if author else []))
                stored.update(
                    row[0]
                    for row in conn.execute(
                        "SELECT hash FROM events WHERE project_id = ? "  # noqa: S608
                        f"AND hash IN (SELECT value FROM json_each(?)){author}",
                        params,
                    )
                )
            new = []
            for one in prepared:
                if one[2] not in stored:
                    stored.add(one[2])
                    new.append(one)
            rows = batch.event_rows(SQLITE, new)
            conn.executemany(_INSERT_EVENT, rows)
            conn.executemany(_UPSERT_CURSOR, batch.cursor_rows(SQLITE))
            return StoredBatch([row[0] for row in rows], len(prepared) - len(new), rejected)

        return await self._db.write(write)
