"""The memory browser's team switch, with a real TLS team server, a laptop's real memory
service and the browser's real ASGI routes (driven in-process over HTTP semantics)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

import httpx2
from starlette.types import Receive, Scope, Send

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.project_identity import project_identity
from squirrel_core.settings import Settings
from squirrel_core.team_client import TeamLink, team_memory_client
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.team_backend import TeamMemoryBackend
from squirrel_gateway.ui.app import UiRoutes
from squirrel_gateway.ui.calls import BrowserCalls
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.conftest import memory_client
from tests.integration.test_team_delivery import _repo, serving

TEAM_ID = "github.com/acme/shop"
TOKEN = "ui-test-token"
homes = delivery_tests.homes
Homes = Callable[..., tuple[Settings, Settings, TeamLink]]
TEAM_TEXT = "Team pitfall: the cart tests need STRIPE_MOCK=1."
LOCAL_TEXT = "Local fact: this checkout builds with make."


async def _not_here(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 404, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def _routes(local: MemoryClient, repo: Path, tmp: Path, team: TeamMemoryBackend | None) -> UiRoutes:
    backend = GrpcMemoryBackend(local, lambda: [str(repo)])
    calls = BrowserCalls(backend, tmp / "no-ingest.json", TOKEN)
    return UiRoutes(_not_here, TOKEN, backend, calls, team=team)


def _http(routes: UiRoutes) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(
        transport=httpx2.ASGITransport(app=routes),
        base_url="http://127.0.0.1",
        headers={"authorization": f"Bearer {TOKEN}"},
        timeout=60,
    )


def _team(
    local: MemoryClient, repo: Path, client: MemoryClient, link: TeamLink
) -> TeamMemoryBackend:
    return TeamMemoryBackend(
        GrpcMemoryBackend(local, lambda: [str(repo)]),
        GrpcMemoryBackend(client, list, timeout=10),
        functools.partial(project_identity, machine=link.machine),
        server=link.server,
        wait_seconds=10,
    )


async def test_the_switch_shows_the_teams_memory_read_only_and_says_when_it_is_away(
    tmp_path: Path, homes: Homes, refused_port: int
) -> None:
    server_settings, laptop_settings, link = homes()
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        link = TeamLink(f"localhost:{server.service.team_port}", link.token, link.ca_file, "m")
        await local.call(
            local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)), timeout=120
        )
        await local.call(
            local.stub.Remember,
            pb.RememberRequest(
                project_id=str(repo), type=memory_pb2.MEMORY_TYPE_PROJECT_FACT, content=LOCAL_TEXT
            ),
        )
        client = team_memory_client(link, timeout=30)
        away_client = team_memory_client(
            TeamLink(f"localhost:{refused_port}", link.token, link.ca_file, "m"), timeout=5
        )
        try:
            await client.call(
                client.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID), timeout=120
            )
            shared = await client.call(
                client.stub.Remember,
                pb.RememberRequest(
                    project_id=TEAM_ID, type=memory_pb2.MEMORY_TYPE_PITFALL, content=TEAM_TEXT
                ),
            )
            async with _http(
                _routes(local, repo, tmp_path, _team(local, repo, client, link))
            ) as http:
                mine = await http.get("/ui/project", params={"project": str(repo)})
                assert mine.status_code == 200
                assert LOCAL_TEXT in mine.text and TEAM_TEXT not in mine.text
                assert "where=team" in mine.text  # the switch is on the page
                theirs = await http.get(
                    "/ui/project", params={"project": str(repo), "where": "team"}
                )
                assert theirs.status_code == 200
                assert TEAM_TEXT in theirs.text and LOCAL_TEXT not in theirs.text
                links = re.findall(r"href='(/ui/memory[^']*)'", theirs.text)
                assert links and all("where=team" in link for link in links)
                page = await http.get(
                    "/ui/memory",
                    params={"project": str(repo), "id": shared.memory.memory_id, "where": "team"},
                )
                assert page.status_code == 200 and TEAM_TEXT in page.text
                assert "method='post'" not in page.text  # read-only: no correction forms
                bad = await http.get("/ui/project", params={"project": str(repo), "where": "x"})
                assert bad.status_code == 400
                # The browser's own guards are unchanged on the team pages.
                rebound = await http.get(
                    "/ui/project",
                    params={"project": str(repo), "where": "team"},
                    headers={"host": "evil.example"},
                )
                assert rebound.status_code == 421
                anonymous = await http.get(
                    "/ui/project",
                    params={"project": str(repo), "where": "team"},
                    headers={"authorization": ""},
                )
                assert anonymous.status_code == 401
            away = _team(local, repo, away_client, link)
            async with _http(_routes(local, repo, tmp_path, away)) as http:
                gone = await http.get("/ui/project", params={"project": str(repo), "where": "team"})
                assert gone.status_code == 200
                assert "role='alert'" in gone.text and "unreachable" in gone.text
                assert TEAM_TEXT not in gone.text
            async with _http(_routes(local, repo, tmp_path, None)) as http:
                alone = await http.get("/ui/project", params={"project": str(repo)})
                assert alone.status_code == 200 and "where=team" not in alone.text
                refused = await http.get(
                    "/ui/project", params={"project": str(repo), "where": "team"}
                )
                assert refused.status_code == 404
        finally:
            await client.close()
            await away_client.close()
