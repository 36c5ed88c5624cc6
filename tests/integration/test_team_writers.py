"""What teammates write to one team project, and the wall around a project a token is not
granted, over real TLS gRPC to a real team server (its SQLite or Postgres store).

Two team tokens (a's and b's) are granted `github.com/acme/*`; the server itself (its install
token on loopback) created `github.com/acme/shop` and `github.com/other/payroll`, and wrote a
memory into the payroll project.
- The same statement remembered by both is one memory that counts each writer once, on the
  memory and on each version of its history; a statement one of them alone made names only them.
- Neither token reads, finds, writes, forgets, confirms or lists anything of the payroll project,
  by naming it (PERMISSION_DENIED) or by naming its memory under their own project (NOT_FOUND),
  and the payroll memory is left as it was.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from squirrel.v1 import memory_pb2, memory_service_pb2_grpc
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import bearer
from squirrel_core.home import HomeLayout
from squirrel_core.team_client import TeamLink, team_channel
from squirrel_core.team_grants import Role
from squirrel_core.team_tokens import TeamTokens
from tests.contract.conftest import database, postgres_dsn  # noqa: F401 - the fixtures
from tests.integration.conftest import memory_client
from tests.integration.test_team_delivery import _settings, serving
from tests.tls_certs import make_tls_files

PROJECT = "github.com/acme/shop"
OTHER = "github.com/other/payroll"
STATEMENT = "Run the database migrations before the API tests."
PAYROLL = "Payroll exports are signed with the finance team's key."


@dataclass
class Team:
    target: str
    ca: Path
    tokens: dict[str, str]
    own: Any
    """The server's own client (its install token, on loopback)."""
    payroll_id: str


@pytest.fixture(params=["sqlite", "postgres"])
async def team(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Team]:
    tls = make_tls_files(tmp_path / "tls")
    storage: dict[str, str] = {}
    if request.param == "postgres":
        dsn = request.getfixturevalue("database")
        storage = {"storage_backend": "postgres", "storage_postgres_dsn": dsn}
    settings = _settings(
        tmp_path / "server",
        serve_address="127.0.0.1:0",
        serve_tls_cert=str(tls.cert),
        serve_tls_key=str(tls.key),
        **storage,
    )
    tokens = TeamTokens(HomeLayout(settings.home).team_tokens)
    issued = {who: tokens.issue(who, ["github.com/acme/*"], Role.WRITE)[1] for who in ("a", "b")}
    async with serving(settings) as server, memory_client(server.service, settings) as own:
        for project in (PROJECT, OTHER):
            await own.call(own.stub.RegisterProject, pb.RegisterProjectRequest(root=project))
        payroll = await own.call(
            own.stub.Remember,
            pb.RememberRequest(
                project_id=OTHER, type=memory_pb2.MEMORY_TYPE_PROJECT_FACT, content=PAYROLL
            ),
        )
        target = f"localhost:{server.service.team_port}"
        yield Team(target, tls.ca, issued, own, payroll.memory.memory_id)


async def _call(team: Team, who: str, method: str, request: object) -> Any:
    token = team.tokens[who]
    channel = team_channel(TeamLink(team.target, token, team.ca, f"{who}-laptop"))
    try:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        return await getattr(stub, method)(request, metadata=bearer(token), timeout=30)
    finally:
        await channel.close()


async def _status(team: Team, who: str, method: str, request: object) -> str:
    try:
        await _call(team, who, method, request)
    except grpc.aio.AioRpcError as exc:
        return exc.code().name
    return "OK"


async def _remember(team: Team, who: str, content: str) -> pb.RememberResponse:
    reply = await _call(
        team,
        who,
        "Remember",
        pb.RememberRequest(
            project_id=PROJECT, type=memory_pb2.MEMORY_TYPE_PROJECT_FACT, content=content
        ),
    )
    assert isinstance(reply, pb.RememberResponse)
    return reply


async def _listed(team: Team, who: str) -> list[memory_pb2.MemoryItem]:
    reply = await _call(team, who, "ListMemories", pb.ListMemoriesRequest(project_id=PROJECT))
    return list(reply.memories)


