"""The event log of a project on Postgres: events with their cursors, episodes, processing marks.

Appending is idempotent in the database itself: `UNIQUE (project_id, hash)` turns an event
already stored (by this or another writer, now or in an earlier delivery) into a duplicate.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import structlog
from psycopg import AsyncConnection

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.events import Event, SourceCursor, SourceTool, default_origin
from squirrel_memory.models import Episode, StoredEvent
from squirrel_memory.storage.base import AppendResult
from squirrel_memory.storage.checks import (
    MAX_KEY_CHARS,
    Clock,
    check_cursor,
    check_limit,
    check_project,
    check_text,
)
from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.event_sql import (
    SELECT_EVENT,
    add_episode_event_sql,
    clear_episode_events_sql,
    episode_event_rows,
    episode_row,
    event_from_row,
    upsert_episode_sql,
)
from squirrel_memory.storage.formats import new_id, to_json
from squirrel_memory.storage.intake import EventIntake
from squirrel_memory.storage.postgres.database import PostgresDatabase

log = structlog.get_logger()

_SELECT_EVENT = SELECT_EVENT
_INSERT_EVENT = (
    "INSERT INTO events (id, project_id, user_id, source_tool, session_id, timestamp, "
    "event_type, content_json, file_paths, hash, origin, sidechain, agent_id) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
    "ON CONFLICT (project_id, hash) DO NOTHING RETURNING id"
)


_UPSERT_EPISODE = upsert_episode_sql(POSTGRES)
_CLEAR_EPISODE_EVENTS = clear_episode_events_sql(POSTGRES)
_ADD_EPISODE_EVENT = add_episode_event_sql(POSTGRES)


def _event_from_row(row: Sequence[Any]) -> StoredEvent:
    return event_from_row(POSTGRES, row)


async def write_episodes(conn: AsyncConnection, episodes: Sequence[Episode]) -> None:
    """Insert or replace episodes and their event lists (inside a transaction)."""
    for ep in episodes:
        await conn.execute(_UPSERT_EPISODE, episode_row(POSTGRES, ep))
        await conn.execute(_CLEAR_EPISODE_EVENTS, (ep.id,))
        async with conn.cursor() as cursor:
            await cursor.executemany(_ADD_EPISODE_EVENT, episode_event_rows(ep))


async def mark_events(conn: AsyncConnection, event_ids: Sequence[str], at: datetime) -> int:
    """Set `processed_at` on the events not yet processed; return how many changed."""
    cursor = await conn.execute(
        "UPDATE events SET processed_at = %s WHERE processed_at IS NULL AND id = ANY(%s)",
        (at, list(dict.fromkeys(event_ids))),
    )
    return cursor.rowcount


class PostgresEventLog(EventIntake):
    """Events, cursors and episodes of one project (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase
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

        Invalid events are rejected with a reason; an event whose dedup hash is stored already
        (or earlier in the batch) is a duplicate. An invalid cursor or user id raises
        `InvalidArgumentError` and nothing is written.
        """
        check_project(self.project_id, project_id)
        check_text("user_id", user_id, MAX_KEY_CHARS)
        checked_cursors = [check_cursor(c) for c in cursors]
        prepared, rejected = await asyncio.to_thread(self._prepare_events, project_id, events)
        now = self._clock()
        rows = [
            (
                new_id("evt"),
                project_id,
                user_id,
                str(event.source_tool),
                event.session_id,
                event.timestamp,
                str(event.event_type),
                content_json,
                list(event.file_paths),
                digest,
                str(event.origin or default_origin(event.event_type)),
                bool(event.sidechain),
                event.agent_id,
            )
            for event, content_json, digest in prepared
        ]
        ids: list[str] = []
        async with self._db.transaction() as conn, conn.cursor() as cursor:
            # Appends of one project take turns, so `seq` grows in commit order.
            await cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (project_id,))
            if rows:
                await cursor.executemany(_INSERT_EVENT, rows, returning=True)
                while True:
                    found = await cursor.fetchone()
                    if found is not None:
                        ids.append(str(found[0]))
                    if not cursor.nextset():
                        break
            await cursor.executemany(
                "INSERT INTO source_cursors VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (project_id, source_tool, path) DO UPDATE SET "
                'inode = excluded.inode, "offset" = excluded."offset", extra = excluded.extra, '
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
        duplicates = len(rows) - len(ids)
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
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                'SELECT source_tool, path, inode, "offset", extra FROM source_cursors '
                "WHERE project_id = %s ORDER BY source_tool, path",
                (project_id,),
            )
            rows = await cursor.fetchall()
        return [
            SourceCursor(SourceTool(r[0]), r[1], int(r[2]), int(r[3]), json.loads(r[4]))
            for r in rows
        ]

    async def _events(self, sql: str, params: Sequence[Any]) -> list[StoredEvent]:
        async with self._db.transaction() as conn:
            cursor = await conn.execute(_SELECT_EVENT + sql, params)
            return [_event_from_row(r) for r in await cursor.fetchall()]

    async def fetch_unprocessed(self, project_id: str, limit: int = 200) -> list[StoredEvent]:
        """The oldest `limit` events not yet processed, by timestamp."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        return await self._events(
            "WHERE project_id = %s AND processed_at IS NULL ORDER BY timestamp, id LIMIT %s",
            (project_id, limit),
        )

    async def fetch_unprocessed_of_sessions(
        self, project_id: str, session_ids: Sequence[str | None], limit: int
    ) -> list[StoredEvent]:
        """Every unprocessed event of these sessions (None: events without a session), oldest
        first, at most `limit`."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        named = [s for s in dict.fromkeys(session_ids) if s is not None]
        unnamed = any(s is None for s in session_ids)
        return await self._events(
            "WHERE project_id = %s AND processed_at IS NULL AND (session_id = ANY(%s) "
            "OR (%s AND session_id IS NULL)) ORDER BY timestamp, id LIMIT %s",
            (project_id, named, unnamed, limit),
        )

    async def fetch_recent_of_types(
        self, project_id: str, event_types: Sequence[str], limit: int, origin: str | None = None
    ) -> list[StoredEvent]:
        """The newest `limit` events of these types (and of this origin, when given), processed
        or not, oldest first."""
        check_project(self.project_id, project_id)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 100_000:
            raise InvalidArgumentError("limit must be an integer from 1 to 100000")
        found = await self._events(
            "WHERE project_id = %s AND event_type = ANY(%s) "
            "AND (%s::text IS NULL OR origin = %s) ORDER BY timestamp DESC, id DESC LIMIT %s",
            (project_id, list(dict.fromkeys(event_types)), origin, origin, limit),
        )
        return list(reversed(found))

    async def get_events(self, event_ids: Sequence[str]) -> list[StoredEvent]:
        """The stored events with these ids (unknown ids are skipped), by timestamp."""
        return await self._events(
            "WHERE id = ANY(%s) ORDER BY timestamp, id", (list(dict.fromkeys(event_ids)),)
        )

    async def events_after(self, position: int, limit: int) -> list[tuple[int, StoredEvent]]:
        """Events of this project stored after position `position`, oldest first, with their
        positions (appends of one project take turns, so positions grow in commit order)."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT seq, id, project_id, user_id, source_tool, session_id, timestamp, "
                "event_type, content_json, file_paths, hash, processed_at, origin, sidechain, "
                "agent_id FROM events WHERE project_id = %s AND seq > %s ORDER BY seq LIMIT %s",
                (self.project_id, position, limit),
            )
            rows = await cursor.fetchall()
        return [(int(r[0]), _event_from_row(r[1:])) for r in rows]

    async def count_events_after(self, position: int) -> int:
        """How many events of this project were stored after `position` (see `events_after`)."""
        return await self._count(
            "SELECT COUNT(*) FROM events WHERE project_id = %s AND seq > %s",
            (self.project_id, position),
        )

    async def _count(self, sql: str, params: Sequence[Any]) -> int:
        async with self._db.transaction() as conn:
            cursor = await conn.execute(sql, params)
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def count_unprocessed(self, project_id: str) -> int:
        """How many events wait for processing."""
        check_project(self.project_id, project_id)
        return await self._count(
            "SELECT COUNT(*) FROM events WHERE project_id = %s AND processed_at IS NULL",
            (project_id,),
        )

    async def count_events(self, project_id: str) -> int:
        """How many events are stored."""
        check_project(self.project_id, project_id)
        return await self._count("SELECT COUNT(*) FROM events WHERE project_id = %s", (project_id,))

    # --- episodes and processing ---

    async def save_episodes(self, episodes: Sequence[Episode]) -> list[str]:
        """Insert (or replace, by id) episodes and their event lists; return their ids."""
        self._check_episodes(episodes)
        async with self._db.transaction() as conn:
            await write_episodes(conn, episodes)
        return [ep.id for ep in episodes]

    async def get_episode(self, episode_id: str) -> Episode:
        """One stored episode with its event ids in order; `NotFoundError` if unknown."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT id, project_id, user_id, session_id, start_ts, end_ts, event_count, "
                "summary, importance, created_at FROM episodes WHERE id = %s AND project_id = %s",
                (episode_id, self.project_id),
            )
            row = await cursor.fetchone()
            if row is None:
                raise NotFoundError(f"no episode {episode_id}")
            cursor = await conn.execute(
                "SELECT event_id FROM episode_events WHERE episode_id = %s ORDER BY position",
                (episode_id,),
            )
            ids = await cursor.fetchall()
        return Episode(
            id=row[0],
            project_id=row[1],
            user_id=row[2],
            session_id=row[3],
            start_ts=row[4],
            end_ts=row[5],
            event_count=int(row[6]),
            summary=row[7],
            importance=float(row[8]),
            created_at=row[9],
            event_ids=tuple(r[0] for r in ids),
        )

    async def mark_processed(self, event_ids: Sequence[str], at: datetime | None = None) -> int:
        """Mark events processed (once); return how many were newly marked."""
        async with self._db.transaction() as conn:
            return await mark_events(conn, event_ids, at or self._clock())
