"""The event ids of parked work on SQLite: one `dead_letter_events` row per dead letter."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from squirrel_core.errors import NotFoundError
from squirrel_memory.storage.formats import json_strings, to_json
from squirrel_memory.storage.parked_events import checked_event_ids
from squirrel_memory.storage.sqlite.database import SqliteDatabase


class SqliteParkedEvents:
    """Event ids kept beside dead letters (part of `SqliteStore`)."""

    _db: SqliteDatabase

    async def put_parked_events(self, dead_letter_id: int, event_ids: Sequence[str]) -> None:
        """Keep the event ids `dead_letter_id` parks (replacing any kept before); they go with
        the letter when it is resolved. `NotFoundError` if there is no such letter."""
        text = to_json(checked_event_ids(event_ids))

        def write(conn: sqlite3.Connection) -> None:
            if (
                conn.execute(
                    "SELECT 1 FROM dead_letters WHERE id = ?", (dead_letter_id,)
                ).fetchone()
                is None
            ):
                raise NotFoundError(f"no dead letter {dead_letter_id}")
            conn.execute(
                "INSERT INTO dead_letter_events (dead_letter_id, event_ids) VALUES (?, ?) "
                "ON CONFLICT (dead_letter_id) DO UPDATE SET event_ids = excluded.event_ids",
                (dead_letter_id, text),
            )

        await self._db.write(write)

    async def parked_events(self, dead_letter_id: int) -> list[str] | None:
        """The event ids kept for `dead_letter_id`, in order; None when none were kept (a
        letter parked before they were, whose reference lists them itself)."""
        row = await self._db.read(
            lambda conn: conn.execute(
                "SELECT event_ids FROM dead_letter_events WHERE dead_letter_id = ?",
                (dead_letter_id,),
            ).fetchone()
        )
        return None if row is None else list(json_strings(row[0]))
