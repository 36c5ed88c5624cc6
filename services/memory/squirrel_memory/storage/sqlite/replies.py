"""Kept replies of keyed writes on SQLite: one `kept_replies` row per idempotency key."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.formats import to_db_time
from squirrel_memory.storage.kept_replies import (
    CLAIM_FOR,
    KEEP_FOR,
    KeptReply,
    SharedKeptReplies,
    claim_reads,
    kept_reply,
)
from squirrel_memory.storage.sqlite.database import SqliteDatabase

_EXPIRED, _HELD = claim_reads(SQLITE)


class SqliteKeptReplies(SharedKeptReplies):
    """The replies of writes sent with an idempotency key (part of `SqliteStore`; the database
    is the project's, so the key is unique per project)."""

    _db: SqliteDatabase

    async def _claim(
        self, key: str, method: str, fingerprint: str, now: datetime
    ) -> KeptReply | None:
        def write(conn: sqlite3.Connection) -> KeptReply | None:
            conn.execute(_EXPIRED, (to_db_time(now - KEEP_FOR),))
            row = conn.execute(_HELD, (key,)).fetchone()
            if row is not None and (row[2] is not None or row[3] >= to_db_time(now - CLAIM_FOR)):
                return kept_reply(row)
            conn.execute(
                "INSERT INTO kept_replies (key, method, fingerprint, reply, claimed_at) "
                "VALUES (?, ?, ?, NULL, ?) ON CONFLICT (key) DO UPDATE SET "
                "method = excluded.method, fingerprint = excluded.fingerprint, "
                "reply = NULL, claimed_at = excluded.claimed_at",
                (key, method, fingerprint, to_db_time(now)),
            )
            return None

        return await self._db.write(write)
