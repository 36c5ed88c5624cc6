"""Schema 13 on SQLite: every event hashed by its record kind, one record stored under two types
merged into the first stored, whatever named the other repointed, another author's event and
another speaker's kept; a migration stopped midway leaves the store as it was and runs again."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.dedup import canonical_json, content_signature, event_hash
from squirrel_memory.storage.sqlite import rehash as sqlite_rehash
from squirrel_memory.storage.sqlite.migrator import current_version, migrate
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS
from tests.unit.memory.test_schema import raw

PROJECT = "/work/shop"
AT = "2026-01-01T00:01:00.000000Z"
COMMAND = {"command": "cd test && make", "tool_use_id": "t1", "exit_code": 0, "output": "ok"}
DONE = {"text": "Done."}


def former_hash(event_type: str, content: dict[str, Any], project: str = PROJECT) -> str:
    """The hash as the rule with the event type made it (session `s`, the bucket of `AT`)."""
    struct = {
        "project_id": project,
        "source_tool": "claude_code",
        "event_type": event_type,
        "session_id": "s",
        "timestamp_bucket": "2026-01-01T00:00:00Z",
        "file_paths": [],
        "content_signature": content_signature(content),
    }
    return hashlib.sha256(canonical_json(struct).encode()).hexdigest()


def _event(
    conn: sqlite3.Connection,
    event_id: str,
    event_type: str,
    content: dict[str, Any],
    *,
    user: str = "alice",
    processed: str | None = None,
) -> None:
    conn.execute(
        "INSERT INTO events (id, project_id, user_id, source_tool, session_id, timestamp, "
        "event_type, content_json, file_paths, hash, processed_at, origin) VALUES "
        "(?, ?, ?, 'claude_code', 's', ?, ?, ?, '[]', ?, ?, 'assistant')",
        (
            event_id,
            PROJECT,
            user,
            AT,
            event_type,
            json.dumps(content),
            former_hash(event_type, content),
            processed,
        ),
    )


def _memory(conn: sqlite3.Connection, memory_id: str, sources: list[str]) -> None:
    conn.execute(
        "INSERT INTO memory_items (id, project_id, scope, type, key, content, tags, importance, "
        "created_at, updated_at, source_event_ids) VALUES "
        "(?, ?, 'project', 'recipe', ?, 'x', '[]', 0.5, ?, ?, ?)",
        (memory_id, PROJECT, memory_id, AT, AT, json.dumps(sources)),
    )
    conn.execute(
        "INSERT INTO memory_history (memory_id, version, action, content, tags, importance, "
        "changed_at, reason, source_event_ids) VALUES (?, 1, 'created', 'x', '[]', 0.5, ?, "
        "'r', ?)",
        (memory_id, AT, json.dumps(sources)),
    )


def _episode(conn: sqlite3.Connection, episode_id: str, events: list[str]) -> None:
    conn.execute(
        "INSERT INTO episodes (id, project_id, user_id, session_id, start_ts, end_ts, "
        "event_count, summary, importance, created_at) VALUES (?, ?, 'alice', 's', ?, ?, ?, "
        "'', 0.5, ?)",
        (episode_id, PROJECT, AT, AT, len(events), AT),
    )
    conn.executemany(
        "INSERT INTO episode_events (episode_id, event_id, position) VALUES (?, ?, ?)",
        [(episode_id, e, n) for n, e in enumerate(events)],
    )


@pytest.fixture
def stored_twice(tmp_path: Path) -> Path:
    """A store at schema 12 holding one command read as a test run, then (a newer classifier,
    a re-read from the start) as a plain command; and what names both."""
    db = tmp_path / "data.db"
    with raw(db) as conn:
        assert migrate(conn, DATA_MIGRATIONS, target=12) == 12
        conn.execute("BEGIN")
        _event(conn, "evt_first", "test_run", COMMAND)
        _event(conn, "evt_again", "command_run", COMMAND, processed=AT)
        _event(conn, "evt_bob", "test_run", COMMAND, user="bob")
        _event(conn, "evt_user", "user_message", DONE)
        _event(conn, "evt_said", "assistant_response", DONE)
        _episode(conn, "ep_both", ["evt_first", "evt_again", "evt_user"])
        _episode(conn, "ep_again", ["evt_again", "evt_said"])
        _memory(conn, "mem_both", ["evt_first", "evt_again", "evt_user"])
        _memory(conn, "mem_again", ["evt_again"])
        conn.execute(
            "INSERT INTO dead_letters (id, kind, payload_ref, error, attempts, created_at, "
            "updated_at) VALUES (1, 'extraction', 'ep_again', 'e', 1, ?, ?)",
            (AT, AT),
        )
        conn.execute(
            "INSERT INTO dead_letter_events (dead_letter_id, event_ids) VALUES (1, ?)",
            (json.dumps(["evt_again", "evt_said"]),),
        )
        conn.execute("COMMIT")
    return db


def _state(db: Path) -> dict[str, Any]:
    with raw(db) as conn:
        return {
            "version": current_version(conn),
            "events": dict(conn.execute("SELECT id, hash FROM events").fetchall()),
            "processed": dict(conn.execute("SELECT id, processed_at FROM events").fetchall()),
            "episodes": {
                e: [
                    r[0]
                    for r in conn.execute(
                        "SELECT event_id FROM episode_events WHERE episode_id = ? "
                        "ORDER BY position",
                        (e,),
                    )
                ]
                for (e,) in conn.execute("SELECT id FROM episodes").fetchall()
            },
            "counts": dict(conn.execute("SELECT id, event_count FROM episodes").fetchall()),
            "memories": {
                m: json.loads(s)
                for m, s in conn.execute("SELECT id, source_event_ids FROM memory_items")
            },
            "history": {
                m: json.loads(s)
                for m, s in conn.execute("SELECT memory_id, source_event_ids FROM memory_history")
            },
            "parked": [
                json.loads(r[0]) for r in conn.execute("SELECT event_ids FROM dead_letter_events")
            ],
        }


def test_one_record_stored_under_two_types_becomes_the_first_stored(stored_twice: Path) -> None:
    with raw(stored_twice) as conn:
        assert migrate(conn, DATA_MIGRATIONS) == DATA_MIGRATIONS[-1].version
    state = _state(stored_twice)
    at = datetime(2026, 1, 1, 0, 1, tzinfo=UTC)
    reread = Event(SourceTool.CLAUDE_CODE, EventType.COMMAND_RUN, at, COMMAND, session_id="s")
    assert set(state["events"]) == {"evt_first", "evt_bob", "evt_user", "evt_said"}
    assert state["events"]["evt_first"] == event_hash(PROJECT, reread)
    # Another author's event and the other speaker's words are events of their own.
    assert state["events"]["evt_bob"] == state["events"]["evt_first"]
    assert state["events"]["evt_user"] != state["events"]["evt_said"]
    # Processed once, so its memories are not made again.
    assert state["processed"]["evt_first"] == AT
    assert state["episodes"] == {
        "ep_both": ["evt_first", "evt_user"],
        "ep_again": ["evt_first", "evt_said"],
    }
    assert state["counts"] == {"ep_both": 2, "ep_again": 2}
    assert state["memories"] == {
        "mem_both": ["evt_first", "evt_user"],
        "mem_again": ["evt_first"],
    }
    assert state["history"] == state["memories"]
    assert state["parked"] == [["evt_first", "evt_said"]]


def test_a_rehash_stopped_midway_leaves_the_store_as_it_was_and_runs_again(
    stored_twice: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _state(stored_twice)
    real = sqlite_rehash._repoint

    def stopped(conn: sqlite3.Connection, into: dict[str, str]) -> None:
        real(conn, into)
        raise KeyboardInterrupt  # the process stopped between two steps

    monkeypatch.setattr(sqlite_rehash, "_repoint", stopped)
    with raw(stored_twice) as conn, pytest.raises(KeyboardInterrupt):
        migrate(conn, DATA_MIGRATIONS)
    assert _state(stored_twice) == before
    monkeypatch.setattr(sqlite_rehash, "_repoint", real)
    with raw(stored_twice) as conn:
        assert migrate(conn, DATA_MIGRATIONS) == DATA_MIGRATIONS[-1].version
    after = _state(stored_twice)
    assert set(after["events"]) == {"evt_first", "evt_bob", "evt_user", "evt_said"}
    assert after["memories"]["mem_again"] == ["evt_first"]
