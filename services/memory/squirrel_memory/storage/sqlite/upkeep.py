"""Upkeep of a project's database on SQLite: the shared upkeep (`upkeep`) in its dialect, what
SQLite says its own way (a prune by the memories' JSON event lists, its planner kept off an
index) and what only a file needs: vacuum."""

from __future__ import annotations

import sqlite3

from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.upkeep import SharedUpkeep


class SqliteUpkeep(SharedUpkeep):
    """View meta, dead letters, retention and counts (part of `SqliteStore`)."""

    _db: SqliteDatabase
    _dialect = SQLITE

    _PRUNE = (
        # Numbered parameters: the project is named twice.
        "UPDATE events SET content_json = '{\"pruned\":true}' "
        "WHERE project_id = ?1 AND processed_at IS NOT NULL AND timestamp < ?2 "
        "AND content_json != '{\"pruned\":true}' "
        "AND id NOT IN (SELECT value FROM memory_items, json_each(source_event_ids) "
        "WHERE memory_items.deleted = 0 AND memory_items.project_id = ?1)"
    )
    # `+deleted` keeps SQLite off the live-memory index: through it, every row was looked
    # up one by one for its writer (13 ms at 10k memories, a plain scan takes 3 ms).
    _WRITER_COUNTS = (
        "SELECT written_by, COUNT(*) FROM memory_items WHERE +deleted = 0 GROUP BY written_by"
    )

    async def vacuum(self) -> None:
        """Merge the search index into one segment, checkpoint the WAL and rebuild the file to
        reclaim free pages. Small writes leave FTS5 many segments that every search walks (9
        segments merged into one made searches of 100,000 memories 1.2-1.8x faster)."""

        def run(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO memory_fts(memory_fts) VALUES ('optimize')")
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        await self._db.write_outside_transaction(run)
