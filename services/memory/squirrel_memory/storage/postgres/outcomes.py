"""`OutcomeLog` on Postgres: the `served_memories` and `memory_outcomes` tables (schema 4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from squirrel_memory.storage.outcome_log import (
    OutcomeCounts,
    OutcomeEvent,
    ServedRecord,
    check_outcomes,
    check_served,
    summarise,
)

if TYPE_CHECKING:
    from squirrel_memory.storage.postgres.database import PostgresDatabase

#: Schema version 4: served memories and their outcomes, append-only.
OUTCOME_TABLES = (
    """CREATE TABLE served_memories (
  project_id text NOT NULL,
  session_id text NOT NULL,
  memory_id text NOT NULL,
  served_at timestamptz NOT NULL,
  channel text NOT NULL,
  PRIMARY KEY (project_id, session_id, memory_id)
)""",
    "CREATE INDEX served_memories_time ON served_memories (project_id, served_at)",
    """CREATE TABLE memory_outcomes (
  seq bigserial PRIMARY KEY,
  project_id text NOT NULL,
  memory_id text NOT NULL,
  session_id text NOT NULL,
  outcome text NOT NULL,
  version integer NOT NULL,
  served_at timestamptz NOT NULL,
  judged_at timestamptz NOT NULL,
  UNIQUE (project_id, session_id, memory_id)
)""",
    "CREATE INDEX memory_outcomes_memory ON memory_outcomes (project_id, memory_id, seq)",
    """CREATE FUNCTION memory_outcomes_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'memory outcomes are append-only'; END $$""",
    "CREATE TRIGGER memory_outcomes_kept BEFORE UPDATE OR DELETE ON memory_outcomes "
    "FOR EACH ROW EXECUTE FUNCTION memory_outcomes_kept()",
)


class PostgresOutcomeLog:
    """Served memories and outcomes (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase

    async def _fetch(self, query: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        async with self._db.transaction() as conn:
            cursor = await conn.execute(query, params)
            return await cursor.fetchall()

    async def record_served(self, records: Sequence[ServedRecord]) -> int:
        check_served(records)
        if not records:
            return 0
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO served_memories (project_id, session_id, memory_id, served_at, "
                "channel) SELECT %s, * FROM unnest(%s::text[], %s::text[], %s::timestamptz[], "
                "%s::text[]) ON CONFLICT DO NOTHING",
                (
                    self.project_id,
                    [r.session_id for r in records],
                    [r.memory_id for r in records],
                    [r.served_at for r in records],
                    [r.channel for r in records],
                ),
            )
            return cursor.rowcount

    async def pending_served(self, session_ids: Sequence[str]) -> list[ServedRecord]:
        ids = list(dict.fromkeys(session_ids))
        if not ids:
            return []
        rows = await self._fetch(
            "SELECT s.session_id, s.memory_id, s.served_at, s.channel FROM served_memories s "
            "LEFT JOIN memory_outcomes o ON o.project_id = s.project_id "
            "AND o.session_id = s.session_id AND o.memory_id = s.memory_id "
            "WHERE s.project_id = %s AND o.seq IS NULL AND s.session_id = ANY(%s) "
            "ORDER BY s.served_at, s.memory_id",
            (self.project_id, ids),
        )
        return [ServedRecord(r[0], r[1], r[2], r[3]) for r in rows]

    async def append_outcomes(self, events: Sequence[OutcomeEvent]) -> int:
        check_outcomes(events)
        if not events:
            return 0
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO memory_outcomes (project_id, memory_id, session_id, outcome, version, "
                "served_at, judged_at) "
                "SELECT %s, * FROM unnest(%s::text[], %s::text[], %s::text[], %s::integer[], "
                "%s::timestamptz[], %s::timestamptz[]) ON CONFLICT DO NOTHING",
                (
                    self.project_id,
                    [e.memory_id for e in events],
                    [e.session_id for e in events],
                    [e.outcome for e in events],
                    [e.version for e in events],
                    [e.served_at for e in events],
                    [e.judged_at for e in events],
                ),
            )
            return cursor.rowcount

    async def outcome_events(
        self, memory_ids: Sequence[str] | None = None, limit: int = 0
    ) -> list[OutcomeEvent]:
        ids = None if memory_ids is None else list(dict.fromkeys(memory_ids))
        rows = await self._fetch(
            "SELECT memory_id, session_id, outcome, version, served_at, judged_at "
            "FROM memory_outcomes WHERE project_id = %s AND (%s::text[] IS NULL "
            "OR memory_id = ANY(%s::text[])) ORDER BY seq DESC LIMIT %s",
            (self.project_id, ids, ids, limit if limit > 0 else None),
        )
        return [OutcomeEvent(r[0], r[1], r[2], int(r[3]), r[4], r[5]) for r in reversed(rows)]

    async def outcome_counts(self, sessions: int) -> OutcomeCounts:
        recent = [
            r[0]
            for r in await self._fetch(
                "SELECT session_id FROM served_memories WHERE project_id = %s "
                "GROUP BY session_id ORDER BY MIN(served_at) DESC, session_id LIMIT %s",
                (self.project_id, max(0, sessions)),
            )
        ]
        if not recent:
            return OutcomeCounts()
        rows = await self._fetch(
            "SELECT s.session_id, o.outcome FROM served_memories s "
            "LEFT JOIN memory_outcomes o ON o.project_id = s.project_id "
            "AND o.session_id = s.session_id AND o.memory_id = s.memory_id "
            "WHERE s.project_id = %s AND s.session_id = ANY(%s)",
            (self.project_id, recent),
        )
        return summarise([(r[0], r[1]) for r in rows], len(recent))
