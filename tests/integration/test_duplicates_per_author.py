"""A laptop has one user: the same transcript line is the same event, whoever the settings say
wrote it, so re-importing after `general.user_id` changed stores nothing new. A team server
keeps duplicates per author on purpose: another author's event is never taken for one stored.
Both on a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from squirrel_core.settings import load_settings
from squirrel_memory.storage.backends import backend_from_settings
from tests.integration.test_team_delivery import _events


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
    lines = _events(3)
    try:
        first = await store.append_events(project, "dev", lines, [])
        again = await store.append_events(project, "dev-renamed", lines, [])
        same = await store.append_events(project, "dev", lines, [])
    finally:
        await store.close()
        await backend.close()

    assert (first.accepted, first.duplicates) == (3, 0)
    assert (again.accepted, again.duplicates) == (stored_again, 3 - stored_again)
    assert (same.accepted, same.duplicates) == (0, 3)
    rows = _rows(store_dir)
    assert len(rows) == 3 + stored_again
    assert len({digest for _, digest in rows}) == 3
