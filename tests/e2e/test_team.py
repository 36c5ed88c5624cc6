"""Two laptops and one team server, all real processes talking TLS gRPC on 127.0.0.1.

Alice's and Bob's homes each run `sqrl up` on their own clone of one repository (cloned with
different remote spellings); the server runs `sqrl serve`. A pitfall Alice's sessions taught
reaches Bob's task context; each one's style stays theirs; the server's memory process killed
with SIGKILL in the middle of Alice's delivery ends with every event stored exactly once.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import psutil
import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import bearer, load_token
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.events import Event, EventType, Origin
from squirrel_memory.dedup import HashedFields, event_hash
from squirrel_memory.storage.formats import from_db_time, json_strings
from tests.conftest import wait_until
from tests.contract.conftest import postgres_dsn  # noqa: F401 - the fixture, for one variant
from tests.e2e.team_homes import (
    SECRET,
    TEAM_ID,
    Home,
    alice_session,
    append_events,
    home_in,
    joined_laptop,
    memory_pid,
    session_event,
    team_server,
)
from tests.tls_certs import TlsFiles, make_tls_files

pytestmark = pytest.mark.e2e

FILLER = 12_000
USER_STYLE = memory_pb2.MEMORY_TYPE_USER_STYLE


@dataclass
class Team:
    server: Home
    port: int
    tls: TlsFiles
    tokens: dict[str, str]
    serve: subprocess.Popen[bytes]
    alice: Home
    bob: Home


@pytest.fixture(params=["sqlite", "postgres"])
def team(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Team]:
    tls = make_tls_files(tmp_path / "tls")
    backend: dict[str, str] = {}
    if request.param == "postgres":
        backend = {
            "SQRL_STORAGE_BACKEND": "postgres",
            "SQRL_STORAGE_POSTGRES_DSN": request.getfixturevalue("postgres_dsn"),
        }
    server = home_in(tmp_path, "server", **backend)
    grant = ("--projects", "github.com/acme/*", "--role", "admin")
    tokens = {u: server.json("team", "token", "add", u, *grant)["token"] for u in ("alice", "bob")}
    with team_server(server, tls, tmp_path / "serve.log") as (port, serve):
        laptops: list[Home] = []
        try:
            for name, remote in (
                ("alice", "git@github.com:acme/shop.git"),
                ("bob", "https://bob:hunter2@GitHub.com/acme/shop"),
            ):
                home, _ = joined_laptop(tmp_path, name, remote, port, tls, tokens[name])
                laptops.append(home)
            yield Team(server, port, tls, tokens, serve, laptops[0], laptops[1])
        finally:
            for home in laptops:
                home.sqrl("down")


# --- events a laptop's ingest would have stored --------------------------------------------------


def _bob_session() -> list[Event]:
    s = "sess-bob-1"
    return [
        session_event(
            EventType.USER_MESSAGE,
            s,
            1,
            {"text": "From now on, always write docstrings in the numpy style."},
            origin=Origin.TYPED,
        )
    ]


def _filler() -> list[Event]:
    return [
        session_event(
            EventType.ASSISTANT_RESPONSE, f"sess-fill-{i // 400}", i % 400, {"text": f"Note {i}."}
        )
        for i in range(FILLER)
    ]


# --- the server, seen directly -------------------------------------------------------------------


def _server_rows(team: Team, where: str = "", *args: str) -> list[tuple[Any, ...]]:
    """`(hash,)` of the team project's events (`where`: a condition with `?` parameters), read
    straight from the server's database: the SQLite file, or the Postgres database."""
    dsn = team.server.env.get("SQRL_STORAGE_POSTGRES_DSN")
    if dsn:
        import psycopg  # noqa: PLC0415 - only with the Postgres backend

        condition = "project_id = %s" + (f" AND {where.replace('?', '%s')}" if where else "")
        with psycopg.connect(dsn) as conn:
            query = f"SELECT hash FROM events WHERE {condition}"
            return list(conn.execute(query, (TEAM_ID, *args)).fetchall())  # type: ignore[arg-type]
    found = list((team.server.root / "projects").glob("*/data.db"))
    if len(found) != 1:
        return []
    query = "SELECT hash FROM events" + (f" WHERE {where}" if where else "")
    with sqlite3.connect(f"file:{found[0]}?mode=ro", uri=True, timeout=5) as conn:
        return list(conn.execute(query, args).fetchall())


