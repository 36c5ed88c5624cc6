"""A token revoked while a laptop has events to deliver and a remember queued, against a real
TLS team server on 127.0.0.1: nothing it sends after the revocation is stored, the laptop keeps
all of it and says so once (status, doctor) with what to do, and a new token sends it all."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.doctor_team import team_checks
from squirrel_cli.status_view import status_data
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import NotFoundError, UnauthenticatedError
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.status_probe import probe
from squirrel_core.team_client import TeamLink, save_team_token, saved_team_link, team_memory_client
from squirrel_core.team_grants import Role
from squirrel_core.team_tokens import TeamTokens
from squirrel_core.wire import event_to_pb
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.reads import reads_backend
from squirrel_gateway.team_outbox import OutboxSender, TeamOutbox
from squirrel_memory.storage import SqliteStore
from squirrel_memory.team.delivery import TeamDelivery
from tests.conftest import PATIENCE_SECONDS
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.conftest import memory_client
from tests.integration.test_team_away import Homes
from tests.integration.test_team_delivery import Served, _events, _repo, serving

TEAM_ID = "github.com/acme/shop"
homes = delivery_tests.homes
PITFALL = "Cart tests need `STRIPE_MOCK=1`."
PITFALL_TYPE = memory_pb2.MEMORY_TYPE_PITFALL


async def _team_events(server: Served) -> int:
    try:
        store = await server.servicer.engine.registry.store(TEAM_ID)
    except NotFoundError:  # not registered by the first delivery yet
        return 0
    assert isinstance(store, SqliteStore)
    return await store.count_events_after(0)


async def _team_contents(server: Served) -> list[str]:
    store = await server.servicer.engine.registry.store(TEAM_ID)
    items, _ = await store.list_memories(TEAM_ID)
    return sorted(m.content for m in items)


async def _until(
    read: Callable[[], Awaitable[int]], wanted: int, timeout: float = PATIENCE_SECONDS
) -> None:
    """Waits until `read()` gives `wanted` (the background delivery and queue run meanwhile)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while (got := await read()) != wanted:
        assert asyncio.get_running_loop().time() < deadline, f"{got} != {wanted}"
        await asyncio.sleep(0.05)


