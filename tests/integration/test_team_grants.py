"""What each team token may do, over real TLS gRPC to a real memory service: the grants matrix.

Three tokens are granted `github.com/acme/*` with the roles read, write and admin; the server
itself (its install token on loopback) created `github.com/acme/shop` and
`github.com/other/payroll`. Each token reads, writes and creates in its own and in the other
project, and every answer is checked.
"""

from __future__ import annotations

import json
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
from tests.integration.conftest import memory_client
from tests.integration.test_team_delivery import _settings, serving
from tests.tls_certs import make_tls_files

OWN = "github.com/acme/shop"
OTHER = "github.com/other/payroll"
ACME = "github.com/acme/*"

OK = "OK"
DENIED = grpc.StatusCode.PERMISSION_DENIED.name
INVALID = grpc.StatusCode.INVALID_ARGUMENT.name


@dataclass
class Team:
    target: str
    ca: Path
    tokens: TeamTokens
    issued: dict[str, tuple[str, str]]
    """role → (token id, token)"""


@pytest.fixture
async def team(tmp_path: Path) -> AsyncIterator[Team]:
    tls = make_tls_files(tmp_path / "tls")
    settings = _settings(
        tmp_path / "server",
        serve_address="127.0.0.1:0",
        serve_tls_cert=str(tls.cert),
        serve_tls_key=str(tls.key),
    )
    tokens = TeamTokens(HomeLayout(settings.home).team_tokens)
    issued = {}
    for role in Role:
        record, token = tokens.issue(role.label, [ACME], role, max_projects=1)
        issued[role.label] = (record.id, token)
    async with serving(settings) as server:
        async with memory_client(server.service, settings) as own:
            for project in (OWN, OTHER):
                await own.call(own.stub.RegisterProject, pb.RegisterProjectRequest(root=project))
        yield Team(f"localhost:{server.service.team_port}", tls.ca, tokens, issued)


async def _answer(team: Team, token: str, method: str, request: Any) -> tuple[str, str]:
    """(status name, details) of one call with `token` over TLS."""
    channel = team_channel(TeamLink(team.target, token, team.ca, "laptop"))
    try:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        await getattr(stub, method)(request, metadata=bearer(token), timeout=20)
        return OK, ""
    except grpc.aio.AioRpcError as exc:
        return exc.code().name, exc.details() or ""
    finally:
        await channel.close()


def _read(project: str) -> tuple[str, Any]:
    return "SearchMemory", pb.SearchMemoryRequest(project_id=project, query="deploy")


def _write(project: str) -> tuple[str, Any]:
    return "Remember", pb.RememberRequest(
        project_id=project,
        type=memory_pb2.MEMORY_TYPE_PITFALL,
        content="Run the migrations before deploying the shop",
    )


def _create(project: str) -> tuple[str, Any]:
    return "RegisterProject", pb.RegisterProjectRequest(root=project)


MATRIX = {
    # (role, action, whose project): answer
    ("read", "read", "own"): OK,
    ("read", "write", "own"): DENIED,
    ("read", "create", "own"): DENIED,
    ("read", "read", "other"): DENIED,
    ("read", "write", "other"): DENIED,
    ("read", "create", "other"): DENIED,
    ("write", "read", "own"): OK,
    ("write", "write", "own"): OK,
    ("write", "create", "own"): DENIED,
    ("write", "read", "other"): DENIED,
    ("write", "write", "other"): DENIED,
    ("write", "create", "other"): DENIED,
    ("admin", "read", "own"): OK,
    ("admin", "write", "own"): OK,
    ("admin", "create", "own"): OK,
    ("admin", "read", "other"): DENIED,
    ("admin", "write", "other"): DENIED,
    ("admin", "create", "other"): DENIED,
}
ACTIONS = {"read": _read, "write": _write, "create": _create}
PROJECTS = {
    ("read", "own"): OWN,
    ("write", "own"): OWN,
    ("create", "own"): "github.com/acme/new",
    ("read", "other"): OTHER,
    ("write", "other"): OTHER,
    ("create", "other"): "github.com/other/new",
}


