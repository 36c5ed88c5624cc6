"""Database files are private: folders 0700, the database and its WAL files 0600."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.store_paths import ProjectPaths, project_id_for
from squirrel_memory.storage import ProjectStores, SqliteStore
from squirrel_memory.storage.sqlite.database import StorageError
from squirrel_memory.user_memories.userstore import SqliteUserStore


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def loose_umask() -> Iterator[None]:
    previous = os.umask(0o000)
    yield
    os.umask(previous)


@pytest.mark.usefixtures("loose_umask")
async def test_project_files_are_private_even_with_a_loose_umask(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        event = Event(
            SourceTool.GIT, EventType.COMMIT, datetime.now(UTC), {"sha": "abc", "message": "m"}
        )
        await store.append_events(str(tmp_path), "alice", [event], [])
        await store.count_events(str(tmp_path))
        paths = ProjectPaths(tmp_path)
        for folder in (paths.ctx_dir, paths.views_dir, paths.index_dir):
            assert mode(folder) == 0o700, folder
        db = paths.data_db
        for file in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            assert file.exists() and mode(file) == 0o600, file
    finally:
        await store.close()


@pytest.mark.usefixtures("loose_umask")
async def test_user_db_is_private(tmp_path: Path) -> None:
    store = await SqliteUserStore.open(tmp_path / "home")
    await store.close()
    assert mode(tmp_path / "home") == 0o700
    assert mode(store.path) == 0o600


async def test_loose_existing_ctx_folder_is_tightened(tmp_path: Path) -> None:
    (tmp_path / ".ctx").mkdir(mode=0o755)
    (tmp_path / ".ctx").chmod(0o755)
    store = await SqliteStore.open(str(tmp_path))
    await store.close()
    assert mode(tmp_path / ".ctx") == 0o700


async def test_project_must_be_an_existing_absolute_folder(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError):
        await SqliteStore.open("relative/path")
    with pytest.raises(InvalidArgumentError):
        await SqliteStore.open("")
    with pytest.raises(NotFoundError):
        await SqliteStore.open(str(tmp_path / "missing"))


def test_project_id_is_the_resolved_path(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    assert project_id_for(tmp_path / "link") == str(real.resolve())


async def test_project_stores_open_each_project_once(tmp_path: Path) -> None:
    stores = ProjectStores()
    try:
        a = await stores.get(str(tmp_path))
        assert await stores.get(str(tmp_path)) is a
        assert stores.open_projects() == [str(tmp_path)]
    finally:
        await stores.close()
    with pytest.raises(StorageError):
        await a.count_events(str(tmp_path))
