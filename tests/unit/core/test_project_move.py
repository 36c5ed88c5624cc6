"""Carrying a renamed project's store (`project_move`) on real SQLite files: the rows, the
marker and the home's records follow; a store with memories of its own is never merged into, and
a `.ctx/` signed for another project is not taken for a moved one."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from squirrel_core.errors import FailedPreconditionError
from squirrel_core.home import HomeLayout
from squirrel_core.project_move import gone_line, move_project, moved_store
from squirrel_core.projects import add_project
from squirrel_core.store_placement import Location, inspect_store, place_store
from squirrel_core.store_setup import init_project_files


def _register(layout: HomeLayout, root: Path, location: Location) -> Path:
    root.mkdir()
    placed = place_store(layout, str(root), location=location, registered_before=False)
    init_project_files(root, placed.store_dir)
    add_project(layout.projects, root)
    return placed.store_dir


def _add_memory(store: Path, project: Path, key: str, source: str = "rules") -> None:
    with sqlite3.connect(store / "data.db") as db:
        db.execute(
            "INSERT INTO memory_items (id, project_id, scope, type, key, content, tags, "
            "importance, created_at, updated_at, source_event_ids, source) VALUES "
            "(?, ?, 'project', 'project_fact', ?, 'x', '[]', 0.5, 't', 't', '[]', ?)",
            (key, str(project), key, source),
        )


def _add_event(store: Path, project: Path, event_id: str) -> None:
    with sqlite3.connect(store / "data.db") as db:
        db.execute(
            "INSERT INTO events (id, project_id, user_id, source_tool, session_id, timestamp, "
            "event_type, content_json, file_paths, hash, processed_at) VALUES "
            "(?, ?, 'dev', 'claude_code', 's9', 't', 'user_message', '{}', '[]', ?, 't')",
            (event_id, str(project), event_id),
        )
        db.execute(
            "INSERT INTO source_cursors (project_id, source_tool, path, inode, offset, "
            "updated_at) VALUES (?, 'claude_code', ?, 1, 120, 't')",
            (str(project), f"/sessions/{event_id}.jsonl"),
        )


def _projects(store: Path) -> set[str]:
    with sqlite3.connect(store / "data.db") as db:
        return {r[0] for r in db.execute("SELECT project_id FROM memory_items")}


@pytest.fixture
def layout(tmp_path: Path) -> HomeLayout:
    return HomeLayout(tmp_path / "home").ensure()


def test_a_home_store_follows_its_renamed_folder(layout: HomeLayout, tmp_path: Path) -> None:
    old = tmp_path / "shop"
    store = _register(layout, old, Location.HOME)
    _add_memory(store, old, "billing")
    new = tmp_path / "shop-renamed"
    old.rename(new)
    assert "--moved-from" in gone_line(layout, str(old)) and str(store) in gone_line(
        layout, str(old)
    )
    moved = move_project(layout, str(old), new)
    assert (moved.memories, moved.events) == (1, 0)
    assert _projects(moved.store_dir) == {str(new)}
    assert inspect_store(layout, str(new)).trusted
    assert json.loads(layout.projects.read_text())["projects"] == [str(new)]


def test_a_new_folder_with_memories_written_by_hand_is_never_merged_into(
    layout: HomeLayout, tmp_path: Path
) -> None:
    old, new = tmp_path / "api", tmp_path / "api2"
    old_store = _register(layout, old, Location.HOME)
    new_store = _register(layout, new, Location.HOME)
    _add_memory(old_store, old, "old")
    _add_memory(new_store, new, "new", source="manual")
    old.rename(tmp_path / "elsewhere")
    with pytest.raises(FailedPreconditionError):
        move_project(layout, str(old), new)
    assert _projects(old_store) == {str(old)} and _projects(new_store) == {str(new)}


def test_sessions_run_in_the_new_folder_before_the_carry_are_carried_to_be_processed_again(
    layout: HomeLayout, tmp_path: Path
) -> None:
    old, new = tmp_path / "app", tmp_path / "app2"
    old_store = _register(layout, old, Location.HOME)
    _add_memory(old_store, old, "kept")
    _add_event(old_store, old, "e-old")
    old.rename(tmp_path / "gone")
    new_store = _register(layout, new, Location.HOME)
    _add_event(new_store, new, "e-new")
    _add_memory(new_store, new, "drawn-from-e-new")  # the rules' memory: drawn again
    moved = move_project(layout, str(old), new)
    assert (moved.memories, moved.events, moved.carried) == (1, 2, 1)
    with sqlite3.connect(moved.store_dir / "data.db") as db:
        events = dict(db.execute("SELECT id, processed_at FROM events").fetchall())
        cursors = {r[0] for r in db.execute("SELECT path FROM source_cursors")}
    assert events == {"e-old": "t", "e-new": None}
    assert cursors == {"/sessions/e-old.jsonl", "/sessions/e-new.jsonl"}
    assert _projects(moved.store_dir) == {str(new)}


def test_an_empty_store_made_first_in_the_new_folder_is_replaced(
    layout: HomeLayout, tmp_path: Path
) -> None:
    old, new = tmp_path / "web", tmp_path / "web2"
    old_store = _register(layout, old, Location.HOME)
    _add_memory(old_store, old, "routes")
    old.rename(tmp_path / "gone")
    _register(layout, new, Location.HOME)
    assert move_project(layout, str(old), new).memories == 1


def test_a_moved_ctx_is_found_only_for_the_gone_project_it_was_signed_for(
    layout: HomeLayout, tmp_path: Path
) -> None:
    old = tmp_path / "cli"
    store = _register(layout, old, Location.REPO)
    _add_memory(store, old, "flags")
    other = tmp_path / "other"
    _register(layout, other, Location.REPO)
    new = tmp_path / "cli-v2"
    old.rename(new)
    assert moved_store(layout, new) == str(old)
    assert moved_store(layout, other) is None  # its own store, its folder not gone
    moved = move_project(layout, str(old), new)
    assert moved.store_dir == new / ".ctx" and _projects(moved.store_dir) == {str(new)}
    assert moved_store(layout, new) is None


def test_a_home_with_hundreds_of_projects_still_places_stores(tmp_path: Path) -> None:
    # Every project this home placed a store for is one entry of stores.json; a long-lived
    # home holds hundreds (64 KiB held fewer than 450).
    layout = HomeLayout(tmp_path / "home")
    for n in range(500):
        root = tmp_path / f"project-{n:04d}"
        root.mkdir()
        place_store(layout, str(root), location=Location.HOME, registered_before=False)
    assert layout.stores.stat().st_size > 64 * 1024
    last = tmp_path / "project-last"
    last.mkdir()
    placed = place_store(layout, str(last), location=Location.HOME, registered_before=False)
    assert placed.store_dir.is_dir()
