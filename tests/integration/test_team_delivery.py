"""A laptop's memory service delivering to a team server's, in-process, over real TLS gRPC."""

from __future__ import annotations

import asyncio
import socket
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import ensure_token
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import PermissionDeniedError, UnavailableError
from squirrel_core.events import Event, EventType, Origin, SourceCursor, SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.project_identity import project_identity
from squirrel_core.redaction import ruleset
from squirrel_core.rpc import GrpcService
from squirrel_core.settings import Settings, load_settings
from squirrel_core.team_client import TeamLink, save_team_token, team_memory_client
from squirrel_core.team_grants import Role
from squirrel_core.team_listen import team_listener
from squirrel_core.team_tokens import TeamTokens
from squirrel_core.wire import cursor_to_pb, event_to_pb
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.reads import for_hooks
from squirrel_gateway.team_backend import TeamMemoryBackend
from squirrel_memory.server import registered
from squirrel_memory.servicer import MemoryServicer
from squirrel_memory.team.delivery import TeamDelivery
from tests.integration.conftest import memory_client
from tests.tls_certs import make_tls_files

TEAM_ID = "github.com/acme/shop"
HOUR = 3600.0


@dataclass
class Served:
    service: GrpcService
    servicer: MemoryServicer


def unstarted(settings: Settings) -> tuple[GrpcService, MemoryServicer]:
    """A memory service of `settings` (a team server's when it serves an address), not started."""
    layout = HomeLayout(settings.home).ensure()
    team = team_listener(settings)
    service = GrpcService(
        "memory",
        ensure_token(layout.token),
        0,
        layout.service_file("memory"),
        team=team,
        team_tokens=TeamTokens(layout.team_tokens) if team else None,
    )
    return service, registered(settings, service)


@asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[Served]:
    service, servicer = unstarted(settings)
    try:
        await service.start()
        await servicer.start()
        await service.set_serving()
        yield Served(service, servicer)
    finally:
        await service.stop(grace=0)
        await servicer.close()


def _settings(home: Path, **env: str) -> Settings:
    base = {"SQRL_HOME": str(home), "SQRL_PROCESSOR_INTERVAL_SECONDS": "3600"}
    base.update({f"SQRL_{k.upper()}": v for k, v in env.items()})
    return load_settings(base)


def _repo(path: Path, remote: str) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    subprocess.run(["git", "remote", "add", "origin", remote], cwd=path, check=True)
    return path.resolve()


def _events(n: int, session: str = "s1") -> list[Event]:
    t0 = datetime.now(UTC) - timedelta(hours=1)
    return [
        Event(
            source_tool=SourceTool.CLAUDE_CODE,
            event_type=EventType.USER_MESSAGE,
            timestamp=t0 + timedelta(seconds=i),
            content={"text": f"message number {i}"},
            session_id=session,
            origin=Origin.TYPED,
        )
        for i in range(n)
    ]


@pytest.fixture
def homes(tmp_path: Path) -> Callable[..., tuple[Settings, Settings, TeamLink]]:
    def make() -> tuple[Settings, Settings, TeamLink]:
        tls = make_tls_files(tmp_path / "tls")
        server = _settings(
            tmp_path / "server",
            serve_address="127.0.0.1:0",
            serve_tls_cert=str(tls.cert),
            serve_tls_key=str(tls.key),
        )
        _, token = TeamTokens(HomeLayout(server.home).team_tokens).issue(
            "alice", ["github.com/acme/*"], Role.ADMIN
        )
        laptop = _settings(tmp_path / "laptop", general_user_id="alice")
        save_team_token(HomeLayout(laptop.home).ensure(), token)
        link = TeamLink("", token, tls.ca, "alice-mbp")
        return server, laptop, link

    return make


def _patient_client(link: TeamLink) -> MemoryClient:
    """A team client that waits 180 s for an answer (the product waits `TEAM_TIMEOUT`)."""
    return team_memory_client(link, timeout=180.0)


async def test_a_laptops_events_reach_the_team_project_once_even_when_sent_again(
    tmp_path: Path, homes: Callable[..., tuple[Settings, Settings, TeamLink]]
) -> None:
    server_settings, laptop_settings, link = homes()
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")
    async with serving(server_settings) as server, serving(laptop_settings) as laptop:
        port = server.service.team_port
        link = TeamLink(f"localhost:{port}", link.token, link.ca_file, link.machine)
        async with memory_client(laptop.service, laptop_settings) as local:
            await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
            reply = await local.call(
                local.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(repo), events=[event_to_pb(e) for e in _events(1_200)]
                ),
            )
            assert reply.accepted == 1_200
            engine = laptop.servicer.engine
            # What is tested is "once", not how fast: a loaded machine may take longer than the
            # product's 15 s per batch of 500 to store one, so this delivery waits longer.
            delivery = TeamDelivery(
                engine.registry.open_stores, link, interval=3600, client_factory=_patient_client
            )
            store = await engine.registry.store(str(repo))
            assert await delivery.waiting(store) == 1_200
            first = await delivery.deliver()
            assert await delivery.waiting(store) == 0
            assert (first.sent, first.accepted, first.duplicates) == (1_200, 1_200, 0)
            assert first.projects == {str(repo): TEAM_ID}
            again = await delivery.deliver()
            assert again.sent == 0
            # A laptop that forgot everything (a restart) asks the server where it was.
            fresh = TeamDelivery(
                engine.registry.open_stores, link, interval=3600, client_factory=_patient_client
            )
            assert (await fresh.deliver()).sent == 0
            await delivery.stop()
            await fresh.stop()
        async with memory_client(server.service, server_settings) as admin:
            status = await admin.call(
                admin.stub.GetProcessingStatus, pb.GetProcessingStatusRequest(project_id=TEAM_ID)
            )
            assert status.projects[0].events_total == 1_200


