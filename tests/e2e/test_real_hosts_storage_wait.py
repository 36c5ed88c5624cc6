"""The real-host tests' wait for a session's last turn: it returns once the turn is stored and
fails, saying what it saw, when it never is."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.e2e.real_hosts import wait_for_storage

LAST_PROMPT = "and now the delete endpoint"


def _store(repo: Path, events: list[tuple[str, dict[str, str]]]) -> None:
    """The columns of data.db's events table the wait reads, in a real SQLite file."""
    (repo / ".ctx").mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(repo / ".ctx" / "data.db") as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS events (session_id TEXT, timestamp TEXT,"
            " event_type TEXT, origin TEXT, content_json TEXT)"
        )
        conn.executemany(
            "INSERT INTO events VALUES ('s1', ?, ?, 'user', ?)",
            [
                (f"2026-01-01T00:00:{n:02d}Z", kind, json.dumps(content))
                for n, (kind, content) in enumerate(events)
            ],
        )
    conn.close()


def test_a_stored_last_turn_ends_the_wait(tmp_path: Path) -> None:
    _store(
        tmp_path,
        [
            ("user_message", {"text": LAST_PROMPT}),
            ("assistant_response", {"text": "done"}),
        ],
    )
    wait_for_storage(tmp_path, LAST_PROMPT, timeout=0)


def test_a_missing_answer_fails_saying_what_was_stored(tmp_path: Path) -> None:
    _store(tmp_path, [("user_message", {"text": LAST_PROMPT})])
    with pytest.raises(pytest.fail.Exception) as failed:
        wait_for_storage(tmp_path, LAST_PROMPT, timeout=0)
    message = str(failed.value)
    assert "1 events (1 user messages, the last prompt stored)" in message
    assert "the last event is user_message" in message


def test_a_missing_prompt_fails_saying_so(tmp_path: Path) -> None:
    _store(
        tmp_path,
        [("user_message", {"text": "first"}), ("assistant_response", {"text": "done"})],
    )
    with pytest.raises(pytest.fail.Exception) as failed:
        wait_for_storage(tmp_path, LAST_PROMPT, timeout=0)
    assert "the last prompt not stored" in str(failed.value)


def test_no_store_at_all_fails_saying_so(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception) as failed:
        wait_for_storage(tmp_path, LAST_PROMPT, timeout=0)
    assert "no readable store" in str(failed.value)
