"""Choosing a backend from the settings, opening it, and what happens when it cannot open."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from squirrel_core.errors import FailedPreconditionError, UnavailableError
from squirrel_core.settings import Settings
from squirrel_memory.storage import (
    PostgresBackend,
    ProjectStores,
    SqliteBackend,
    SqliteStore,
    backend_from_settings,
)
from squirrel_memory.storage.postgres.database import PostgresDatabase, describe_dsn
from squirrel_memory.storage.postgres.schema import MIGRATIONS, PgMigration, migrate
from squirrel_memory.storage.postgres.store import PostgresStore
from squirrel_memory.storage.sqlite.migrator import SchemaVersionError


def test_the_setting_selects_the_backend(tmp_path: Path) -> None:
    settings = Settings(tmp_path)
    assert isinstance(backend_from_settings(settings), SqliteBackend)
    chosen = backend_from_settings(
        settings.with_values(
            storage__backend="postgres", storage__postgres_dsn="postgresql://db.example/sqrl"
        )
    )
    assert isinstance(chosen, PostgresBackend)
    with pytest.raises(FailedPreconditionError):  # a setting, not an argument
        backend_from_settings(settings.with_values(storage__backend="postgres"))


async def test_project_stores_open_postgres_stores_over_one_database(
    postgres_dsn: str, project: str, other_project: str
) -> None:
    stores = ProjectStores(PostgresBackend(postgres_dsn, pool_size=2))
    try:
        one = await stores.get(project, Path(project) / ".ctx")
        two = await stores.get(other_project)
        assert isinstance(one, PostgresStore) and isinstance(two, PostgresStore)
        assert one.database is two.database and await stores.get(project) is one
        assert two.store_dir == Path(other_project) / ".ctx"
    finally:
        await stores.close()


async def test_sqlite_remains_the_default(project: str) -> None:
    stores = ProjectStores()
    try:
        assert isinstance(await stores.get(project), SqliteStore)
    finally:
        await stores.close()


async def test_an_unreachable_database_is_unavailable_and_the_password_is_not_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    dsn = make_conninfo(
        "", host=str(tmp_path / "nowhere"), dbname="sqrl", user="u", password="hunter2-secret"
    )
    with pytest.raises(UnavailableError) as caught:
        await PostgresDatabase.open(dsn)
    assert "hunter2" not in str(caught.value)
    assert "hunter2" not in describe_dsn(dsn)
    assert "hunter2" not in capsys.readouterr().err
    assert "hunter2" not in caplog.text


@pytest.mark.parametrize("dsn", ["", "   ", "host='unterminated", "not a = dsn = at all"])
async def test_a_malformed_dsn_is_a_refused_setting_not_an_argument(dsn: str) -> None:
    with pytest.raises(FailedPreconditionError):
        await PostgresDatabase.open(dsn)


async def test_migrations_run_once_and_a_newer_schema_is_refused(postgres_dsn: str) -> None:
    name = "sqrl_migrations"
    async with await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True) as admin:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
    dsn = make_conninfo(postgres_dsn, dbname=name)
    assert conninfo_to_dict(dsn)["dbname"] == name
    first = await PostgresDatabase.open(dsn)
    await first.close()
    again = await PostgresDatabase.open(dsn)
    try:
        async with again.transaction() as conn:
            assert await migrate(conn) == MIGRATIONS[-1].version
            cursor = await conn.execute("SELECT COUNT(*) FROM squirrel_schema_version")
            assert (await cursor.fetchone()) == (len(MIGRATIONS),)
        with pytest.raises(SchemaVersionError):
            async with again.transaction() as conn:
                await migrate(conn, MIGRATIONS[:1])
        newer = (*MIGRATIONS, PgMigration(99, "from the future", ("SELECT 1",)))
        async with again.transaction() as conn:
            assert await migrate(conn, newer) == 99
        with pytest.raises(SchemaVersionError):
            await PostgresDatabase.open(dsn)
    finally:
        await again.close()


@pytest.mark.parametrize(
    ("dsn", "shown"),
    [
        ("postgresql://alice:hunter2@db.example.org:6543/sqrl", "db.example.org:6543/sqrl"),
        ("host=db.example.org dbname=sqrl user=alice password=hunter2", "db.example.org:5432/sqrl"),
        ("postgresql:///sqrl?host=/run/pg&password=hunter2", "/run/pg:5432/sqrl"),
        ("this is = not a dsn ' at all", "(unreadable DSN)"),
    ],
)
def test_a_dsn_is_described_without_user_or_password(dsn: str, shown: str) -> None:
    assert describe_dsn(dsn) == shown
    assert "hunter2" not in describe_dsn(dsn) and "alice" not in describe_dsn(dsn)