async def test_the_grants_matrix(team: Team) -> None:
    answers: dict[tuple[str, str, str], str] = {}
    for role, action, whose in MATRIX:
        project = PROJECTS[(action, whose)]
        method, request = ACTIONS[action](project)
        code, details = await _answer(team, team.issued[role][1], method, request)
        answers[(role, action, whose)] = code
        if code == DENIED:
            assert project in details, details
    assert answers == MATRIX


async def test_registering_an_existing_granted_project_needs_no_admin(team: Team) -> None:
    for role in ("read", "write"):
        assert (await _answer(team, team.issued[role][1], *_create(OWN)))[0] == OK


@pytest.mark.parametrize(
    "bad",
    ["/etc", "../../x", "github.com/acme/../payroll", "GitHub.com/Acme/Shop", "local:m:rel/path"],
)
async def test_ids_that_are_not_team_ids_are_invalid_for_every_token(team: Team, bad: str) -> None:
    for role in Role:
        code, _ = await _answer(team, team.issued[role.label][1], *_create(bad))
        assert code == INVALID, (role, bad)


async def test_an_admin_token_creates_no_more_than_its_limit(team: Team) -> None:
    token = team.issued["admin"][1]
    assert (await _answer(team, token, *_create("github.com/acme/one")))[0] == OK
    code, details = await _answer(team, token, *_create("github.com/acme/two"))
    assert code == DENIED and "limit" in details and "github.com/acme/two" in details


async def test_a_prefix_pattern_never_reaches_outside_through_dots(team: Team) -> None:
    code, details = await _answer(
        team, team.issued["admin"][1], *_read("github.com/acme/../other/payroll")
    )
    assert code == DENIED and "github.com/acme/../other/payroll" in details


async def test_listing_status_and_cursors_show_only_granted_projects(team: Team) -> None:
    token = team.issued["read"][1]
    channel = team_channel(TeamLink(team.target, token, team.ca, "laptop"))
    stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
    try:
        listed = await stub.ListProjects(pb.ListProjectsRequest(), metadata=bearer(token))
        assert [p.project_id for p in listed.projects] == [OWN]
        status = await stub.GetProcessingStatus(
            pb.GetProcessingStatusRequest(), metadata=bearer(token)
        )
        assert [p.project_id for p in status.projects] == [OWN]
        # No project named: every project the token is granted, never the others' names.
        every = await stub.GetSourceCursors(pb.GetSourceCursorsRequest(), metadata=bearer(token))
        assert [p.project_id for p in every.projects] == [OWN]
    finally:
        await channel.close()
    cursors = pb.GetSourceCursorsRequest(project_ids=[OWN, OTHER])
    code, details = await _answer(team, token, "GetSourceCursors", cursors)
    assert code == DENIED and OTHER in details


async def test_a_changed_grant_applies_to_the_next_call(team: Team) -> None:
    token_id, token = team.issued["write"]
    assert (await _answer(team, token, *_write(OWN)))[0] == OK
    TeamTokens(team.tokens.path).grant(token_id, role=Role.READ)
    assert (await _answer(team, token, *_write(OWN)))[0] == DENIED
    TeamTokens(team.tokens.path).grant(token_id, projects=["github.com/other/*"])
    assert (await _answer(team, token, *_read(OWN)))[0] == DENIED
    assert (await _answer(team, token, *_read(OTHER)))[0] == OK


async def test_a_token_from_before_grants_may_only_read(team: Team) -> None:
    _, token = team.tokens.issue("legacy", [ACME], Role.ADMIN)
    data = json.loads(team.tokens.path.read_text())
    for item in data["tokens"]:
        if item["user"] == "legacy":
            for key in ("role", "projects", "max_projects"):
                del item[key]
    team.tokens.path.write_text(json.dumps(data))
    assert (await _answer(team, token, *_read(OWN)))[0] == OK
    assert (await _answer(team, token, *_read(OTHER)))[0] == OK
    assert (await _answer(team, token, *_write(OWN)))[0] == DENIED
    assert (await _answer(team, token, *_create("github.com/acme/legacy")))[0] == DENIED
