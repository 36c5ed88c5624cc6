"""Saying when the team server is away, against a real TLS team server on 127.0.0.1.

A read that left the team out notes why (refused token, unreachable, TLS) and a read the team
answered notes nothing; MCP tools and hook output end with that line; `sqrl team join` tries the token and the CA before saving anything;
delivery finds the server back by its health check, long before its pause would end.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import grpc
import pytest
from mcp import Client

from squirrel.v1 import gateway_service_pb2, gateway_service_pb2_grpc, memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.main import main
from squirrel_core.clients import LOCAL_READS, GatewayClient, MemoryClient, open_channel
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.home import HomeLayout
from squirrel_core.project_identity import project_identity
from squirrel_core.rpc import GrpcService
from squirrel_core.settings import Settings
from squirrel_core.team_client import TeamLink, save_team_token, team_memory_client
from squirrel_core.team_grants import Role
from squirrel_core.team_tokens import TeamTokens
from squirrel_core.wire import event_to_pb as to_pb
from squirrel_gateway import team_away
from squirrel_gateway.cli_memory import CliMemory
from squirrel_gateway.hook_service import HookService, HookSettings
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.reads import for_hooks, reads_backend
from squirrel_gateway.servicer import GatewayServicer
from squirrel_gateway.team_backend import TeamMemoryBackend
from squirrel_gateway.tools import build_mcp_server
from squirrel_memory.team.delivery import TeamDelivery
from squirrel_memory.team.delivery import serving as server_serving
from tests.conftest import wait_until
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.conftest import memory_client
from tests.integration.test_team_delivery import (
    _events,
    _repo,
    serving,
)
from tests.tls_certs import make_tls_files

TEAM_ID = "github.com/acme/shop"
homes = delivery_tests.homes
"""A team server's and a laptop's settings and the laptop's link (the delivery tests' fixture)."""
Homes = Callable[..., tuple[Settings, Settings, TeamLink]]


def _identity(root: str, machine: str) -> str:
    return project_identity(root, machine)


@contextlib.asynccontextmanager
async def team_reads(local: GrpcMemoryBackend, link: TeamLink) -> AsyncIterator[TeamMemoryBackend]:
    """The gateway's reads of `local` and of the team server `link` names, merged."""
    client = team_memory_client(link, timeout=30)
    try:
        yield TeamMemoryBackend(
            local,
            GrpcMemoryBackend(client, list, timeout=30),
            functools.partial(_identity, machine=link.machine),
            server=link.server,
            wait_seconds=30,
        )
    finally:
        await client.close()


async def _backlog(local: MemoryClient, repo: Path, events: int) -> None:
    """The laptop's project of `repo` with `events` events stored, none delivered yet."""
    await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
    await local.call(
        local.stub.AppendEvents,
        pb.AppendEventsRequest(project_id=str(repo), events=[to_pb(e) for e in _events(events)]),
    )


async def _context_notes(reads: TeamMemoryBackend, repo: Path) -> tuple[list[str], str]:
    """The notes one task-context read left, and what it answered."""
    with team_away.collecting() as notes:
        answer = await reads.get_task_context(
            str(repo),
            user_id=None,
            task_description="run the tests with make check",
            active_file_paths=[],
            preferred_memory_types=[],
            budget=400,
        )
    return notes, " ".join(m.content for m in answer.selected_memories)


