"""Fixtures the memory engine's unit tests share: a project folder and its opened store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.checks import Clock, utc_now


@pytest.fixture
def project(tmp_path: Path) -> str:
    """An empty project folder (its path is the project id)."""
    root = tmp_path / "proj"
    root.mkdir()
    return str(root.resolve())


@pytest.fixture
def store_clock() -> Clock:
    """The clock `store` is opened with: the real one, unless a test module overrides this."""
    return utc_now


@pytest.fixture
async def store(project: str, store_clock: Clock) -> AsyncIterator[SqliteStore]:
    """The project's SQLite store, opened with `store_clock` and closed after the test."""
    opened = await SqliteStore.open(project, clock=store_clock)
    yield opened
    await opened.close()
