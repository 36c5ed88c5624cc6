"""Fixtures the memory engine's unit tests share: a project folder and its opened store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from squirrel_memory.storage import SqliteStore


@pytest.fixture
def project(tmp_path: Path) -> str:
    """An empty project folder (its path is the project id)."""
    root = tmp_path / "proj"
    root.mkdir()
    return str(root)


@pytest.fixture
async def store(project: str) -> AsyncIterator[SqliteStore]:
    """The project's SQLite store, opened with the real clock and closed after the test."""
    opened = await SqliteStore.open(project)
    yield opened
    await opened.close()