async def test_a_read_without_the_team_says_why_and_a_read_with_it_says_nothing(
    tmp_path: Path, homes: Homes, refused_port: int
) -> None:
    server_settings, laptop_settings, link = homes()
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
        await local.call(
            local.stub.Remember,
            pb.RememberRequest(
                project_id=str(repo),
                type=memory_pb2.MEMORY_TYPE_RECIPE,
                content="Run the shop's tests with `make check`.",
            ),
        )
        target = f"localhost:{server.service.team_port}"
        local_backend = GrpcMemoryBackend(local, lambda: [str(repo)])
        other_ca = make_tls_files(tmp_path / "other", ca_name="Someone else").ca
        record, token = tokens.issue("carol", ["github.com/acme/*"], Role.ADMIN)
        cases = {
            "answered": TeamLink(target, token, link.ca_file, "carol-mbp"),
            "revoked": TeamLink(target, token, link.ca_file, "carol-mbp"),
            "unreachable": TeamLink(f"localhost:{refused_port}", token, link.ca_file, "m"),
            "tls": TeamLink(target, token, other_ca, "m"),
        }
        said: dict[str, list[str]] = {}
        for case, team_link in cases.items():
            if case == "answered":
                admin = team_memory_client(team_link)
                await admin.call(
                    admin.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID)
                )
                await admin.close()
            if case == "revoked":
                tokens.revoke(record.id)
            async with team_reads(local_backend, team_link) as reads:
                said[case], shown = await _context_notes(reads, repo)
                assert "make check" in shown  # local memory answers in every case
                # Left alone for a while after a failure: the next read says why again.
                again, _ = await _context_notes(reads, repo)
                assert again == said[case]
    assert said["answered"] == []
    for case, words in (
        ("revoked", "refused this laptop's token"),
        ("unreachable", "it is unreachable"),
        ("tls", "TLS with it failed"),
    ):
        assert len(said[case]) == 1, (case, said[case])
        line = said[case][0]
        assert words in line and cases[case].server in line, (case, line)
        assert line.endswith("answered from local memory only") and "\n" not in line
        assert token not in line


def _join(server: str, *extra: str) -> int:
    return main(["team", "join", server, *extra])


async def test_joining_tries_the_token_and_the_ca_first_and_saves_nothing_when_refused(
    tmp_path: Path,
    homes: Homes,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    refused_port: int,
) -> None:
    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    server_settings, _, link = homes()
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    revoked_record, revoked = tokens.issue("dave", ["github.com/acme/*"], Role.READ)
    tokens.revoke(revoked_record.id)
    other_ca = make_tls_files(tmp_path / "other", ca_name="Someone else").ca
    assert link.ca_file is not None
    async with serving(server_settings) as server:
        target = f"localhost:{server.service.team_port}"
        refusals = {
            "revoked": (target, revoked, link.ca_file, "refused this laptop's token"),
            "unknown": (target, "sqt_000000000000_" + "x" * 43, link.ca_file, "refused"),
            "tls": (target, link.token, other_ca, "TLS with it failed"),
            "down": (f"localhost:{refused_port}", link.token, link.ca_file, "unreachable"),
        }
        for case, (where, token, ca, words) in refusals.items():
            home = tmp_path / f"laptop-{case}"
            monkeypatch.setenv("SQRL_HOME", str(home))
            monkeypatch.setattr("sys.stdin", io.StringIO(token + "\n"))
            code = await asyncio.to_thread(_join, where, "--ca-file", str(ca))
            err = capsys.readouterr().err.strip()
            assert code == 1, case
            assert words in err and len(err.splitlines()) == 1, (case, err)
            assert not (home / "team" / "token").exists(), case
            config = home / "config.toml"
            assert not config.exists() or "team" not in config.read_text(), case
        home = tmp_path / "laptop-ok"
        monkeypatch.setenv("SQRL_HOME", str(home))
        monkeypatch.setattr("sys.stdin", io.StringIO(link.token + "\n"))
        code = await asyncio.to_thread(_join, target, "--ca-file", str(link.ca_file))
        out = capsys.readouterr().out
        assert code == 0 and "the server accepted the token" in out, out
        # No project yet is the normal start, not a failure: said as such, not "0 projects".
        assert "0 project" not in out and "first delivery" in out, out
        assert (home / "team" / "token").read_text().strip() == link.token
        assert target in (home / "config.toml").read_text()
        # Once the team's project is there, the line names it.
        client = team_memory_client(TeamLink(target, link.token, link.ca_file, "m"), timeout=30)
        try:
            await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
        finally:
            await client.close()
        monkeypatch.setattr("sys.stdin", io.StringIO(link.token + "\n"))
        code = await asyncio.to_thread(_join, target, "--ca-file", str(link.ca_file))
        out = capsys.readouterr().out
        assert code == 0 and TEAM_ID in out and "first delivery" not in out, out


