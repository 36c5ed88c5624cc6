"""Kept replies of keyed writes on Postgres: one `kept_replies` row per project and key."""

from __future__ import annotations

from datetime import datetime

from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.kept_replies import (
    CLAIM_FOR,
    KEEP_FOR,
    KeptReply,
    SharedKeptReplies,
    claim_reads,
    kept_reply,
)
from squirrel_memory.storage.postgres.database import PostgresDatabase

_EXPIRED, _HELD = claim_reads(POSTGRES)


class PostgresKeptReplies(SharedKeptReplies):
    """The replies of writes sent with an idempotency key (part of `PostgresStore`); the key is
    unique per project (`PRIMARY KEY (project_id, key)`)."""

    _db: PostgresDatabase

    async def _claim(
        self, key: str, method: str, fingerprint: str, now: datetime
    ) -> KeptReply | None:
        while True:
            async with self._db.transaction() as conn:
                await conn.execute(_EXPIRED, (now - KEEP_FOR, self.project_id))
                # Claimed here, or left as it is (another call holds it): one statement, so two
                # servers claiming the same key at once cannot both win.
                cursor = await conn.execute(
                    "INSERT INTO kept_replies (project_id, key, method, fingerprint, claimed_at) "
                    "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (project_id, key) DO UPDATE SET "
                    "method = excluded.method, fingerprint = excluded.fingerprint, "
                    "reply = NULL, claimed_at = excluded.claimed_at "
                    "WHERE kept_replies.reply IS NULL AND kept_replies.claimed_at < %s "
                    "RETURNING 1",
                    (self.project_id, key, method, fingerprint, now, now - CLAIM_FOR),
                )
                if await cursor.fetchone() is not None:
                    return None
                cursor = await conn.execute(_HELD, (key, self.project_id))
                row = await cursor.fetchone()
            if row is not None:
                return kept_reply(row)
            # Released between the two statements (the call holding it failed and kept
            # nothing): the key is free again, so this call claims it afresh.
