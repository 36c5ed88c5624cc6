"""A laptop has one user: the same transcript line is the same event, whoever the settings say
wrote it, so re-importing after `general.user_id` changed stores nothing new. A team server
keeps duplicates per author on purpose: another author's event is never taken for one stored.
Both on a real SQLite file."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import load_settings
from squirrel_memory.storage.backends import backend_from_settings

T0 = datetime(2026, 11, 1, 12, 0, 0, tzinfo=UTC)


def _events() -> list[Event]:
    return [
        Event(
            source_tool=SourceTool.CLAUDE_CODE,
            event_type=EventType.USER_MESSAGE,
            timestamp=T0 + timedelta(seconds=n),
            content={"text": f"line {n}"},
            session_id="s1",
        )
        for n in range(3)
    ]


def _rows(store_dir: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(f"file:{store_dir / 'data.db'}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT user_id, hash FROM events ORDER BY user_id, hash").fetchall()


@pytest.mark.parametrize(("serving", "stored_again"), [(False, 0), (True, 3)])
async def test_a_user_id_change_re_stores_events_only_on_a_team_server(
    tmp_path: Path, serving: bool, stored_again: int
) -> None:
    env = {"SQRL_HOME": str(tmp_path / "home")}
    if serving:
        env["SQRL_SERVE_ADDRESS"] = "127.0.0.1:0"
    backend = backend_from_settings(load_settings(env))
    (tmp_path / "proj").mkdir()
    project = str(tmp_path / "proj")
    store_dir = tmp_path / "store"
    store = await backend.open_store(project, store_dir)
    try:
        first = await store.append_events(project, "dev", _events(), [])
        again = await store.append_events(project, "dev-renamed", _events(), [])
        same = await store.append_events(project, "dev", _events(), [])
    finally:
        await store.close()
        await backend.close()

    assert (first.accepted, first.duplicates) == (3, 0)
    assert (again.accepted, again.duplicates) == (stored_again, 3 - stored_again)
    assert (same.accepted, same.duplicates) == (0, 3)
    rows = _rows(store_dir)
    assert len(rows) == 3 + stored_again
    assert len({digest for _, digest in rows}) == 3