def _server_events(team: Team) -> tuple[int, int]:
    """(events, distinct hashes) in the team project's store."""
    try:
        hashes = [r[0] for r in _server_rows(team)]
    except sqlite3.Error:
        return (0, 0)
    return len(hashes), len(set(hashes))


def _local_event_hashes(home: Home) -> set[str]:
    """The dedup hashes the laptop's events have in the team project: its idempotency keys."""
    assert home.repo is not None
    db = home.repo / ".ctx" / "data.db"
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
        rows = conn.execute(
            "SELECT source_tool, event_type, session_id, timestamp, file_paths, content_json "
            "FROM events"
        ).fetchall()
    return {
        event_hash(
            TEAM_ID,
            HashedFields(
                r[0], r[1], r[2], from_db_time(r[3]), json_strings(r[4]), json.loads(r[5])
            ),
        )
        for r in rows
    }


def _server_hashes(team: Team) -> set[str]:
    return {r[0] for r in _server_rows(team)}


async def _as_user(team: Team, token: str, call: str, request: Any) -> Any:
    creds = grpc.ssl_channel_credentials(root_certificates=team.tls.ca.read_bytes())
    async with grpc.aio.secure_channel(f"localhost:{team.port}", creds) as channel:
        from squirrel.v1 import memory_service_pb2_grpc  # noqa: PLC0415

        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        return await getattr(stub, call)(request, metadata=bearer(token), timeout=60)


async def _admin(team: Team, call: str, request: Any) -> Any:
    layout = team.server.layout
    client = MemoryClient(
        open_channel(target_of(layout.service_file("memory"))), load_token(layout.token), 300
    )
    try:
        return await client.call(getattr(client.stub, call), request, timeout=300)
    finally:
        await client.close()


def _memories(reply: Any) -> set[tuple[int, str, str]]:
    return {(m.type, m.key, m.content) for m in reply.memories if not m.key.startswith("repo:")}


