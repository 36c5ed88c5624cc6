"""The event log of a project on SQLite: the shared event log (`event_log`) in its dialect, and
how SQLite stores a batch (the stored hashes looked up first, on the writer thread), episodes
and processing marks.

On a team server an event is a duplicate of one its author stored: another author's event
with the same hash is never the one that is kept for it (`event_log`). A laptop has one user:
an event is a duplicate of any stored with its hash, so re-reading transcripts after
`general.user_id` changed stores nothing again."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from squirrel_core.events import Event, SourceCursor
from squirrel_memory.models import Episode
from squirrel_memory.storage.checks import Clock, chunks
from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.event_log import SharedEventLog
from squirrel_memory.storage.event_sql import (
    add_episode_event_sql,
    clear_episode_events_sql,
    cursor_row,
    episode_event_rows,
    episode_row,
    event_row,
    insert_event_sql,
    upsert_cursor_sql,
    upsert_episode_sql,
)
from squirrel_memory.storage.formats import new_id, to_db_time, to_json
from squirrel_memory.storage.sqlite.database import SqliteDatabase

_INSERT_EVENT = insert_event_sql(SQLITE)
_UPSERT_CURSOR = upsert_cursor_sql(SQLITE, ("source_tool", "path"))
_UPSERT_EPISODE = upsert_episode_sql(SQLITE)
_CLEAR_EPISODE_EVENTS = clear_episode_events_sql(SQLITE)
_ADD_EPISODE_EVENT = add_episode_event_sql(SQLITE)


def write_episodes(conn: sqlite3.Connection, episodes: Sequence[Episode]) -> None:
    """Insert or replace episodes and their event lists (inside a write transaction)."""
    for ep in episodes:
        conn.execute(_UPSERT_EPISODE, episode_row(SQLITE, ep))
        conn.execute(_CLEAR_EPISODE_EVENTS, (ep.id,))
        conn.executemany(_ADD_EPISODE_EVENT, episode_event_rows(ep))


def mark_events(conn: sqlite3.Connection, event_ids: Sequence[str], at: str) -> int:
    """Set `processed_at` on the events not yet processed; return how many changed."""
    count = 0
    for chunk in chunks(list(dict.fromkeys(event_ids))):
        cursor = conn.execute(
            "UPDATE events SET processed_at = ? WHERE processed_at IS NULL "
            "AND id IN (SELECT value FROM json_each(?))",
            (at, to_json(list(chunk))),
        )
        count += cursor.rowcount
    return count


class SqliteEventLog(SharedEventLog):
    """Events, cursors and episodes of one project (part of `SqliteStore`)."""

    project_id: str
    _db: SqliteDatabase
    _clock: Clock
    _max_content_bytes: int
    _per_author: bool
    _dialect = SQLITE

    async def _store_events(
        self,
        project_id: str,
        user_id: str,
        events: Sequence[Event],
        cursors: Sequence[SourceCursor],
    ) -> tuple[list[str], int, list[tuple[int, str]]]:
        now = to_db_time(self._clock())

        def write(conn: sqlite3.Connection) -> tuple[list[str], int, list[tuple[int, str]]]:
            # Checked and hashed on the writer thread too: one hop per batch instead of two.
            prepared, rejected = self._prepare_events(project_id, events)
            hashes = list(dict.fromkeys(digest for _, _, digest in prepared))
            stored: set[str] = set()
            # One author's duplicates on a team server; any on a laptop (module docstring).
            author = " AND user_id = ?" if self._per_author else ""
            for chunk in chunks(hashes):
                params = (project_id, to_json(list(chunk)), *([user_id] if author else []))
                stored.update(
                    row[0]
                    for row in conn.execute(
                        "SELECT hash FROM events WHERE project_id = ? "  # noqa: S608
                        f"AND hash IN (SELECT value FROM json_each(?)){author}",
                        params,
                    )
                )
            rows = []
            duplicates = 0
            for one in prepared:
                digest = one[2]
                if digest in stored:
                    duplicates += 1
                    continue
                stored.add(digest)
                rows.append(event_row(SQLITE, new_id("evt"), project_id, user_id, one))
            conn.executemany(_INSERT_EVENT, rows)
            conn.executemany(
                _UPSERT_CURSOR, [cursor_row(SQLITE, project_id, c, now) for c in cursors]
            )
            return [row[0] for row in rows], duplicates, rejected

        return await self._db.write(write)

    async def save_episodes(self, episodes: Sequence[Episode]) -> list[str]:
        """Insert (or replace, by id) episodes and their event lists; return their ids."""
        self._check_episodes(episodes)
        await self._db.write(lambda conn: write_episodes(conn, episodes))
        return [ep.id for ep in episodes]

    async def mark_processed(self, event_ids: Sequence[str], at: datetime | None = None) -> int:
        """Set `processed_at` on events not yet processed; return how many changed."""
        stamp = to_db_time(at or self._clock())
        return await self._db.write(lambda conn: mark_events(conn, event_ids, stamp))
