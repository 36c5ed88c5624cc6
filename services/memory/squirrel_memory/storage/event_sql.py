"""The event log's shared statements and row reading, for both backends from a `Dialect`:
the columns of an event, an event read back from its row, and an episode with its events."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from squirrel_core.events import Event, SourceCursor, default_origin, parse_origin
from squirrel_memory.models import Episode, StoredEvent
from squirrel_memory.storage.checks import chunks
from squirrel_memory.storage.dialect import Dialect
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.queries import Write, WriteMany, WritePlan, changed

SELECT_EVENT = (
    "SELECT id, project_id, user_id, source_tool, session_id, timestamp, event_type, "
    "content_json, file_paths, hash, processed_at, origin, sidechain, agent_id FROM events "
)
_EVENT_COLUMNS = (
    "id",
    "project_id",
    "user_id",
    "source_tool",
    "session_id",
    "timestamp",
    "event_type",
    "content_json",
    "file_paths",
    "hash",
    "origin",
    "sidechain",
    "agent_id",
)
_CURSOR_COLUMNS = (
    "project_id",
    "source_tool",
    "path",
    "inode",
    '"offset"',
    "extra",
    "updated_at",
)
SELECT_EPISODE = (
    "SELECT id, project_id, user_id, session_id, start_ts, end_ts, event_count, summary, "
    "importance, created_at FROM episodes "
)
_EPISODE_COLUMNS = (
    "id",
    "project_id",
    "user_id",
    "session_id",
    "start_ts",
    "end_ts",
    "event_count",
    "summary",
    "importance",
    "created_at",
)


def event_from_row(d: Dialect, row: Sequence[Any]) -> StoredEvent:
    """A `StoredEvent` from a row of `SELECT_EVENT`; content that is not a JSON object reads as
    empty."""
    try:
        content = json.loads(row[7])
    except ValueError:
        content = {}
    return StoredEvent(
        id=row[0],
        project_id=row[1],
        user_id=row[2],
        source_tool=row[3],
        session_id=row[4],
        timestamp=d.load_time(row[5]),
        event_type=row[6],
        content=content if isinstance(content, dict) else {},
        file_paths=d.load_list(row[8]),
        hash=row[9],
        processed_at=d.load_time(row[10]) if row[10] else None,
        origin=str(parse_origin(row[11], row[6])),
        sidechain=bool(row[12]),
        agent_id=row[13],
    )


@functools.cache
def upsert_episode_sql(d: Dialect) -> str:
    """An episode, its first record kept (`created_at`, its project and user)."""
    kept = ("project_id", "user_id", "created_at")
    return d.upsert("episodes", _EPISODE_COLUMNS, ("id",), kept)


@functools.cache
def clear_episode_events_sql(d: Dialect) -> str:
    return f"DELETE FROM episode_events WHERE episode_id = {d.mark}"  # noqa: S608 (constants)


@functools.cache
def add_episode_event_sql(d: Dialect) -> str:
    return d.insert_or_skip(
        "episode_events", ("episode_id", "event_id", "position"), ("episode_id", "event_id")
    )


def episode_row(d: Dialect, ep: Episode) -> tuple[Any, ...]:
    return (
        ep.id,
        ep.project_id,
        ep.user_id,
        ep.session_id,
        d.store_time(ep.start_ts),
        d.store_time(ep.end_ts),
        ep.event_count,
        ep.summary,
        ep.importance,
        d.store_time(ep.created_at),
    )


def episode_event_rows(ep: Episode) -> list[tuple[str, str, int]]:
    return [(ep.id, event_id, pos) for pos, event_id in enumerate(ep.event_ids)]


def write_episodes(d: Dialect, episodes: Sequence[Episode]) -> WritePlan[None]:
    """Insert or replace episodes and their event lists (inside a write transaction)."""
    for ep in episodes:
        yield Write(upsert_episode_sql(d), episode_row(d, ep))
        yield Write(clear_episode_events_sql(d), (ep.id,))
        yield WriteMany(add_episode_event_sql(d), episode_event_rows(ep))


def mark_events(d: Dialect, event_ids: Sequence[str], at: datetime) -> WritePlan[int]:
    """Set `processed_at` on the events not yet processed; how many changed."""
    ids = list(dict.fromkeys(event_ids))
    sql = (
        f"UPDATE events SET processed_at = {d.mark} WHERE processed_at IS NULL "  # noqa: S608
        f"AND id {d.in_list}"
    )
    count = 0
    for chunk in chunks(ids, d.list_chunk) if d.list_chunk else [ids]:
        count += yield from changed(sql, d.store_time(at), d.store_list(chunk))
    return count


def insert_event_sql(d: Dialect) -> str:
    """One new event (not yet processed)."""
    return d.insert("events", _EVENT_COLUMNS)


def event_row(
    d: Dialect, event_id: str, project_id: str, user_id: str, prepared: tuple[Event, str, str]
) -> tuple[Any, ...]:
    """The values of `insert_event_sql` for one checked event (event, content JSON, hash)."""
    event, content_json, digest = prepared
    return (
        event_id,
        project_id,
        user_id,
        str(event.source_tool),
        event.session_id,
        d.store_time(event.timestamp),
        str(event.event_type),
        content_json,
        d.store_list(event.file_paths),
        digest,
        str(event.origin or default_origin(event.event_type)),
        d.store_flag(bool(event.sidechain)),
        event.agent_id,
    )


def upsert_cursor_sql(d: Dialect, key: Sequence[str]) -> str:
    """A source cursor, replacing the one stored under `key` (the database's own key)."""
    return d.upsert("source_cursors", _CURSOR_COLUMNS, key, ())


def cursor_row(d: Dialect, project_id: str, cursor: SourceCursor, now: Any) -> tuple[Any, ...]:
    """The values of `upsert_cursor_sql`; `now` as `d` stores times."""
    return (
        project_id,
        str(cursor.source_tool),
        cursor.path,
        cursor.inode,
        cursor.offset,
        to_json(cursor.extra),
        now,
    )


def episode_from_row(d: Dialect, row: Sequence[Any], event_ids: Sequence[Any]) -> Episode:
    """An episode from a row of `SELECT_EPISODE` and its event ids in order."""
    return Episode(
        id=row[0],
        project_id=row[1],
        user_id=row[2],
        session_id=row[3],
        start_ts=d.load_time(row[4]),
        end_ts=d.load_time(row[5]),
        event_count=int(row[6]),
        summary=row[7],
        importance=float(row[8]),
        created_at=d.load_time(row[9]),
        event_ids=tuple(r[0] for r in event_ids),
    )
