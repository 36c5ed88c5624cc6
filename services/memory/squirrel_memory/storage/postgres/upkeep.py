"""Upkeep of a project's rows on Postgres: the shared upkeep (`upkeep`) in its dialect, and
what Postgres says its own way (a prune by the memories' event arrays)."""

from __future__ import annotations

from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.upkeep import SharedUpkeep


class PostgresUpkeep(SharedUpkeep):
    """View meta, dead letters, retention and counts (part of `PostgresStore`)."""

    _db: PostgresDatabase
    _dialect = POSTGRES

    _PRUNE = (
        "UPDATE events SET content_json = '{\"pruned\":true}' WHERE project_id = %s "
        "AND processed_at IS NOT NULL AND timestamp < %s "
        "AND content_json <> '{\"pruned\":true}' "
        "AND NOT EXISTS (SELECT 1 FROM memory_items m WHERE m.project_id = events.project_id "
        "AND NOT m.deleted AND events.id = ANY(m.source_event_ids))"
    )
    _WRITER_COUNTS = (
        "SELECT written_by, COUNT(*) FROM memory_items WHERE NOT deleted AND project_id = %s "
        "GROUP BY written_by"
    )

    async def vacuum(self) -> None:
        """Nothing to do per project: Postgres reclaims space with autovacuum."""
