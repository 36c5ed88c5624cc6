"""`OutcomeLog` on Postgres: the `served_memories` and `memory_outcomes` tables (schema 4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.outcome_log import (
    OutcomeEvent,
    ServedRecord,
    SharedOutcomeLog,
    check_outcomes,
    check_served,
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


class PostgresOutcomeLog(SharedOutcomeLog):
    """Served memories and outcomes (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase
    _dialect = POSTGRES

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
