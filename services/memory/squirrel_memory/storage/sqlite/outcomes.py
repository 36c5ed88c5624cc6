"""`OutcomeLog` on SQLite: the `served_memories` and `memory_outcomes` tables (schema 10)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from squirrel_memory.storage.formats import from_db_time, to_db_time
from squirrel_memory.storage.outcome_log import (
    OutcomeCounts,
    OutcomeEvent,
    ServedRecord,
    check_outcomes,
    check_served,
    summarise,
)

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


def _outcome(row: Sequence[object]) -> OutcomeEvent:
    return OutcomeEvent(
        str(row[0]),
        str(row[1]),
        str(row[2]),
        int(str(row[3])),
        from_db_time(str(row[4])),
        from_db_time(str(row[5])),
    )


class SqliteOutcomeLog:
    """Served memories and outcomes (part of `SqliteStore`)."""

    _db: SqliteDatabase

    async def record_served(self, records: Sequence[ServedRecord]) -> int:
        check_served(records)
        rows = [(r.session_id, r.memory_id, to_db_time(r.served_at), r.channel) for r in records]

        def write(conn: sqlite3.Connection) -> int:
            before = conn.total_changes
            conn.executemany(
                "INSERT OR IGNORE INTO served_memories (session_id, memory_id, served_at, channel) "
                "VALUES (?, ?, ?, ?)",
                rows,
            )
            return conn.total_changes - before

        return await self._db.write(write) if rows else 0

    async def pending_served(self, session_ids: Sequence[str]) -> list[ServedRecord]:
        ids = list(dict.fromkeys(session_ids))

        def read(conn: sqlite3.Connection) -> list[ServedRecord]:
            return [
                ServedRecord(row[0], row[1], from_db_time(row[2]), row[3])
                for row in conn.execute(
                    "SELECT s.session_id, s.memory_id, s.served_at, s.channel "
                    "FROM served_memories s LEFT JOIN memory_outcomes o "
                    "ON o.session_id = s.session_id AND o.memory_id = s.memory_id "
                    "WHERE o.seq IS NULL AND s.session_id IN (SELECT value FROM json_each(?)) "
                    "ORDER BY s.served_at, s.memory_id",
                    (json.dumps(ids),),
                )
            ]

        return await self._db.read(read) if ids else []

    async def append_outcomes(self, events: Sequence[OutcomeEvent]) -> int:
        check_outcomes(events)
        rows = [
            (
                e.memory_id,
                e.session_id,
                e.outcome,
                e.version,
                to_db_time(e.served_at),
                to_db_time(e.judged_at),
            )
            for e in events
        ]

        def write(conn: sqlite3.Connection) -> int:
            before = conn.total_changes
            conn.executemany(
                "INSERT OR IGNORE INTO memory_outcomes (memory_id, session_id, outcome, version, "
                "served_at, judged_at) VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
            return conn.total_changes - before

        return await self._db.write(write) if rows else 0

    async def outcome_events(
        self, memory_ids: Sequence[str] | None = None, limit: int = 0
    ) -> list[OutcomeEvent]:
        ids = None if memory_ids is None else list(dict.fromkeys(memory_ids))

        def read(conn: sqlite3.Connection) -> list[OutcomeEvent]:
            rows = conn.execute(
                "SELECT memory_id, session_id, outcome, version, served_at, judged_at "
                "FROM memory_outcomes WHERE ? IS NULL OR memory_id IN "
                "(SELECT value FROM json_each(?)) ORDER BY seq DESC LIMIT ?",
                (
                    None if ids is None else 1,
                    json.dumps(ids or []),
                    limit if limit > 0 else -1,
                ),
            ).fetchall()
            return [_outcome(row) for row in reversed(rows)]

        return await self._db.read(read)

    async def outcome_counts(self, sessions: int) -> OutcomeCounts:
        def read(conn: sqlite3.Connection) -> OutcomeCounts:
            recent = [
                row[0]
                for row in conn.execute(
                    "SELECT session_id FROM served_memories GROUP BY session_id "
                    "ORDER BY MIN(served_at) DESC, session_id LIMIT ?",
                    (max(0, sessions),),
                )
            ]
            if not recent:
                return OutcomeCounts()
            rows = conn.execute(
                "SELECT s.session_id, o.outcome FROM served_memories s "
                "LEFT JOIN memory_outcomes o "
                "ON o.session_id = s.session_id AND o.memory_id = s.memory_id "
                "WHERE s.session_id IN (SELECT value FROM json_each(?))",
                (json.dumps(recent),),
            ).fetchall()
            return summarise([(r[0], r[1]) for r in rows], len(recent))

        return await self._db.read(read)
