"""`OutcomeLog` on SQLite: the `served_memories` and `memory_outcomes` tables (schema 10)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.outcome_log import SharedOutcomeLog

if TYPE_CHECKING:
    from squirrel_memory.storage.sqlite.database import SqliteDatabase

#: Schema version 10: served memories and their outcomes, append-only.
OUTCOME_TABLES = (
    "CREATE TABLE served_memories (session_id TEXT NOT NULL, memory_id TEXT NOT NULL, "
    "served_at TEXT NOT NULL, channel TEXT NOT NULL, PRIMARY KEY (session_id, memory_id)) "
    "WITHOUT ROWID",
    "CREATE INDEX idx_served_memories_time ON served_memories(served_at)",
    "CREATE TABLE memory_outcomes (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
    "memory_id TEXT NOT NULL, session_id TEXT NOT NULL, outcome TEXT NOT NULL, "
    "version INTEGER NOT NULL, served_at TEXT NOT NULL, judged_at TEXT NOT NULL)",
    "CREATE UNIQUE INDEX idx_memory_outcomes_session ON memory_outcomes(session_id, memory_id)",
    "CREATE INDEX idx_memory_outcomes_memory ON memory_outcomes(memory_id, seq)",
    """CREATE TRIGGER memory_outcomes_kept BEFORE UPDATE ON memory_outcomes
BEGIN SELECT RAISE(ABORT, 'memory outcomes are append-only'); END""",
    """CREATE TRIGGER memory_outcomes_not_deleted BEFORE DELETE ON memory_outcomes
BEGIN SELECT RAISE(ABORT, 'memory outcomes are append-only'); END""",
)


class SqliteOutcomeLog(SharedOutcomeLog):
    """Served memories and outcomes (part of `SqliteStore`)."""

    _db: SqliteDatabase
    _dialect = SQLITE

    async def _insert_new(
        self, table: str, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
    ) -> int:
        statement = SQLITE.insert_or_skip(table, columns, ())

        def write(conn: sqlite3.Connection) -> int:
            before = conn.total_changes
            conn.executemany(statement, rows)
            return conn.total_changes - before

        return await self._db.write(write)