async def test_one_statement_from_two_teammates_is_one_memory_with_both_writers(
    team: Team,
) -> None:
    first = await _remember(team, "a", STATEMENT)
    assert first.outcome == pb.REMEMBER_OUTCOME_ADDED
    assert list(first.memory.writers) == ["a"]

    second = await _remember(team, "b", STATEMENT)
    assert second.memory.memory_id == first.memory.memory_id
    assert second.outcome == pb.REMEMBER_OUTCOME_UNCHANGED
    assert second.memory.content == first.memory.content
    assert list(second.memory.writers) == ["a", "b"]

    again = await _remember(team, "a", STATEMENT)  # a writer already counted: nothing new
    assert again.outcome == pb.REMEMBER_OUTCOME_UNCHANGED
    assert again.memory.version == second.memory.version
    assert list(again.memory.writers) == ["a", "b"]

    for who in ("a", "b"):
        [listed] = await _listed(team, who)
        assert listed.memory_id == first.memory.memory_id
        assert list(listed.writers) == ["a", "b"]

    history = await _call(
        team,
        "b",
        "GetMemoryHistory",
        pb.GetMemoryHistoryRequest(project_id=PROJECT, memory_id=first.memory.memory_id),
    )
    assert [list(v.writers) for v in history.versions] == [["a"], ["a", "b"]]
    assert {v.content for v in history.versions} == {STATEMENT}


async def test_a_statement_one_teammate_made_names_only_them(team: Team) -> None:
    await _remember(team, "a", STATEMENT)
    own = await _remember(team, "b", "Releases are tagged from the main branch only.")
    assert own.outcome == pb.REMEMBER_OUTCOME_ADDED
    writers = {m.content: list(m.writers) for m in await _listed(team, "a")}
    assert writers == {STATEMENT: ["a"], "Releases are tagged from the main branch only.": ["b"]}


async def test_a_token_reaches_nothing_of_a_project_it_is_not_granted(team: Team) -> None:
    theirs = team.payroll_id
    named: dict[str, tuple[str, object]] = {
        "search": ("SearchMemory", pb.SearchMemoryRequest(project_id=OTHER, query="payroll")),
        "list": ("ListMemories", pb.ListMemoriesRequest(project_id=OTHER)),
        "history": (
            "GetMemoryHistory",
            pb.GetMemoryHistoryRequest(project_id=OTHER, memory_id=theirs),
        ),
        "get": ("GetMemory", pb.GetMemoryRequest(project_id=OTHER, memory_id=theirs)),
        "remember": (
            "Remember",
            pb.RememberRequest(
                project_id=OTHER, type=memory_pb2.MEMORY_TYPE_PROJECT_FACT, content=PAYROLL
            ),
        ),
        "forget": ("Forget", pb.ForgetRequest(project_id=OTHER, memory_id=theirs)),
        "confirm": ("ConfirmMemory", pb.ConfirmMemoryRequest(project_id=OTHER, memory_id=theirs)),
        "correct": (
            "CorrectMemory",
            pb.CorrectMemoryRequest(project_id=OTHER, memory_id=theirs, content="changed"),
        ),
    }
    # The other project's memory id under the token's own project: not there.
    smuggled: dict[str, tuple[str, object]] = {
        "history": (
            "GetMemoryHistory",
            pb.GetMemoryHistoryRequest(project_id=PROJECT, memory_id=theirs),
        ),
        "get": ("GetMemory", pb.GetMemoryRequest(project_id=PROJECT, memory_id=theirs)),
        "forget": ("Forget", pb.ForgetRequest(project_id=PROJECT, memory_id=theirs)),
        "confirm": (
            "ConfirmMemory",
            pb.ConfirmMemoryRequest(project_id=PROJECT, memory_id=theirs),
        ),
        "correct": (
            "CorrectMemory",
            pb.CorrectMemoryRequest(project_id=PROJECT, memory_id=theirs, content="changed"),
        ),
    }
    answers = {
        (path, "named"): await _status(team, "a", method, request)
        for path, (method, request) in named.items()
    } | {
        (path, "smuggled"): await _status(team, "a", method, request)
        for path, (method, request) in smuggled.items()
    }
    assert answers == {
        **{(path, "named"): "PERMISSION_DENIED" for path in named},
        **{(path, "smuggled"): "NOT_FOUND" for path in smuggled},
    }
    found = await _call(
        team, "a", "SearchMemory", pb.SearchMemoryRequest(project_id=PROJECT, query="payroll")
    )
    assert [r for r in found.results if "Payroll" in r.content] == []
    kept = await team.own.call(
        team.own.stub.GetMemoryHistory,
        pb.GetMemoryHistoryRequest(project_id=OTHER, memory_id=theirs),
    )
    assert not kept.memory.deleted and [v.content for v in kept.versions] == [PAYROLL]
