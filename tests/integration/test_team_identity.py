"""One author's event never suppresses another's on a team server, whatever identity it claims.

Two team tokens (Alice's and Bob's) write to one project of a real team server (TLS gRPC, its
SQLite or Postgres store). Bob's laptop sends first an event of Alice's session and 5-minute
window that carries the identity signature of Alice's long message (`kept_text.IDENTITY_KEY`):
with the same dedup hash, the server used to drop Alice's message when it came as a duplicate.
It is stored now; Alice sending it again is still her own duplicate.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel.v1 import memory_service_pb2_grpc
from squirrel_core.auth import bearer
from squirrel_core.content_signature import content_signature
from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.kept_text import IDENTITY_KEY, KEPT_KEY, KEPT_VERSION, first_content
from squirrel_core.team_client import TeamLink, team_channel
from squirrel_core.team_grants import Role
from squirrel_core.team_tokens import TeamTokens
from squirrel_core.wire import event_to_pb
from tests.contract.conftest import database, postgres_dsn  # noqa: F401 - the fixtures
from tests.integration.conftest import memory_client
from tests.integration.test_team_delivery import _settings, serving
from tests.tls_certs import make_tls_files

PROJECT = "github.com/acme/shop"
AT = datetime.now(UTC).replace(second=10, microsecond=0) - timedelta(hours=1)


@dataclass
class Team:
    target: str
    ca: Path
    tokens: dict[str, str]
    rows: Any
    """() → the (user, text) of every event stored in the project."""


def _stored_sqlite(home: Path) -> list[tuple[str, str]]:
    found = []
    for db in home.rglob("data.db"):
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            found += conn.execute(
                "SELECT user_id, json_extract(content_json, '$.text') FROM events"
            ).fetchall()
    return sorted(found)


def _stored_postgres(dsn: str) -> list[tuple[str, str]]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT user_id, content_json::jsonb ->> 'text' FROM events WHERE project_id = %s",
            (PROJECT,),
        ).fetchall()
    return sorted((str(u), str(t)) for u, t in rows)


@pytest.fixture(params=["sqlite", "postgres"])
async def team(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Team]:
    tls = make_tls_files(tmp_path / "tls")
    storage: dict[str, str] = {}
    home = tmp_path / "server"
    if request.param == "postgres":
        dsn = request.getfixturevalue("database")
        storage = {"storage_backend": "postgres", "storage_postgres_dsn": dsn}
    settings = _settings(
        home,
        serve_address="127.0.0.1:0",
        serve_tls_cert=str(tls.cert),
        serve_tls_key=str(tls.key),
        **storage,
    )
    tokens = TeamTokens(HomeLayout(settings.home).team_tokens)
    issued = {who: tokens.issue(who, ["github.com/acme/*"], Role.WRITE)[1] for who in ("a", "b")}
    async with serving(settings) as server:
        async with memory_client(server.service, settings) as own:
            await own.call(own.stub.RegisterProject, pb.RegisterProjectRequest(root=PROJECT))
        rows = (
            (lambda: _stored_postgres(storage["storage_postgres_dsn"]))
            if storage
            else (lambda: _stored_sqlite(home))
        )
        yield Team(f"localhost:{server.service.team_port}", tls.ca, issued, rows)


async def _send(team: Team, who: str, event: Event) -> tuple[int, int]:
    """(accepted, duplicates) of one delivery with `who`'s token."""
    token = team.tokens[who]
    channel = team_channel(TeamLink(team.target, token, team.ca, f"{who}-laptop"))
    try:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        reply = await stub.AppendEvents(
            pb.AppendEventsRequest(project_id=PROJECT, events=[event_to_pb(event)]),
            metadata=bearer(token),
            timeout=30,
        )
        return reply.accepted, reply.duplicates
    finally:
        await channel.close()


def _message(content: dict[str, Any]) -> Event:
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.ASSISTANT_RESPONSE,
        timestamp=AT,
        content=content,
        session_id="pairing-session",
        origin=Origin.ASSISTANT,
    )


async def test_an_event_claiming_anothers_identity_does_not_suppress_it(team: Team) -> None:
    # Alice's long report, kept past the first bounds and signed by her ingest as it signs.
    report = {"text": "The build passes after the fix. " * 400, KEPT_KEY: KEPT_VERSION}
    identity = content_signature(first_content("assistant_response", report))
    alices = _message({**report, IDENTITY_KEY: identity})
    # Bob's laptop sends another text claiming that identity, first.
    forged = _message(
        {"text": "nothing to see " * 700, KEPT_KEY: KEPT_VERSION, IDENTITY_KEY: identity}
    )

    assert await _send(team, "b", forged) == (1, 0)
    assert await _send(team, "a", alices) == (1, 0)
    assert await _send(team, "a", alices) == (0, 1)  # her own event, sent again
    stored = team.rows()
    assert [who for who, _ in stored] == ["a", "b"]
    assert stored[0][1] == report["text"]
