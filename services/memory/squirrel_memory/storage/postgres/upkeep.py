"""Upkeep of a project's rows on Postgres: view staleness records, dead letters, retention."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import structlog

from squirrel_core.errors import NotFoundError
from squirrel_memory.storage.checks import Clock, check_view_meta, dead_letter_error
from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.values import DeadLetter, ViewMeta

log = structlog.get_logger()

_PRUNED = '{"pruned":true}'


def _dead_letter(row: Sequence[Any]) -> DeadLetter:
    return DeadLetter.of_row(row, POSTGRES.load_time)


class PostgresUpkeep:
    """View meta, dead letters, retention and counts (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase
    _clock: Clock

    async def _rows(
        self, query: str, params: Sequence[Any] | dict[str, Any]
    ) -> list[tuple[Any, ...]]:
        async with self._db.transaction() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchall()

    async def get_view_meta(self, name: str) -> ViewMeta | None:
        """The staleness record of a view, or None if it was never built."""
        rows = await self._rows(
            "SELECT view_name, last_generated, events_count_at_gen, ttl_seconds "
            "FROM view_meta WHERE project_id = %s AND view_name = %s",
            (self.project_id, name),
        )
        return ViewMeta(rows[0][0], rows[0][1], int(rows[0][2]), int(rows[0][3])) if rows else None

    async def put_view_meta(
        self, name: str, last_generated: datetime, events_count_at_gen: int, ttl: int
    ) -> None:
        """Record that a view was built."""
        check_view_meta(name, events_count_at_gen, ttl)
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO view_meta VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT (project_id, view_name) DO UPDATE SET "
                "last_generated = excluded.last_generated, "
                "events_count_at_gen = excluded.events_count_at_gen, "
                "ttl_seconds = excluded.ttl_seconds",
                (self.project_id, name, last_generated, events_count_at_gen, ttl),
            )

    async def record_dead_letter(
        self, kind: str, payload_ref: str, error: str, *, count_attempt: bool = True
    ) -> DeadLetter:
        """Park failed work (`payload_ref` names it); repeats add attempts (unless
        `count_attempt` is False: a forced retry keeps the automatic budget)."""
        text = dead_letter_error(kind, payload_ref, error)
        now = self._clock()
        rows = await self._rows(
            "INSERT INTO dead_letters (project_id, kind, payload_ref, error, attempts, "
            "created_at, updated_at) VALUES (%s, %s, %s, %s, 1, %s, %s) "
            "ON CONFLICT (project_id, kind, payload_ref) DO UPDATE SET error = excluded.error, "
            "attempts = dead_letters.attempts + %s, updated_at = excluded.updated_at "
            "RETURNING id, kind, payload_ref, error, attempts, created_at, updated_at",
            (self.project_id, kind, payload_ref, text, now, now, int(count_attempt)),
        )
        letter = _dead_letter(rows[0])
        log.warning("dead_letter_recorded", kind=kind, attempts=letter.attempts)
        return letter

    async def list_dead_letters(self, kind: str | None = None) -> list[DeadLetter]:
        """Parked work, oldest first."""
        rows = await self._rows(
            "SELECT id, kind, payload_ref, error, attempts, created_at, updated_at "
            "FROM dead_letters WHERE project_id = %s AND (%s::text IS NULL OR kind = %s) "
            "ORDER BY id",
            (self.project_id, kind, kind),
        )
        return [_dead_letter(r) for r in rows]

    async def resolve_dead_letter(self, dead_letter_id: int) -> None:
        """Remove a parked item (after a successful retry); `NotFoundError` if unknown."""
        rows = await self._rows(
            "DELETE FROM dead_letters WHERE id = %s AND project_id = %s RETURNING id",
            (dead_letter_id, self.project_id),
        )
        if not rows:
            raise NotFoundError(f"no dead letter {dead_letter_id}")

    async def prune_processed_events(self, older_than: datetime) -> int:
        """Drop the content of processed events older than `older_than`; return how many.

        Rows stay (id, hash, time, type, paths) so dedup still recognises them; events cited
        by a live memory keep their content.
        """
        rows = await self._rows(
            "UPDATE events SET content_json = %s WHERE project_id = %s "
            "AND processed_at IS NOT NULL AND timestamp < %s AND content_json <> %s "
            "AND NOT EXISTS (SELECT 1 FROM memory_items m WHERE m.project_id = events.project_id "
            "AND NOT m.deleted AND events.id = ANY(m.source_event_ids)) RETURNING id",
            (_PRUNED, self.project_id, older_than, _PRUNED),
        )
        log.info("events_pruned", project_id=self.project_id, count=len(rows))
        return len(rows)

    async def vacuum(self) -> None:
        """Nothing to do per project: Postgres reclaims space with autovacuum."""

    async def waiting_sessions(self, project_id: str) -> list[tuple[datetime, datetime]]:
        """(first, last) timestamp of the unprocessed events of each session of the project."""
        rows = await self._rows(
            "SELECT MIN(timestamp), MAX(timestamp) FROM events "
            "WHERE processed_at IS NULL AND project_id = %s GROUP BY session_id",
            (project_id,),
        )
        return [(r[0], r[1]) for r in rows]

    async def writer_counts(self) -> dict[str, int]:
        """Live memories per writer (`rules`, `manual`, `<backend>:<model>`)."""
        rows = await self._rows(
            "SELECT written_by, COUNT(*) FROM memory_items WHERE project_id = %s "
            "AND NOT deleted GROUP BY written_by",
            (self.project_id,),
        )
        return {str(name or "rules"): int(count) for name, count in rows}

    async def events_per_day(self, since: datetime) -> dict[str, int]:
        """Events stored per day (`YYYY-MM-DD`, UTC, by event time) from `since` on."""
        rows = await self._rows(
            "SELECT to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD'), COUNT(*) FROM events "
            "WHERE project_id = %s AND timestamp >= %s GROUP BY 1 ORDER BY 1",
            (self.project_id, since),
        )
        return {str(day): int(count) for day, count in rows}

    async def counts(self) -> dict[str, int]:
        """Row counts for `sqrl status`: events, unprocessed, episodes, memories, dead letters."""
        rows = await self._rows(
            "SELECT (SELECT COUNT(*) FROM events WHERE project_id = %(p)s), "
            "(SELECT COUNT(*) FROM events WHERE project_id = %(p)s AND processed_at IS NULL), "
            "(SELECT COUNT(*) FROM episodes WHERE project_id = %(p)s), "
            "(SELECT COUNT(*) FROM memory_items WHERE project_id = %(p)s AND NOT deleted), "
            "(SELECT COUNT(*) FROM memory_items WHERE project_id = %(p)s AND deleted), "
            "(SELECT COUNT(*) FROM dead_letters WHERE project_id = %(p)s)",
            {"p": self.project_id},
        )
        names = (
            "events",
            "events_unprocessed",
            "episodes",
            "memories_live",
            "memories_deleted",
            "dead_letters",
        )
        return {name: int(value) for name, value in zip(names, rows[0], strict=True)}
