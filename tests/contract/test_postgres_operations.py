"""Running the Postgres backend like a database people trust: TLS to the database, migrations
that run once (in a transaction, even when servers start together), a clear refusal by a server
older than the schema."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from bench.postgres_server import TcpPostgres, system_postgres_with_tls, tcp_postgres
from squirrel_core.errors import FailedPreconditionError, UnavailableError
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.schema import MIGRATIONS, PgMigration, migrate
from squirrel_memory.storage.sqlite.migrator import SchemaVersionError
from tests.tls_certs import TlsFiles, make_tls_files


async def _fresh_database(postgres_dsn: str, name: str) -> str:
    async with await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True) as admin:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
    return make_conninfo(postgres_dsn, dbname=name)


async def _versions(dsn: str) -> list[int]:
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        cursor = await conn.execute("SELECT version FROM squirrel_schema_version ORDER BY 1")
        return [int(row[0]) for row in await cursor.fetchall()]


async def test_servers_starting_at_once_migrate_the_schema_once(postgres_dsn: str) -> None:
    dsn = await _fresh_database(postgres_dsn, "sqrl_starting_together")
    opened = await asyncio.gather(*(PostgresDatabase.open(dsn, max_size=1) for _ in range(4)))
    try:
        assert await _versions(dsn) == [m.version for m in MIGRATIONS]
        for database in opened:  # every server sees the whole schema
            async with database.transaction() as conn:
                cursor = await conn.execute("SELECT COUNT(*) FROM events")
                assert await cursor.fetchone() == (0,)
    finally:
        for database in opened:
            await database.close()


async def test_a_failing_migration_leaves_the_schema_as_it_was(postgres_dsn: str) -> None:
    dsn = await _fresh_database(postgres_dsn, "sqrl_failing_migration")
    database = await PostgresDatabase.open(dsn, max_size=1)
    broken = PgMigration(
        MIGRATIONS[-1].version + 1,
        "half a migration",
        ("CREATE TABLE sqrl_half_done (a integer)", "SELECT no_such_function()"),
    )
    try:
        with pytest.raises(FailedPreconditionError):
            async with database.transaction() as conn:
                await migrate(conn, (*MIGRATIONS, broken))
        async with database.transaction() as conn:
            cursor = await conn.execute("SELECT to_regclass('sqrl_half_done') IS NULL")
            assert await cursor.fetchone() == (True,)
    finally:
        await database.close()
    assert await _versions(dsn) == [m.version for m in MIGRATIONS]
    # Where it must not fire: the same migration, fixed, applies once and is recorded.
    fixed = PgMigration(broken.version, broken.description, ("CREATE TABLE sqrl_whole (a int)",))
    async with (
        await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn,
        conn.transaction(),
    ):
        assert await migrate(conn, (*MIGRATIONS, fixed)) == fixed.version
    assert await _versions(dsn) == [*(m.version for m in MIGRATIONS), fixed.version]


async def test_a_server_older_than_the_schema_refuses_to_start_and_says_why(
    postgres_dsn: str,
) -> None:
    dsn = await _fresh_database(postgres_dsn, "sqrl_from_the_future")
    database = await PostgresDatabase.open(dsn, max_size=1)
    await database.close()
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(
            "INSERT INTO squirrel_schema_version (version, description) VALUES (%s, 'newer')",
            (MIGRATIONS[-1].version + 1,),
        )
    with pytest.raises(SchemaVersionError) as refused:
        await PostgresDatabase.open(dsn, max_size=1)
    message = str(refused.value)
    assert f"schema version {MIGRATIONS[-1].version + 1} is newer" in message
    assert "upgrade Squirrel" in message
    assert await _versions(dsn) == [*(m.version for m in MIGRATIONS), MIGRATIONS[-1].version + 1]


# --- TLS to the database --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TlsFiles:
    return make_tls_files(tmp_path_factory.mktemp("pg-tls"), ca_name="Test database CA")


@pytest.fixture(scope="module")
def tls_postgres(tls_files: TlsFiles) -> Iterator[TcpPostgres]:
    """The system's Postgres over TCP with TLS (the wheel's Postgres is built without TLS)."""
    bin_path = system_postgres_with_tls()
    if bin_path is None:
        pytest.skip("no system Postgres (Debian's postgresql package) to serve TLS")
    with tcp_postgres(cert=tls_files.cert, key=tls_files.key, bin_path=bin_path) as server:
        yield server


def _has_pgvector(dsn: str) -> bool:
    with psycopg.connect(dsn) as conn:
        found = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")
        return found.fetchone() is not None


async def test_the_server_talks_to_postgres_over_verified_tls(
    tls_postgres: TcpPostgres, tls_files: TlsFiles
) -> None:
    dsn = tls_postgres.dsn(sslmode="verify-full", sslrootcert=str(tls_files.ca))
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        cursor = await conn.execute(
            "SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
        )
        row = await cursor.fetchone()
    assert row is not None
    assert row[0] is True
    assert str(row[1]).startswith("TLS")
    if _has_pgvector(dsn):
        database = await PostgresDatabase.open(dsn, max_size=1)
        await database.close()
        assert await _versions(dsn) == [m.version for m in MIGRATIONS]
    else:
        # Through TLS to the migration, which needs pgvector (not in this Postgres build):
        # refused as a statement, not as an unreachable database, and nothing half-applied.
        with pytest.raises(FailedPreconditionError) as refused:
            await PostgresDatabase.open(dsn, max_size=1)
        assert not isinstance(refused.value, UnavailableError)
        with psycopg.connect(dsn) as conn:
            found = conn.execute("SELECT to_regclass('squirrel_schema_version')").fetchone()
        assert found == (None,)


async def test_a_database_certificate_from_another_ca_is_refused(
    tls_postgres: TcpPostgres, tmp_path: Path
) -> None:
    other = make_tls_files(tmp_path / "other", ca_name="Somebody else's CA")
    dsn = tls_postgres.dsn(sslmode="verify-full", sslrootcert=str(other.ca))
    with pytest.raises(UnavailableError) as refused:
        await PostgresDatabase.open(dsn, max_size=1)
    assert "127.0.0.1" in str(refused.value)


async def test_sslmode_require_without_tls_on_the_server_is_refused() -> None:
    with tcp_postgres() as plain:
        with pytest.raises(UnavailableError):
            await PostgresDatabase.open(plain.dsn(sslmode="require"), max_size=1)
        # Where it must not fire: the same server without sslmode opens and migrates.
        database = await PostgresDatabase.open(plain.dsn(), max_size=1)
        await database.close()
        assert await _versions(plain.dsn()) == [m.version for m in MIGRATIONS]


async def test_a_memory_service_checks_the_schema_at_start_even_without_projects(
    postgres_dsn: str, tmp_path: Path
) -> None:
    from squirrel_core.settings import load_settings  # noqa: PLC0415
    from squirrel_memory.engine import MemoryEngine  # noqa: PLC0415

    dsn = await _fresh_database(postgres_dsn, "sqrl_checked_at_start")
    settings = load_settings(
        {
            "SQRL_HOME": str(tmp_path / "home"),
            "SQRL_STORAGE_BACKEND": "postgres",
            "SQRL_STORAGE_POSTGRES_DSN": dsn,
        }
    )
    engine = MemoryEngine(settings)
    try:
        await engine.start()  # a fresh database: migrated at start, with no project yet
    finally:
        await engine.close()
    assert await _versions(dsn) == [m.version for m in MIGRATIONS]
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(
            "INSERT INTO squirrel_schema_version (version, description) VALUES (%s, 'newer')",
            (MIGRATIONS[-1].version + 1,),
        )
    older = MemoryEngine(settings)
    try:
        with pytest.raises(SchemaVersionError):
            await older.start()
    finally:
        await older.close()
