"""A remember written locally while the team server was away is queued and sent once on its
return; a hook with nothing to inject still says the team was away. Against a real TLS team
server on 127.0.0.1 and a laptop's real memory service (SQLite), with the real MCP SDK.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from pathlib import Path

import grpc
from mcp import Client

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.project_identity import project_identity
from squirrel_core.settings import Settings
from squirrel_core.team_client import TeamLink, team_memory_client
from squirrel_gateway import team_away
from squirrel_gateway.cli_memory import CliMemory
from squirrel_gateway.hook_service import HookService, HookSettings
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.reads import for_hooks
from squirrel_gateway.team_backend import TeamMemoryBackend
from squirrel_gateway.team_outbox import OutboxSender, TeamOutbox
from squirrel_gateway.tools import build_mcp_server
from tests.conftest import PATIENCE_SECONDS
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.conftest import memory_client
from tests.integration.test_team_delivery import _repo, serving

TEAM_ID = "github.com/acme/shop"
homes = delivery_tests.homes
Homes = Callable[..., tuple[Settings, Settings, TeamLink]]


def _laptop(
    local: MemoryClient, repo: Path, link: TeamLink, outbox: TeamOutbox | None, *, wait: float = 5
) -> tuple[TeamMemoryBackend, OutboxSender | None, MemoryClient]:
    """A joined laptop's reads and writes: local memory, the team, the outbox (a fresh team
    channel for every round, as `reads_backend` makes them)."""
    client = team_memory_client(link, timeout=wait)
    sender: OutboxSender | None = None
    if outbox is not None:

        async def team_id(root: str) -> str:
            return await reads.team_id(root)

        sender = OutboxSender(
            outbox,
            lambda: team_memory_client(link, timeout=wait),
            team_id,
            timeout=wait,
            retry_every=0.2,
        )
    reads = TeamMemoryBackend(
        GrpcMemoryBackend(local, lambda: [str(repo)]),
        GrpcMemoryBackend(client, list, timeout=wait),
        functools.partial(project_identity, machine=link.machine),
        server=link.server,
        wait_seconds=wait,
        outbox=sender,
    )
    if sender is not None:
        sender.on_sent = reads.team_is_back
    return reads, sender, client


async def _team_contents(link: TeamLink) -> list[str]:
    admin = team_memory_client(link)
    try:
        reply = await admin.call(
            admin.stub.ListMemories, pb.ListMemoriesRequest(project_id=TEAM_ID, page_size=100)
        )
    finally:
        await admin.close()
    return sorted(m.content for m in reply.memories)


async def _team_files(link: TeamLink) -> dict[str, list[str]]:
    """Each team memory's files, by its content."""
    admin = team_memory_client(link)
    try:
        reply = await admin.call(
            admin.stub.ListMemories, pb.ListMemoriesRequest(project_id=TEAM_ID, page_size=100)
        )
    finally:
        await admin.close()
    return {m.content: list(m.file_paths) for m in reply.memories}


async def _register_team_project(link: TeamLink) -> None:
    admin = team_memory_client(link)
    try:
        await admin.call(
            admin.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID), timeout=120
        )
    finally:
        await admin.close()


async def _connected(channel: grpc.aio.Channel, seconds: float = 30.0) -> bool:
    """Waits (bounded) until `channel` is connected, asking it to try."""
    try:
        async with asyncio.timeout(seconds):
            while (state := channel.get_state(try_to_connect=True)) is not (
                grpc.ChannelConnectivity.READY
            ):
                await channel.wait_for_state_change(state)
    except TimeoutError:
        return False
    return True


async def _until_empty(outbox: TeamOutbox, seconds: float = PATIENCE_SECONDS) -> int:
    """Waits (polling, bounded) for the outbox to empty; returns what is left."""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while (left := await asyncio.to_thread(outbox.pending)) and loop.time() < until:
        await asyncio.sleep(0.1)
    return left


