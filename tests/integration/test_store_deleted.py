"""A project's `.ctx/` deleted while the real memory service runs (`git clean -fdx` deletes it,
as it is kept out of git): the next write notices, the store is made again as `sqrl init` makes
it, with everything the service still held, and `sqrl status` / `doctor` say so. A folder
planted in its place is set aside, never read."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.status_view import project_row
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.store_placement import FOREIGN_PREFIX, inspect_store
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running


def _remember(project: Path, key: str) -> pb.RememberRequest:
    return pb.RememberRequest(
        project_id=str(project),
        type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
        key=key,
        content=f"The {key} service answers on its own port.",
    )


async def _keys(c: MemoryClient, project: Path) -> set[str]:
    listed = await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project)))
    return {m.key for m in listed.memories}


def _project(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    root.mkdir()
    return root.resolve()


async def test_a_deleted_store_is_made_again_with_what_the_service_held(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings()
    layout = HomeLayout(settings.home)
    project = _project(tmp_path, "shop")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await c.call(c.stub.Remember, _remember(project, "billing"))
        shutil.rmtree(project / ".ctx")
        await c.call(c.stub.Remember, _remember(project, "search"))
        assert await _keys(c, project) == {"billing", "search"}
        state = inspect_store(layout, str(project))
        assert state.trusted and state.store_dir == project / ".ctx"
        assert state.notice is not None and "deleted" in state.notice
        row, _ = project_row(layout, str(project))  # the line `sqrl status` prints
        assert row["initialised"] and row["notice"] == state.notice
    # What the service held is in the file on disk: a service started afresh reads it.
    with sqlite3.connect(project / ".ctx" / "data.db") as db:
        keys = {row[0] for row in db.execute("SELECT key FROM memory_items")}
    assert {"billing", "search"} <= keys
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        assert await _keys(c, project) == {"billing", "search"}
        await c.call(c.stub.Remember, _remember(project, "mail"))
        assert await _keys(c, project) == {"billing", "search", "mail"}
    # The notice ends once a service opened the store as usual.
    assert inspect_store(layout, str(project)).notice is None


async def test_a_store_planted_where_the_deleted_one_was_is_set_aside_never_read(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    """Must not adopt: a `.ctx/` that appeared after the deletion is no store this home made."""
    settings = make_settings()
    layout = HomeLayout(settings.home)
    project = _project(tmp_path, "notes")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await c.call(c.stub.Remember, _remember(project, "billing"))
        shutil.rmtree(project / ".ctx")
        planted = project / ".ctx"
        planted.mkdir()
        with sqlite3.connect(planted / "data.db") as db:
            db.execute("CREATE TABLE planted (x TEXT)")
        (planted / "owner.json").write_text(json.dumps({"store_id": "x", "mac": "y"}))
        await c.call(c.stub.Remember, _remember(project, "search"))
        assert await _keys(c, project) == {"billing", "search"}
        aside = [p for p in project.iterdir() if p.name.startswith(FOREIGN_PREFIX)]
        assert len(aside) == 1
        with sqlite3.connect(aside[0] / "data.db") as db:  # left as it was
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        assert tables == {"planted"}
        state = inspect_store(layout, str(project))
        assert state.trusted and state.notice is not None


async def test_a_store_left_alone_is_not_made_again(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    """Must not fire: writes to a store nobody touched keep the same file and say nothing."""
    settings = make_settings()
    layout = HomeLayout(settings.home)
    project = _project(tmp_path, "api")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await c.call(c.stub.Remember, _remember(project, "billing"))
        inode = (project / ".ctx" / "data.db").stat().st_ino
        marker = (project / ".ctx" / "owner.json").read_bytes()
        await c.call(c.stub.Remember, _remember(project, "search"))
        assert (project / ".ctx" / "data.db").stat().st_ino == inode
        assert (project / ".ctx" / "owner.json").read_bytes() == marker
        assert inspect_store(layout, str(project)).notice is None
