"""The event log of a project: appending events with their cursors, episodes, processing marks."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import structlog

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.events import Event, SourceCursor, SourceTool, default_origin
from squirrel_memory.models import Episode, StoredEvent
from squirrel_memory.storage.base import AppendResult
from squirrel_memory.storage.checks import (
    IN_IDS,
    MAX_KEY_CHARS,
    Clock,
    check_cursor,
    check_limit,
    check_project,
    check_text,
    chunks,
)
from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.event_sql import (
    SELECT_EVENT,
    add_episode_event_sql,
    clear_episode_events_sql,
    episode_event_rows,
    episode_row,
    event_from_row,
    upsert_episode_sql,
)
from squirrel_memory.storage.formats import from_db_time, new_id, to_db_time, to_json
from squirrel_memory.storage.intake import EventIntake
from squirrel_memory.storage.sqlite.database import SqliteDatabase

log = structlog.get_logger()

_SELECT_EVENT = SELECT_EVENT
_INSERT_EVENT = (
    "INSERT INTO events (id, project_id, user_id, source_tool, session_id, timestamp, "
    "event_type, content_json, file_paths, hash, processed_at, origin, sidechain, agent_id) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)"
)
_UPSERT_EPISODE = upsert_episode_sql(SQLITE)
_CLEAR_EPISODE_EVENTS = clear_episode_events_sql(SQLITE)
_ADD_EPISODE_EVENT = add_episode_event_sql(SQLITE)


def _event_from_row(row: Sequence[Any]) -> StoredEvent:
    return event_from_row(SQLITE, row)


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


class SqliteEventLog(EventIntake):
    """Events, cursors and episodes of one project (part of `SqliteStore`)."""

    project_id: str
    _db: SqliteDatabase
    _clock: Clock
    _max_content_bytes: int

    async def append_events(
        self,
        project_id: str,
        user_id: str,
        events: Sequence[Event],
        cursors: Sequence[SourceCursor],
    ) -> AppendResult:
        """Store new events and the cursors read with them in one transaction.

        Invalid events are rejected with a reason (never failing the batch); events whose dedup
        hash is already stored, or appears earlier in the batch, are counted as duplicates.
        An invalid cursor or user id raises `InvalidArgumentError` and nothing is written.
        """
        check_project(self.project_id, project_id)
        check_text("user_id", user_id, MAX_KEY_CHARS)
        checked_cursors = [check_cursor(c) for c in cursors]
        now = to_db_time(self._clock())

        def write(conn: sqlite3.Connection) -> tuple[list[str], int, list[tuple[int, str]]]:
            # Checked and hashed on the writer thread too: one hop per batch instead of two.
            prepared, rejected = self._prepare_events(project_id, events)
            hashes = list(dict.fromkeys(digest for _, _, digest in prepared))
            stored: set[str] = set()
            for chunk in chunks(hashes):
                stored.update(
                    row[0]
                    for row in conn.execute(
                        "SELECT hash FROM events WHERE project_id = ? "
                        "AND hash IN (SELECT value FROM json_each(?))",
                        (project_id, to_json(list(chunk))),
                    )
                )
            rows = []
            duplicates = 0
            for event, content_json, digest in prepared:
                if digest in stored:
                    duplicates += 1
                    continue
                stored.add(digest)
                rows.append(
                    (
                        new_id("evt"),
                        project_id,
                        user_id,
                        str(event.source_tool),
                        event.session_id,
                        to_db_time(event.timestamp),
                        str(event.event_type),
                        content_json,
                        to_json(list(event.file_paths)),
                        digest,
                        str(event.origin or default_origin(event.event_type)),
                        int(bool(event.sidechain)),
                        event.agent_id,
                    )
                )
            conn.executemany(
                _INSERT_EVENT,
                rows,
            )
            conn.executemany(
                "INSERT INTO source_cursors VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (source_tool, path) DO UPDATE SET project_id = excluded.project_id, "
                "inode = excluded.inode, offset = excluded.offset, extra = excluded.extra, "
                "updated_at = excluded.updated_at",
                [
                    (
                        project_id,
                        str(c.source_tool),
                        c.path,
                        c.inode,
                        c.offset,
                        to_json(c.extra),
                        now,
                    )
                    for c in checked_cursors
                ],
            )
            return [row[0] for row in rows], duplicates, rejected

        ids, duplicates, rejected = await self._db.write(write)
        log.info(
            "events_appended",
            project_id=project_id,
            accepted=len(ids),
            duplicates=duplicates,
            rejected=len(rejected),
            cursors=len(checked_cursors),
        )
        return AppendResult(len(ids), duplicates, rejected, tuple(ids))

    async def get_cursors(self, project_id: str) -> list[SourceCursor]:
        """Every stored cursor of this project."""
        check_project(self.project_id, project_id)

        def read(conn: sqlite3.Connection) -> list[SourceCursor]:
            rows = conn.execute(
                "SELECT source_tool, path, inode, offset, extra FROM source_cursors "
                "WHERE project_id = ? ORDER BY source_tool, path",
                (project_id,),
            ).fetchall()
            return [
                SourceCursor(SourceTool(r[0]), r[1], int(r[2]), int(r[3]), json.loads(r[4]))
                for r in rows
            ]

        return await self._db.read(read)

    async def fetch_unprocessed(self, project_id: str, limit: int = 200) -> list[StoredEvent]:
        """The oldest `limit` events not yet processed, by timestamp."""
        check_project(self.project_id, project_id)
        check_limit(limit)

        def read(conn: sqlite3.Connection) -> list[StoredEvent]:
            rows = conn.execute(
                _SELECT_EVENT + "INDEXED BY idx_events_unprocessed "
                "WHERE project_id = ? AND processed_at IS NULL ORDER BY timestamp, id LIMIT ?",
                (project_id, limit),
            ).fetchall()
            return [_event_from_row(r) for r in rows]

        return await self._db.read(read)

    async def fetch_unprocessed_of_sessions(
        self, project_id: str, session_ids: Sequence[str | None], limit: int
    ) -> list[StoredEvent]:
        """Every unprocessed event of these sessions (None: events without a session), oldest
        first, at most `limit`; lets the processor see a whole session at once."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        named = [s for s in dict.fromkeys(session_ids) if s is not None]
        unnamed = any(s is None for s in session_ids)

        def read(conn: sqlite3.Connection) -> list[StoredEvent]:
            rows = conn.execute(
                _SELECT_EVENT + "INDEXED BY idx_events_unprocessed "
                "WHERE project_id = ? AND processed_at IS NULL AND (session_id " + IN_IDS + " OR "
                "(? AND session_id IS NULL)) ORDER BY timestamp, id LIMIT ?",
                (project_id, to_json(named), int(unnamed), limit),
            ).fetchall()
            return [_event_from_row(r) for r in rows]

        return await self._db.read(read)

    async def fetch_recent_of_types(
        self, project_id: str, event_types: Sequence[str], limit: int, origin: str | None = None
    ) -> list[StoredEvent]:
        """The newest `limit` events of these types (and of this origin, when given), processed
        or not, oldest first: the project-wide evidence (every session's commands) that recipes
        and pitfalls weigh."""
        check_project(self.project_id, project_id)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 100_000:
            raise InvalidArgumentError("limit must be an integer from 1 to 100000")
        kinds = list(dict.fromkeys(event_types))

        def read(conn: sqlite3.Connection) -> list[StoredEvent]:
            rows = conn.execute(
                _SELECT_EVENT + "INDEXED BY idx_events_project_time "
                "WHERE project_id = ? AND event_type " + IN_IDS + " AND (? IS NULL OR origin = ?) "
                "ORDER BY timestamp DESC, id DESC LIMIT ?",
                (project_id, to_json(kinds), origin, origin, limit),
            ).fetchall()
            return [_event_from_row(r) for r in reversed(rows)]

        return await self._db.read(read)

    async def get_events(self, event_ids: Sequence[str]) -> list[StoredEvent]:
        """The stored events with these ids (unknown ids are skipped), by timestamp."""
        ids = list(dict.fromkeys(event_ids))

        def read(conn: sqlite3.Connection) -> list[StoredEvent]:
            found: list[StoredEvent] = []
            for chunk in chunks(ids):
                rows = conn.execute(
                    _SELECT_EVENT + "WHERE id " + IN_IDS, (to_json(list(chunk)),)
                ).fetchall()
                found.extend(_event_from_row(r) for r in rows)
            return sorted(found, key=lambda e: (e.timestamp, e.id))

        return await self._db.read(read)

    async def events_after(self, position: int, limit: int) -> list[tuple[int, StoredEvent]]:
        """Events stored after local position `position` (SQLite's rowid, which only grows),
        oldest first, with their positions: what a laptop has not yet delivered to its team
        server."""

        def read(conn: sqlite3.Connection) -> list[tuple[int, StoredEvent]]:
            rows = conn.execute(
                "SELECT rowid, id, project_id, user_id, source_tool, session_id, timestamp, "
                "event_type, content_json, file_paths, hash, processed_at, origin, sidechain, "
                "agent_id FROM events WHERE rowid > ? ORDER BY rowid LIMIT ?",
                (position, limit),
            ).fetchall()
            return [(int(r[0]), _event_from_row(r[1:])) for r in rows]

        return await self._db.read(read)

    async def count_events_after(self, position: int) -> int:
        """How many events were stored after local position `position` (see `events_after`)."""
        return await self._db.read(
            lambda conn: int(
                conn.execute("SELECT COUNT(*) FROM events WHERE rowid > ?", (position,)).fetchone()[
                    0
                ]
            )
        )

    async def count_unprocessed(self, project_id: str) -> int:
        """How many events wait for processing."""
        check_project(self.project_id, project_id)
        return await self._db.read(
            lambda conn: int(
                conn.execute(
                    "SELECT COUNT(*) FROM events WHERE project_id = ? AND processed_at IS NULL",
                    (project_id,),
                ).fetchone()[0]
            )
        )

    async def count_events(self, project_id: str) -> int:
        """How many events are stored."""
        check_project(self.project_id, project_id)
        return await self._db.read(
            lambda conn: int(
                conn.execute(
                    "SELECT COUNT(*) FROM events WHERE project_id = ?", (project_id,)
                ).fetchone()[0]
            )
        )

    # --- episodes and processing ---

    async def save_episodes(self, episodes: Sequence[Episode]) -> list[str]:
        """Insert (or replace, by id) episodes and their event lists; return their ids."""
        self._check_episodes(episodes)
        await self._db.write(lambda conn: write_episodes(conn, episodes))
        return [ep.id for ep in episodes]

    async def get_episode(self, episode_id: str) -> Episode:
        """One stored episode with its event ids in order; `NotFoundError` if unknown."""

        def read(conn: sqlite3.Connection) -> Episode | None:
            row = conn.execute(
                "SELECT id, project_id, user_id, session_id, start_ts, end_ts, event_count, "
                "summary, importance, created_at FROM episodes WHERE id = ?",
                (episode_id,),
            ).fetchone()
            if row is None:
                return None
            ids = conn.execute(
                "SELECT event_id FROM episode_events WHERE episode_id = ? ORDER BY position",
                (episode_id,),
            ).fetchall()
            return Episode(
                id=row[0],
                project_id=row[1],
                user_id=row[2],
                session_id=row[3],
                start_ts=from_db_time(row[4]),
                end_ts=from_db_time(row[5]),
                event_count=int(row[6]),
                summary=row[7],
                importance=float(row[8]),
                created_at=from_db_time(row[9]),
                event_ids=tuple(r[0] for r in ids),
            )

        episode = await self._db.read(read)
        if episode is None:
            raise NotFoundError(f"no episode {episode_id}")
        return episode

    async def mark_processed(self, event_ids: Sequence[str], at: datetime | None = None) -> int:
        """Set `processed_at` on events not yet processed; return how many changed."""
        stamp = to_db_time(at or self._clock())
        return await self._db.write(lambda conn: mark_events(conn, event_ids, stamp))