async def test_a_remember_made_while_the_team_is_away_is_queued_and_sent_once_on_its_return(
    tmp_path: Path, homes: Homes, server_port: int
) -> None:
    server_settings, laptop_settings, link = homes()
    port = server_port
    server_settings = server_settings.with_values(serve__address=f"127.0.0.1:{port}")
    link = TeamLink(f"localhost:{port}", link.token, link.ca_file, "alice-mbp")
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    outbox = TeamOutbox(tmp_path / "team" / "outbox.db")
    cli_text = "Cart tests need `STRIPE_MOCK=1`."
    mcp_text = "Never run the payroll migration twice: it charges twice."
    async with (
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(
            local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)), timeout=120
        )
        reads, sender, client = _laptop(local, repo, link, outbox)
        assert sender is not None
        try:
            cli = CliMemory(
                GrpcMemoryBackend(local, lambda: [str(repo)]),
                reads,
                HomeLayout(laptop_settings.home).projects,
            )
            with team_away.collecting() as notes:
                queued = await cli.remember(
                    {"project": str(repo), "content": cli_text, "type": "pitfall"}
                )
                kept_local = await cli.remember(
                    {"project": str(repo), "content": "Local only: my scratch dir.", "local": True}
                )
            assert queued["where"] == "queued" and kept_local["where"] == "local"
            assert len(notes) == 1 and "queued for the team server" in notes[0], notes
            async with Client(build_mcp_server(reads, allow_writes=True)) as mcp:
                result = await mcp.call_tool(
                    "remember",
                    {
                        "project_root": str(repo),
                        "content": mcp_text,
                        "memory_type": "pitfall",
                        "file_paths": ["migrations/payroll.sql"],
                    },
                )
            block = result.content[0]
            assert block.type == "text"
            assert "queued for the team server" in block.text.rstrip().splitlines()[-1]
            # Written locally at once, and kept durably for the team (not the --local one).
            listed = await local.call(
                local.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(repo))
            )
            assert {cli_text, mcp_text} <= {m.content for m in listed.memories}
            assert outbox.pending() == 2
            # The team still away: a round sends nothing and loses nothing.
            report = await sender.flush()
            assert (report.sent, report.kept) == (0, 2) and outbox.pending() == 2

            async with serving(server_settings):
                await _register_team_project(link)
                sender.start()  # the background round finds the team back by itself
                try:
                    assert await _until_empty(outbox) == 0
                finally:
                    await sender.stop()
                assert await _team_contents(link) == sorted([cli_text, mcp_text])
                # The queued remember kept its files on the way.
                assert (await _team_files(link))[mcp_text] == ["migrations/payroll.sql"]
                # A reply lost after the team stored it: the row is sent again. Not doubled.
                for request in (
                    pb.RememberRequest(type=memory_pb2.MEMORY_TYPE_PITFALL, content=cli_text),
                    pb.RememberRequest(type=memory_pb2.MEMORY_TYPE_PITFALL, content=mcp_text),
                ):
                    outbox.put(str(repo), request)
                again = await sender.flush()
                assert (again.sent, again.kept, outbox.pending()) == (2, 0, 0)
                assert await _team_contents(link) == sorted([cli_text, mcp_text])
                # Once the team answers, a remember goes there and nothing is queued. The
                # laptop's own team channel failed while the team was away: it connects again
                # within its bounded reconnect wait (a call meanwhile fails at once).
                assert await _connected(client.channel)
                with team_away.collecting() as notes:
                    direct = await cli.remember(
                        {"project": str(repo), "content": "Checkout needs Node 20."}
                    )
                assert direct["where"] == "team" and notes == [] and outbox.pending() == 0
        finally:
            await client.close()


async def test_rows_for_a_project_the_team_does_not_know_wait_and_invalid_ones_are_dropped(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, laptop_settings, link = homes()
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    other = _repo(tmp_path / "other", "git@github.com:acme/unknown.git")
    outbox = TeamOutbox(tmp_path / "outbox.db")
    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        link = TeamLink(f"localhost:{server.service.team_port}", link.token, link.ca_file, "m")
        await _register_team_project(link)
        _, sender, client = _laptop(local, repo, link, outbox)
        assert sender is not None
        try:
            fact = memory_pb2.MEMORY_TYPE_PROJECT_FACT
            outbox.put(str(other), pb.RememberRequest(type=fact, content="For the unknown one."))
            outbox.put(str(repo), pb.RememberRequest(type=fact, content="x" * 200_000))
            outbox.put(str(repo), pb.RememberRequest(type=fact, content="Deploys on Fridays."))
            report = await sender.flush()
            assert (report.sent, report.dropped, report.kept) == (1, 1, 1)
            assert outbox.pending() == 1  # the unknown project's row waits for it
            assert await _team_contents(link) == ["Deploys on Fridays."]
        finally:
            await client.close()


async def test_a_hook_with_nothing_to_inject_says_only_that_the_team_was_away(
    tmp_path: Path, homes: Homes, refused_port: int
) -> None:
    server_settings, laptop_settings, link = homes()
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    run = tmp_path / "run"
    run.mkdir()
    async with (
        serving(server_settings) as server,
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(
            local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)), timeout=120
        )
        there = TeamLink(f"localhost:{server.service.team_port}", link.token, link.ca_file, "m")
        await _register_team_project(there)
        away = TeamLink(f"localhost:{refused_port}", link.token, link.ca_file, "m")
        said: dict[str, str] = {}
        for case, team_link in (("there", there), ("away", away)):
            reads, _, client = _laptop(local, repo, team_link, None)
            hooks = HookService(for_hooks(reads, 20_000), HookSettings(deadline_ms=20_000), run)
            try:
                said[case] = await hooks.answer(
                    "claude", "UserPromptSubmit", {"cwd": str(repo), "prompt": "fix the cart"}
                )
            finally:
                await hooks.close()
                await client.close()
    assert said["there"] == ""  # nothing matched and the team answered: silent
    context = json.loads(said["away"])["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("⚠ team server") and "unreachable" in context
    assert len(context.splitlines()) == 1, context
