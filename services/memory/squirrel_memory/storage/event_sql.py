"""The event log's shared statements and row reading, for both backends from a `Dialect`:
the columns of an event, an event read back from its row, and an episode with its events."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from squirrel_core.events import parse_origin
from squirrel_memory.models import Episode, StoredEvent
from squirrel_memory.storage.dialect import Dialect

SELECT_EVENT = (
    "SELECT id, project_id, user_id, source_tool, session_id, timestamp, event_type, "
    "content_json, file_paths, hash, processed_at, origin, sidechain, agent_id FROM events "
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


def upsert_episode_sql(d: Dialect) -> str:
    """An episode, its first record kept (`created_at`, its project and user)."""
    kept = ("project_id", "user_id", "created_at")
    return d.upsert("episodes", _EPISODE_COLUMNS, ("id",), kept)


def clear_episode_events_sql(d: Dialect) -> str:
    return f"DELETE FROM episode_events WHERE episode_id = {d.mark}"  # noqa: S608 (constants)


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
