"""Schema 13 on SQLite: every stored event hashed again by today's dedup rule, the events stored
twice merged (`storage.rehash`). It runs inside its migration's one transaction: a migration
stopped midway leaves the store as it was, and the next start runs it again from the start."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping

from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.rehash import (
    HASHED_COLUMNS,
    Rehashed,
    hash_of_row,
    plan_merges,
    repointed,
)

_ROWS = (
    f"SELECT rowid, id, user_id, hash, processed_at, {HASHED_COLUMNS} "  # noqa: S608 (constants)
    "FROM events ORDER BY rowid"
)


def rehash_events(conn: sqlite3.Connection) -> None:
    """Give every event its hash by today's rule, and merge the events that now share one."""
    rehashed: list[Rehashed] = []
    changed: list[tuple[str, str]] = []
    for row in conn.execute(_ROWS):
        rowid, event_id, author, old, done, project = row[:6]
        digest = hash_of_row(SQLITE, row[5:])
        if digest is None:
            digest = old
        elif digest != old:
            changed.append((digest, event_id))
        rehashed.append(Rehashed(event_id, int(rowid), (project, author, digest), done))
    conn.executemany("UPDATE events SET hash = ? WHERE id = ?", changed)
    merges = plan_merges(rehashed)
    if not merges.into:
        return
    conn.executemany(
        "UPDATE events SET processed_at = ? WHERE id = ?",
        [(at, kept) for kept, at in merges.processed.items()],
    )
    _repoint(conn, merges.into)
    conn.executemany("DELETE FROM events WHERE id = ?", [(i,) for i in merges.into])


def _repoint(conn: sqlite3.Connection, into: Mapping[str, str]) -> None:
    """What named a merged event names the kept one: episodes' events (each once, their counts
    kept right), memories' and their versions' source events, parked episodes' events."""
    episodes: set[str] = set()
    for merged, kept in into.items():
        for (episode,) in conn.execute(
            "SELECT episode_id FROM episode_events WHERE event_id = ?", (merged,)
        ).fetchall():
            episodes.add(episode)
            conn.execute(
                "DELETE FROM episode_events WHERE episode_id = ? AND event_id = ? AND EXISTS "
                "(SELECT 1 FROM episode_events WHERE episode_id = ? AND event_id = ?)",
                (episode, merged, episode, kept),
            )
            conn.execute(
                "UPDATE episode_events SET event_id = ? WHERE episode_id = ? AND event_id = ?",
                (kept, episode, merged),
            )
    conn.executemany(
        "UPDATE episodes SET event_count = "
        "(SELECT COUNT(*) FROM episode_events WHERE episode_id = episodes.id) WHERE id = ?",
        [(e,) for e in sorted(episodes)],
    )
    for table, key in (
        ("memory_items", "id"),
        ("memory_history", "rowid"),
        ("dead_letter_events", "dead_letter_id"),
    ):
        column = "event_ids" if table == "dead_letter_events" else "source_event_ids"
        updates = []
        for row_key, ids_json in conn.execute(f"SELECT {key}, {column} FROM {table}"):  # noqa: S608
            try:
                ids = json.loads(ids_json)
            except ValueError:
                continue
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                continue
            moved = repointed(ids, into)
            if moved is not None:
                updates.append((to_json(moved), row_key))
        conn.executemany(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", updates)  # noqa: S608
