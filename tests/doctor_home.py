"""A home for `sqrl doctor`'s tests: a token, user.db and one registered, initialised project,
and memories stored in that project by the store's own code."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from squirrel_core.auth import ensure_token
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.settings import Settings, load_settings
from squirrel_memory.bootstrap import init_project_files, init_user_db
from squirrel_memory.models import MemoryType, Scope
from squirrel_memory.storage import SqliteStore


def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Settings, Path]:
    """A home at `tmp_path/home` (named by `SQRL_HOME`) with a token, user.db and the project
    `tmp_path/repo` registered and initialised: its settings and the project's folder."""
    home, repo = tmp_path / "home", tmp_path / "repo"
    repo.mkdir()
    layout = HomeLayout(home).ensure()
    ensure_token(layout.token)
    init_user_db(layout.user_db)
    init_project_files(repo)
    add_project(layout.projects, repo)
    monkeypatch.setenv("SQRL_HOME", str(home))
    return load_settings({"SQRL_HOME": str(home)}), repo


def remembered_facts(repo: Path, count: int) -> list[str]:
    """The ids of `count` project facts (`fact-<n>`) stored in `repo`'s store, in order."""

    async def run() -> list[str]:
        store = await SqliteStore.open(str(repo))
        try:
            ids = []
            for n in range(count):
                item = await store.remember(
                    str(repo),
                    type=MemoryType.PROJECT_FACT,
                    key=f"fact-{n}",
                    content=f"fact number {n} about module m{n}",
                    tags=[],
                    importance=0.5,
                    scope=Scope.PROJECT,
                    user_id="alice",
                )
                ids.append(item.id)
            return ids
        finally:
            await store.close()

    return asyncio.run(run())
