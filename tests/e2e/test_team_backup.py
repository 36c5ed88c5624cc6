"""Backup and restore of a team server on Postgres, end to end: a server stores memories, the database is dumped with `pg_dump`, restored with `pg_restore` into
a fresh database, the first database is dropped, and a server on the restored one serves the
same memories."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from bench.held_ports import server_port
from bench.postgres_server import TcpPostgres, tcp_postgres
from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import load_token
from squirrel_core.clients import MemoryClient, open_channel, target_of
from tests.conftest import wait_until
from tests.e2e.team_homes import TEAM_ID, Home, home_in, memory_pid

pytestmark = pytest.mark.e2e

PITFALLS = (
    "pytest-xdist hides fixture teardown errors; run the failing test alone",
    "the payments sandbox rejects amounts over 10000 cents",
    "alembic autogenerate misses server defaults; write them by hand",
)


async def _call(home: Home, call: str, request: object) -> object:
    layout = home.layout
    client = MemoryClient(
        open_channel(target_of(layout.service_file("memory"))), load_token(layout.token), 120
    )
    try:
        return await client.call(getattr(client.stub, call), request, timeout=120)
    finally:
        await client.close()


def _served(home: Home) -> set[tuple[int, str, str]]:
    reply = asyncio.run(
        _call(home, "ListMemories", pb.ListMemoriesRequest(project_id=TEAM_ID, page_size=500))
    )
    return {(m.type, m.key, m.content) for m in reply.memories}  # type: ignore[attr-defined]


class Serving:
    """`sqrl serve` of one home, on loopback, stopped on exit."""

    def __init__(self, home: Home, log: Path) -> None:
        self._home = home
        self._log = log.open("ab")
        self._held = contextlib.ExitStack()
        port = self._held.enter_context(server_port())  # until the server stops
        self._proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "squirrel_cli",
                "serve",
                "--address",
                f"127.0.0.1:{port}",
            ],
            env=home.env,
            stdout=self._log,
            stderr=self._log,
        )

    def __enter__(self) -> Serving:
        wait_until(lambda: memory_pid(self._home), timeout=180)
        return self

    def __exit__(self, *exc: object) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(60)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(10)
        self._log.close()
        self._held.close()


def _create(server: TcpPostgres, name: str) -> None:
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")


def test_a_dump_restored_into_a_fresh_database_serves_the_same_memories(tmp_path: Path) -> None:
    with tcp_postgres() as database:
        _create(database, "squirrel")
        home = home_in(
            tmp_path,
            "server",
            SQRL_STORAGE_BACKEND="postgres",
            SQRL_STORAGE_POSTGRES_DSN=database.dsn("squirrel"),
        )
        with Serving(home, tmp_path / "serve.log"):
            asyncio.run(_call(home, "RegisterProject", pb.RegisterProjectRequest(root=TEAM_ID)))
            for text in PITFALLS:
                asyncio.run(
                    _call(
                        home,
                        "Remember",
                        pb.RememberRequest(
                            project_id=TEAM_ID, type=memory_pb2.MEMORY_TYPE_PITFALL, content=text
                        ),
                    )
                )
            before = _served(home)
        assert {content for _, _, content in before} >= set(PITFALLS)

        dump = tmp_path / "squirrel.dump"
        source = database.dsn("squirrel")
        subprocess.run(
            [
                str(database.tool("pg_dump")),
                "--format=custom",
                "--no-owner",
                f"--file={dump}",
                source,
            ],
            check=True,
            capture_output=True,
        )
        _create(database, "squirrel_restored")
        with psycopg.connect(database.dsn("squirrel_restored"), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        target = f"--dbname={database.dsn('squirrel_restored')}"
        subprocess.run(
            [str(database.tool("pg_restore")), "--no-owner", "--exit-on-error", target, str(dump)],
            check=True,
            capture_output=True,
        )
        with psycopg.connect(database.dsn(), autocommit=True) as conn:
            conn.execute("DROP DATABASE squirrel")

        home.env["SQRL_STORAGE_POSTGRES_DSN"] = database.dsn("squirrel_restored")
        with Serving(home, tmp_path / "serve-restored.log"):
            after = _served(home)
        assert after == before
