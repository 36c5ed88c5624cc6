"""The event ids of parked work on Postgres: one `dead_letter_events` row per dead letter."""

from __future__ import annotations

from collections.abc import Sequence

from squirrel_core.errors import NotFoundError
from squirrel_memory.storage.parked_events import checked_event_ids
from squirrel_memory.storage.postgres.database import PostgresDatabase


class PostgresParkedEvents:
    """Event ids kept beside dead letters (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase

    async def put_parked_events(self, dead_letter_id: int, event_ids: Sequence[str]) -> None:
        """Keep the event ids `dead_letter_id` parks (replacing any kept before); they go with
        the letter when it is resolved. `NotFoundError` if this project has no such letter."""
        ids = checked_event_ids(event_ids)
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT 1 FROM dead_letters WHERE id = %s AND project_id = %s",
                (dead_letter_id, self.project_id),
            )
            if await cursor.fetchone() is None:
                raise NotFoundError(f"no dead letter {dead_letter_id}")
            await conn.execute(
                "INSERT INTO dead_letter_events (dead_letter_id, event_ids) VALUES (%s, %s) "
                "ON CONFLICT (dead_letter_id) DO UPDATE SET event_ids = excluded.event_ids",
                (dead_letter_id, ids),
            )

    async def parked_events(self, dead_letter_id: int) -> list[str] | None:
        """The event ids kept for `dead_letter_id`, in order; None when none were kept (a
        letter parked before they were, whose reference lists them itself)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT e.event_ids FROM dead_letter_events e "
                "JOIN dead_letters d ON d.id = e.dead_letter_id "
                "WHERE e.dead_letter_id = %s AND d.project_id = %s",
                (dead_letter_id, self.project_id),
            )
            row = await cursor.fetchone()
        return None if row is None else list(row[0])