async def test_a_revoked_tokens_backlog_is_kept_said_once_and_sent_with_a_new_token(
    tmp_path: Path, homes: Homes, server_port: int
) -> None:
    server_settings, laptop_settings, link = homes()
    port = server_port
    server_settings = server_settings.with_values(serve__address=f"127.0.0.1:{port}")
    target = f"localhost:{port}"
    laptop: Settings = laptop_settings.with_values(
        team__server=target, team__ca_file=str(link.ca_file), team__machine="alice-mbp"
    )
    home = HomeLayout(laptop.home)
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    record = next(r for r in tokens.list() if r.user == "alice")
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")

    async with (
        serving(server_settings) as server,
        serving(laptop) as local_service,
        memory_client(local_service.service, laptop) as local,
    ):
        await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))

        async def append(n: int, session: str) -> None:
            events = [event_to_pb(e) for e in _events(n, session)]
            await local.call(
                local.stub.AppendEvents, pb.AppendEventsRequest(project_id=str(repo), events=events)
            )

        delivery = local_service.servicer.delivery
        assert isinstance(delivery, TeamDelivery)  # the laptop's own, running in the background
        await append(3, "before")
        await _until(lambda: _team_events(server), 3)

        tokens.revoke(record.id)
        await append(2, "after")
        reads, close = reads_backend(laptop, GrpcMemoryBackend(local, lambda: [str(repo)]))
        try:
            sender = getattr(reads, "outbox", None)
            assert sender is not None
            await sender.queue(
                str(repo),
                pb.RememberRequest(type=memory_pb2.MEMORY_TYPE_PITFALL, content=PITFALL),
            )
            # Nothing sent after the revocation is stored: the batch and the remember are refused.
            with pytest.raises(UnauthenticatedError):
                await delivery.deliver()
            flushed = await sender.flush()
            assert (flushed.sent, flushed.kept) == (0, 1)
            assert await _team_events(server) == 3
            assert PITFALL not in await _team_contents(server)

            # Kept on the laptop, and said once, with what to do.
            store = await local_service.servicer.engine.registry.store(str(repo))
            assert await delivery.waiting(store) == 2
            assert sender.outbox.pending() == 1
            _, counts, ingest = await probe(home, home.token.read_text().strip(), {}, counts=True)
            memory = status_data(laptop, None, [], counts, ingest)["memory"]
            assert memory["token_refused"] is True
            assert (memory["events_waiting"], memory["remembers_queued"]) == (2, 1)
            line = memory["text"] + memory["text_delivery"]
            assert line.count("sqrl team join") == 1 and "unreachable" not in line
            assert "last attempt" not in line  # the refusal is said once, not again raw
            doctor = await asyncio.to_thread(team_checks, laptop, False)
            server_check = next(c for c in doctor if c.name == "team server")
            assert not server_check.ok
            assert "1 remember queued" in server_check.detail

            # A new token saved (`sqrl team join`): everything kept goes, once, no restart.
            _, fresh = tokens.issue("alice", ["github.com/acme/*"], Role.WRITE)
            save_team_token(home, fresh)
            await _until(lambda: _team_events(server), 5)
            # The server stores a batch before the laptop reads its answer and counts it sent.
            await _until(lambda: delivery.waiting(store), 0)
            await _until(lambda: asyncio.to_thread(sender.outbox.pending), 0)
            assert await _team_contents(server) == [PITFALL]
            assert await _team_events(server) == 5
            _, counts, ingest = await probe(home, home.token.read_text().strip(), {}, counts=True)
            memory = status_data(laptop, None, [], counts, ingest)["memory"]
            assert memory["token_refused"] is False
            assert (memory["events_waiting"], memory["remembers_queued"]) == (0, 0)
            assert saved_team_link(laptop) is not None
        finally:
            await close()


async def test_the_queue_does_not_send_a_refused_token_again_until_another_is_saved(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, _, link = homes()
    tokens = TeamTokens(HomeLayout(server_settings.home).team_tokens)
    record, revoked = tokens.issue("erin", [TEAM_ID], Role.WRITE)
    tokens.revoke(record.id)
    _, fresh = tokens.issue("erin", [TEAM_ID], Role.WRITE)
    async with serving(server_settings) as server:
        target = f"localhost:{server.service.team_port}"
        admin = team_memory_client(TeamLink(target, link.token, link.ca_file, "m"), timeout=120)
        try:
            await admin.call(admin.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
        finally:
            await admin.close()
        in_use = [revoked]
        clients: list[str] = []

        def client() -> MemoryClient:
            clients.append(in_use[0])
            return team_memory_client(TeamLink(target, in_use[0], link.ca_file, "erin-mbp"))

        async def team_id(root: str) -> str:
            return TEAM_ID

        async def calls() -> int:
            return len(clients)

        outbox = TeamOutbox(tmp_path / "outbox.db")
        outbox.put("/erin/shop", pb.RememberRequest(type=PITFALL_TYPE, content=PITFALL))
        sender = OutboxSender(
            outbox, client, team_id, timeout=30, retry_every=0.02, token=lambda: in_use[0]
        )
        sender.start()
        try:
            await _until(calls, 1)
            # Some fifty rounds go by: the revoked token is not sent again.
            await asyncio.sleep(1.0)
            assert clients == [revoked] and outbox.pending() == 1
            in_use[0] = fresh  # `sqrl team join` saved another
            await _until(lambda: asyncio.to_thread(outbox.pending), 0)
            assert clients[-1] == fresh
            assert await _team_contents(server) == [PITFALL]
        finally:
            await sender.stop()