async def test_while_the_server_is_down_the_laptop_reads_locally_and_delivers_later(
    tmp_path: Path, homes: Callable[..., tuple[Settings, Settings, TeamLink]], server_port: int
) -> None:
    server_settings, laptop_settings, link = homes()
    port = server_port
    server_settings = server_settings.with_values(serve__address=f"127.0.0.1:{port}")
    link = TeamLink(f"localhost:{port}", link.token, link.ca_file, link.machine)
    repo = _repo(tmp_path / "clone", "https://github.com/acme/shop.git")
    async with (
        serving(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
        await local.call(
            local.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(repo), events=[event_to_pb(e) for e in _events(30)]
            ),
        )
        await local.call(
            local.stub.Remember,
            pb.RememberRequest(
                project_id=str(repo),
                type=memory_pb2.MEMORY_TYPE_RECIPE,
                content="Run the shop's tests with `make check`.",
            ),
        )
        engine = laptop.servicer.engine
        delivery = TeamDelivery(engine.registry.open_stores, link, interval=3600)
        with pytest.raises(UnavailableError):
            await delivery.deliver()
        assert delivery.last_error is not None

        # Reads answer from local memory alone, without waiting for the team server.
        local_backend = GrpcMemoryBackend(local, lambda: [str(repo)])
        team_client = team_memory_client(link, timeout=2)
        reads = TeamMemoryBackend(
            local_backend,
            GrpcMemoryBackend(team_client, list, timeout=2),
            lambda root: project_identity(root, link.machine),
            server=link.server,
        )
        context = await reads.get_task_context(
            str(repo),
            user_id=None,
            task_description="run the tests with make check",
            active_file_paths=[],
            preferred_memory_types=[],
            budget=400,
        )
        assert any("make check" in m.content for m in context.selected_memories)

        # A team server that accepts connections and never answers costs a hook only its share
        # of the hook deadline: the local answer still arrives in time. Outside a hook, this
        # read would wait an hour for the silent server, so only the hook's share can end it
        # (judged by the answer arriving, not by a clock a loaded machine stretches).
        with socket.socket() as black_hole:
            black_hole.bind(("127.0.0.1", 0))
            black_hole.listen()
            stuck = TeamLink(f"127.0.0.1:{black_hole.getsockname()[1]}", link.token, None, "m")
            stuck_client = team_memory_client(stuck, timeout=HOUR)
            slow = TeamMemoryBackend(
                local_backend,
                GrpcMemoryBackend(stuck_client, list, timeout=HOUR),
                lambda root: project_identity(root, "m"),
                server=stuck.server,
                wait_seconds=HOUR,
            )
            hooks = for_hooks(slow, 1000)
            async with asyncio.timeout(120):  # fails only a hook that waited for the team
                answered = await hooks.get_task_context(
                    str(repo),
                    user_id=None,
                    task_description="run the tests with make check",
                    active_file_paths=[],
                    preferred_memory_types=[],
                    budget=400,
                )
            assert any("make check" in m.content for m in answered.selected_memories)
            await stuck_client.close()

        async with serving(server_settings) as server:
            report = await delivery.deliver()
            assert (report.sent, report.accepted) == (30, 30)
            async with memory_client(server.service, server_settings) as admin:
                status = await admin.call(
                    admin.stub.GetProcessingStatus,
                    pb.GetProcessingStatusRequest(project_id=TEAM_ID),
                )
            assert status.projects[0].events_total == 30
        await delivery.stop()
        await team_client.close()


TRACEBACK = """\
Traceback (most recent call last):
  File "/home/dev/shop/src/cart.py", line 42, in <module>
ImportError: cannot import name 'Money' from 'shop.types' (/home/dev/shop/src/types.py)
"""


def _pitfall_session(session: str, start: datetime) -> list[Event]:
    def at(n: int, kind: EventType, content: dict[str, object], **kw: object) -> Event:
        return Event(
            source_tool=SourceTool.CLAUDE_CODE,
            event_type=kind,
            timestamp=start + timedelta(seconds=20 * n),
            content=content,
            session_id=session,
            **kw,  # type: ignore[arg-type]
        )

    return [
        at(1, EventType.USER_MESSAGE, {"text": "Run the cart tests."}, origin=Origin.TYPED),
        at(
            2,
            EventType.TEST_RUN,
            {
                "command": "pytest tests/test_cart.py",
                "tool_use_id": "a",
                "exit_code": 1,
                "is_error": True,
                "output": TRACEBACK,
            },
        ),
        at(
            3,
            EventType.CODE_CHANGE,
            {"tool": "Write", "tool_use_id": "b", "path": "src/shop/types.py"},
            file_paths=("src/shop/types.py",),
        ),
        at(
            4,
            EventType.TEST_RUN,
            {
                "command": "pytest tests/test_cart.py",
                "tool_use_id": "c",
                "exit_code": 0,
                "is_error": False,
                "output": "3 passed",
            },
        ),
    ]


async def test_two_laptops_learning_the_same_pitfall_at_once_make_one_memory_with_both(
    tmp_path: Path, homes: Callable[..., tuple[Settings, Settings, TeamLink]]
) -> None:
    server_settings, _, link = homes()
    _, bob_token = TeamTokens(HomeLayout(server_settings.home).team_tokens).issue(
        "bob", ["github.com/acme/*"], Role.WRITE
    )
    start = datetime.now(UTC) - timedelta(hours=1)
    async with serving(server_settings) as server:
        target = f"localhost:{server.service.team_port}"
        alice = team_memory_client(TeamLink(target, link.token, link.ca_file, "alice-mbp"))
        bob = team_memory_client(TeamLink(target, bob_token, link.ca_file, "bob-x1"))
        try:
            await alice.call(alice.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
            with pytest.raises(PermissionDeniedError):
                await bob.call(bob.stub.ProcessNow, pb.ProcessNowRequest(project_id=TEAM_ID))
            with pytest.raises(PermissionDeniedError):
                await bob.call(bob.stub.Reindex, pb.ReindexRequest(project_id=TEAM_ID))

            async def send(client: MemoryClient, session: str, machine: str) -> None:
                events = [
                    replace(e, content={**e.content, "machine": machine})
                    for e in _pitfall_session(session, start)
                ]
                await client.call(
                    client.stub.AppendEvents,
                    pb.AppendEventsRequest(
                        project_id=TEAM_ID, events=[event_to_pb(e) for e in events]
                    ),
                )

            await asyncio.gather(send(alice, "s-alice", "alice-mbp"), send(bob, "s-bob", "bob-x1"))

            # One user cannot move (or see) another's delivery position, even on the same path.
            async def mark(client: MemoryClient, offset: int) -> list[tuple[str, int]]:
                cursor = SourceCursor(SourceTool.MANUAL, "team://shared/path", 0, offset)
                await client.call(
                    client.stub.AppendEvents,
                    pb.AppendEventsRequest(project_id=TEAM_ID, cursors=[cursor_to_pb(cursor)]),
                )
                reply = await client.call(
                    client.stub.GetSourceCursors,
                    pb.GetSourceCursorsRequest(project_ids=[TEAM_ID]),
                )
                return [(c.path, c.offset) for p in reply.projects for c in p.cursors]

            assert await mark(alice, 5) == [("team://shared/path", 5)]
            assert await mark(bob, 99) == [("team://shared/path", 99)]
            assert await mark(alice, 6) == [("team://shared/path", 6)]
        finally:
            await alice.close()
            await bob.close()
        async with memory_client(server.service, server_settings) as admin:
            await admin.call(
                admin.stub.ProcessNow, pb.ProcessNowRequest(project_id=TEAM_ID, drain=True)
            )
            listed = await admin.call(
                admin.stub.ListMemories, pb.ListMemoriesRequest(project_id=TEAM_ID)
            )
            pitfalls = [m for m in listed.memories if m.type == memory_pb2.MEMORY_TYPE_PITFALL]
            assert len(pitfalls) == 1, [m.content for m in pitfalls]
            history = await admin.call(
                admin.stub.GetMemoryHistory,
                pb.GetMemoryHistoryRequest(project_id=TEAM_ID, memory_id=pitfalls[0].memory_id),
            )
    contributors = {(e.user_id, e.machine) for e in history.source_events}
    assert contributors == {("alice", "alice-mbp"), ("bob", "bob-x1")}


async def test_a_team_users_events_are_redacted_whatever_rules_they_name(
    homes: Callable[..., tuple[Settings, Settings, TeamLink]],
) -> None:
    server_settings, _, link = homes()
    secret = "sk-ant-api03-" + "Wb4" * 30
    event = replace(_events(1)[0], content={"text": f"the key: {secret}"})
    async with serving(server_settings) as server:
        alice = team_memory_client(
            TeamLink(f"localhost:{server.service.team_port}", link.token, link.ca_file, "mbp")
        )
        try:
            await alice.call(alice.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
            reply = await alice.call(
                alice.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=TEAM_ID, events=[event_to_pb(event)], redacted_with=ruleset()
                ),
            )
        finally:
            await alice.close()
    assert reply.accepted == 1 and reply.redactions == 1
