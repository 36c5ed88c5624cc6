"""`OutcomeLog` on Postgres: the `served_memories` and `memory_outcomes` tables (schema 4)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.outcome_log import SharedOutcomeLog

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


_TYPES = {"served_at": "timestamptz", "judged_at": "timestamptz", "version": "integer"}
"""The Postgres type of each column that is not text."""


class PostgresOutcomeLog(SharedOutcomeLog):
    """Served memories and outcomes (part of `PostgresStore`)."""

    _db: PostgresDatabase
    _dialect = POSTGRES

    async def _insert_new(
        self, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
    ) -> int:
        # One statement over one array per column: no round trip per row.
        arrays = ", ".join(f"%s::{_TYPES.get(c, 'text')}[]" for c in columns)
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                f"INSERT INTO {table} (project_id, {', '.join(columns)}) "  # noqa: S608 (constants)
                f"SELECT %s, * FROM unnest({arrays}) ON CONFLICT DO NOTHING",
                (self.project_id, *([row[n] for row in rows] for n in range(len(columns)))),
            )
            return cursor.rowcount