# Its own waits add up to 18 minutes (a 12,000-event backlog, a restart, the rest delivered):
# the suite's 5-minute bound for a stuck test ended it while it ran on a loaded machine.
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_two_laptops_share_a_project_keep_their_styles_and_survive_a_kill(
    team: Team, tmp_path: Path
) -> None:
    alice, bob = team.alice, team.bob
    assert alice.json("status")["memory"]["mode"] == "team"

    asyncio.run(append_events(bob, _bob_session()))
    asyncio.run(append_events(alice, alice_session() + _filler()))

    def everything() -> set[str]:
        """Both laptops' events (ingest's git poller may still add a commit event)."""
        return _local_event_hashes(alice) | _local_event_hashes(bob)

    # SIGKILL the server's memory process while Alice's backlog is on its way (any part of
    # it: batches of 500 may land between two looks on a loaded machine).
    wait_until(lambda: 0 < _server_events(team)[0] < FILLER, timeout=300, interval=0.02)
    killed = memory_pid(team.server)
    assert killed is not None
    # Paused first, so what it stored cannot grow between the look below and the kill (the
    # rest of the backlog could land in between on a loaded machine).
    os.kill(killed, signal.SIGSTOP)
    try:
        assert _server_events(team)[0] < len(everything())
    finally:
        psutil.Process(killed).kill()
    wait_until(lambda: (memory_pid(team.server) or killed) != killed, timeout=180)

    # Every event of both laptops arrives, each once.
    wait_until(lambda: _server_events(team)[0] >= len(everything()), timeout=600, interval=0.5)
    expected = len(everything())
    assert _server_events(team) == (expected, expected)
    assert _server_hashes(team) == everything()
    assert not _server_rows(team, "content_json LIKE ?", f"%{SECRET}%")

    asyncio.run(_admin(team, "ProcessNow", pb.ProcessNowRequest(project_id=TEAM_ID, drain=True)))
    # The same events processed on Alice's laptop give the same memories as on the server.
    local = asyncio.run(_local_process_and_list(alice))
    listed = asyncio.run(
        _admin(team, "ListMemories", pb.ListMemoriesRequest(project_id=TEAM_ID, page_size=500))
    )
    server_alice = {
        (m.type, m.key, m.content)
        for m in listed.memories
        if m.user_id != "bob" and not m.key.startswith("repo:")
    }
    assert server_alice == local and local
    shared = alice.json("status")["memory"]
    assert (shared["events_waiting"], shared["delivery_error"]) == (0, None)

    # Bob's assistant gets Alice's pitfall through the team server.
    context = bob.json("context", "run the cart tests with pytest")
    shown = json.dumps(context)
    assert "cannot import name 'Money'" in shown, shown
    # ...and never Alice's style, nor she his.
    bob_style = json.dumps(bob.json("view", "style", "--mode", "full"))
    alice_style = json.dumps(alice.json("view", "style", "--mode", "full"))
    assert "tabs" not in bob_style and "numpy" in bob_style
    assert "numpy" not in alice_style and "tabs" in alice_style
    for query in ("tabs for indentation", "always use tabs"):
        found = bob.json("search", query)["search"]["results"]
        assert "tabs" not in json.dumps(found)
        mine = alice.json("search", query)["search"]["results"]
        assert "tabs" in json.dumps(mine)
    told = bob.json("context", "always use tabs for indentation")
    assert "tabs" not in json.dumps(told["selected_memories"])

    # Straight at the server: Bob's token cannot list, read or search Alice's style.
    style = [m for m in listed.memories if m.type == USER_STYLE and m.user_id == "alice"]
    assert style, listed
    as_bob = asyncio.run(
        _as_user(
            team, team.tokens["bob"], "ListMemories", pb.ListMemoriesRequest(project_id=TEAM_ID)
        )
    )
    assert all(m.user_id != "alice" for m in as_bob.memories if m.type == USER_STYLE)
    with pytest.raises(grpc.aio.AioRpcError) as err:
        asyncio.run(
            _as_user(
                team,
                team.tokens["bob"],
                "GetMemory",
                pb.GetMemoryRequest(project_id=TEAM_ID, memory_id=style[0].memory_id),
            )
        )
    assert err.value.code() is grpc.StatusCode.NOT_FOUND

    # Who and which machine contributed the pitfall's evidence.
    pitfall = next(m for m in listed.memories if "Money" in m.content)
    history = asyncio.run(
        _as_user(
            team,
            team.tokens["bob"],
            "GetMemoryHistory",
            pb.GetMemoryHistoryRequest(project_id=TEAM_ID, memory_id=pitfall.memory_id),
        )
    )
    assert {(e.user_id, e.machine) for e in history.source_events} == {("alice", "alice-mbp")}


async def _local_process_and_list(home: Home) -> set[tuple[int, str, str]]:
    assert home.repo is not None
    client = MemoryClient(
        open_channel(target_of(home.layout.service_file("memory"))),
        load_token(home.layout.token),
        300,
    )
    try:
        project = str(home.repo)
        await client.call(
            client.stub.ProcessNow, pb.ProcessNowRequest(project_id=project, drain=True), 300
        )
        reply = await client.call(
            client.stub.ListMemories, pb.ListMemoriesRequest(project_id=project, page_size=500)
        )
        return _memories(reply)
    finally:
        await client.close()