async def test_delivery_sends_the_backlog_when_the_server_is_back_not_after_its_pause(
    tmp_path: Path, homes: Homes, server_port: int
) -> None:
    server_settings, laptop_settings, link = homes()
    port = server_port
    server_settings = server_settings.with_values(serve__address=f"127.0.0.1:{port}")
    link = TeamLink(f"localhost:{port}", link.token, link.ca_file, link.machine)
    repo = _repo(tmp_path / "clone", "https://github.com/acme/shop.git")
    probes: list[bool] = []

    async def probe(team: TeamLink) -> bool:
        probes.append(await server_serving(team))
        return probes[-1]

    async with (
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await _backlog(local, repo, 30)
        engine = laptop.servicer.engine
        # An hour between rounds: only the health check can bring the backlog over in time.
        delivery = TeamDelivery(
            engine.registry.open_stores, link, interval=3600, probe=probe, probe_every=0.05
        )
        delivery.start()
        try:
            await asyncio.to_thread(wait_until, lambda: delivery.last_error is not None)
            await asyncio.to_thread(wait_until, lambda: len(probes) >= 2)
            assert not any(probes)  # down: the pause goes on
            async with serving(server_settings) as server:
                store = await engine.registry.store(str(repo))
                for _ in range(1200):  # the pause is an hour: only a probe can end it
                    if await delivery.waiting(store) == 0:
                        break
                    await asyncio.sleep(0.1)
                assert await delivery.waiting(store) == 0 and probes[-1]
                async with memory_client(server.service, server_settings) as admin:
                    status = await admin.call(
                        admin.stub.GetProcessingStatus,
                        pb.GetProcessingStatusRequest(project_id=TEAM_ID),
                    )
                assert status.projects[0].events_total == 30
        finally:
            await delivery.stop()


async def test_a_refused_token_is_not_probed_for_its_return(tmp_path: Path, homes: Homes) -> None:
    server_settings, laptop_settings, link = homes()
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    record, token = tokens.issue("erin", ["github.com/acme/*"], Role.ADMIN)
    tokens.revoke(record.id)
    repo = _repo(tmp_path / "clone", "https://github.com/acme/shop.git")
    probes: list[bool] = []

    async def probe(team: TeamLink) -> bool:
        probes.append(True)
        return True

    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        target = f"localhost:{server.service.team_port}"
        refused = TeamLink(target, token, link.ca_file, "erin-mbp")
        await _backlog(local, repo, 3)
        delivery = TeamDelivery(
            laptop.servicer.engine.registry.open_stores,
            refused,
            interval=3600,
            probe=probe,
            probe_every=0.01,
        )
        delivery.start()
        try:
            await asyncio.to_thread(wait_until, lambda: delivery.last_error is not None)
            assert "Unauthenticated" in (delivery.last_error or "")
            # The pause of a refusal is not cut short: one round, no probe, nothing sent.
            await asyncio.sleep(0.3)
            assert probes == []
        finally:
            await delivery.stop()


async def test_a_token_saved_in_place_of_a_refused_one_is_used_at_once_not_after_the_pause(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, laptop_settings, link = homes()
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    record, revoked = tokens.issue("alice", ["github.com/acme/*"], Role.ADMIN)
    tokens.revoke(record.id)
    laptop_home = HomeLayout(laptop_settings.home)
    save_team_token(laptop_home, revoked)  # what `sqrl team join` had saved
    repo = _repo(tmp_path / "clone", "https://github.com/acme/shop.git")

    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        target = f"localhost:{server.service.team_port}"

        def saved() -> TeamLink:
            return TeamLink(target, laptop_home.team_token.read_text().strip(), link.ca_file, "m")

        await _backlog(local, repo, 4)
        engine = laptop.servicer.engine
        # An hour between rounds: only the token file, read again, can end the pause in time.
        delivery = TeamDelivery(
            engine.registry.open_stores, saved(), interval=3600, probe_every=0.05, relink=saved
        )
        delivery.start()
        try:
            await asyncio.to_thread(wait_until, lambda: delivery.last_error is not None)
            assert "Unauthenticated" in (delivery.last_error or "")
            await asyncio.sleep(0.3)  # the same token: the pause goes on
            store = await engine.registry.store(str(repo))
            assert await delivery.waiting(store) == 4
            save_team_token(laptop_home, link.token)  # a new token, saved by `sqrl team join`
            await asyncio.to_thread(wait_until, lambda: delivery.last_error is None)
            assert await delivery.waiting(store) == 0
        finally:
            await delivery.stop()


async def test_the_gateways_reads_take_a_token_saved_in_place_of_a_refused_one_at_once(
    tmp_path: Path, homes: Homes
) -> None:
    """A replaced token is used by the next read, not after the pause nor the next `sqrl up`."""
    server_settings, laptop_settings, link = homes()
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    record, revoked = tokens.issue("frank", ["github.com/acme/*"], Role.ADMIN)
    tokens.revoke(record.id)
    laptop_home = HomeLayout(laptop_settings.home)
    save_team_token(laptop_home, revoked)  # what `sqrl team join` had saved
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
        target = f"localhost:{server.service.team_port}"
        admin = team_memory_client(TeamLink(target, link.token, link.ca_file, "m"))
        await admin.call(admin.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
        await admin.call(
            admin.stub.Remember,
            pb.RememberRequest(
                project_id=TEAM_ID,
                type=memory_pb2.MEMORY_TYPE_RECIPE,
                content="Run the team's tests with `make team-check`.",
            ),
        )
        await admin.close()
        gateway_settings = laptop_settings.with_values(
            team__server=target, team__ca_file=str(link.ca_file), team__machine="frank-mbp"
        )
        reads, close = reads_backend(
            gateway_settings, GrpcMemoryBackend(local, lambda: [str(repo)])
        )
        try:
            assert isinstance(reads, TeamMemoryBackend)
            notes, shown = await _context_notes(reads, repo)
            assert len(notes) == 1 and "refused this laptop's token" in notes[0], notes
            assert "make team-check" not in shown
            # Still refused: the same token, left alone for the pause.
            assert (await _context_notes(reads, repo))[0] == notes
            save_team_token(laptop_home, link.token)  # a new token, saved by `sqrl team join`
            # A hook's read sees it first; the gateway's own reads end their pause all the same,
            # and stay with the team after their first answer.
            hook = for_hooks(reads, 5_000)
            assert isinstance(hook, TeamMemoryBackend)
            for one in (hook, reads, reads):
                notes, shown = await _context_notes(one, repo)
                assert notes == [] and "make team-check" in shown
        finally:
            await close()


async def test_mcp_tools_and_hooks_end_with_the_line_only_when_the_team_was_left_out(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, laptop_settings, link = homes()
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    run = tmp_path / "run"
    run.mkdir()
    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
        await local.call(
            local.stub.Remember,
            pb.RememberRequest(
                project_id=str(repo),
                type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
                content="The shop's tests run with `make check`.",
                importance=0.9,
            ),
        )
        target = f"localhost:{server.service.team_port}"
        record, token = tokens.issue("frank", ["github.com/acme/*"], Role.ADMIN)
        team_link = TeamLink(target, token, link.ca_file, "frank-mbp")
        client = team_memory_client(team_link, timeout=30)
        try:
            await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
            said: dict[str, tuple[str, str]] = {}
            for case in ("answered", "revoked"):
                if case == "revoked":
                    tokens.revoke(record.id)
                reads = TeamMemoryBackend(
                    GrpcMemoryBackend(local, lambda: [str(repo)]),
                    GrpcMemoryBackend(client, list, timeout=30),
                    functools.partial(_identity, machine=team_link.machine),
                    server=team_link.server,
                    wait_seconds=30,
                )
                async with Client(build_mcp_server(reads, allow_writes=False)) as mcp:
                    result = await mcp.call_tool(
                        "get_project_brief_view", {"project_root": str(repo)}
                    )
                block = result.content[0]
                assert block.type == "text"
                settings = HookSettings(deadline_ms=20_000)
                hooks = HookService(for_hooks(reads, 20_000), settings, run, None)
                out = await hooks.answer("claude", "SessionStart", {"cwd": str(repo)})
                await hooks.close()
                injected = json.loads(out)["hookSpecificOutput"]["additionalContext"]
                said[case] = (block.text, injected)
        finally:
            await client.close()
    for text in said["answered"]:
        assert "make check" in text and "not used" not in text
    for text in said["revoked"]:
        last = text.rstrip().splitlines()[-1]
        assert "make check" in text  # the local answer is still given
        assert "refused this laptop's token" in last and "local memory only" in last, text


async def test_the_clis_memory_commands_go_to_the_team_and_find_local_ids_silently(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, laptop_settings, link = homes()
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
        mine = await local.call(
            local.stub.Remember,
            pb.RememberRequest(
                project_id=str(repo),
                type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
                content="This checkout builds with `make`.",
            ),
        )
        team_link = TeamLink(
            f"localhost:{server.service.team_port}", link.token, link.ca_file, "alice-mbp"
        )
        client = team_memory_client(team_link, timeout=30)
        try:
            await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
            reads = TeamMemoryBackend(
                GrpcMemoryBackend(local, lambda: [str(repo)]),
                GrpcMemoryBackend(client, list, timeout=30),
                functools.partial(_identity, machine=team_link.machine),
                server=team_link.server,
                wait_seconds=30,
            )
            cli = CliMemory(
                GrpcMemoryBackend(local, lambda: [str(repo)]),
                reads,
                HomeLayout(laptop_settings.home).projects,
            )
            body = {"project": str(repo), "content": "Cart tests need `STRIPE_MOCK=1`."}
            with team_away.collecting() as notes:
                shared = await cli.remember({**body, "type": "pitfall"})
                found = await cli.history(
                    {"project": str(repo), "memory_id": mine.memory.memory_id}
                )
                listed = await cli.memories({"project": str(repo)})
                alone = await cli.memories({"project": str(repo), "local": True})
                with pytest.raises(InvalidArgumentError):
                    await cli.history({"project": str(repo), "memory_id": ""})
                again = await cli.history(
                    {"project": str(repo), "memory_id": shared["memory"]["memory_id"]}
                )
                gone = {"project": str(repo), "memory_id": shared["memory"]["memory_id"]}
                forgot, twice = await cli.forget(gone), await cli.forget(gone)
            assert notes == []  # the team answered, or rightly did not know a local id
            assert shared["where"] == "team" and shared["outcome"] == "added"
            assert found["where"] == "local" and found["memory"]["content"].startswith("This")
            assert listed["where"] == "team"
            assert [m["content"] for m in listed["memories"]] == [body["content"]]
            assert alone["where"] == "local"
            assert body["content"] not in {m["content"] for m in alone["memories"]}
            assert again["where"] == "team"  # an invalid request did not make the team "away"
            # Forgetting on the team says, as the local path does, when it already was.
            assert (forgot["where"], twice["where"]) == ("team", "team")
            assert (forgot["already_forgotten"], twice["already_forgotten"]) == (False, True)
        finally:
            await client.close()


async def test_over_grpc_the_gateway_says_it_in_trailing_metadata_and_local_reads_ask_no_team(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, laptop_settings, link = homes()
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    record, token = tokens.issue("gina", ["github.com/acme/*"], Role.READ)
    tokens.revoke(record.id)
    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
        team_link = TeamLink(
            f"localhost:{server.service.team_port}", token, link.ca_file, "gina-mbp"
        )
        client = team_memory_client(team_link, timeout=30)
        backend = GrpcMemoryBackend(local, lambda: [str(repo)])
        reads = TeamMemoryBackend(
            backend,
            GrpcMemoryBackend(client, list, timeout=30),
            functools.partial(_identity, machine=team_link.machine),
            server=team_link.server,
            wait_seconds=30,
        )
        gateway = GrpcService("gateway", "gw-token", 0, tmp_path / "gateway-service.json")
        servicer = GatewayServicer(backend, reads)

        def register(srv: grpc.aio.Server) -> list[str]:
            gateway_service_pb2_grpc.add_GatewayServiceServicer_to_server(servicer, srv)
            return ["squirrel.v1.GatewayService"]

        gateway.add(register)
        await gateway.start()
        await gateway.set_serving()
        request = gateway_service_pb2.GatewayGetTaskContextRequest(
            project_root=str(repo), task_description="run the tests"
        )
        said: dict[str, list[str]] = {}
        try:
            for case, metadata in (("merged", ()), ("local", (LOCAL_READS,))):
                caller = GatewayClient(
                    open_channel(f"127.0.0.1:{gateway.port}"), "gw-token", 30, metadata=metadata
                )
                try:
                    _, said[case] = await caller.call_said(caller.stub.GetTaskContext, request)
                finally:
                    await caller.close()
        finally:
            await gateway.stop(0)
            await client.close()
    assert len(said["merged"]) == 1 and "refused this laptop's token" in said["merged"][0]
    assert said["local"] == []
