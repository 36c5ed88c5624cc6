"""A laptop's memory service delivering to a team server's, in-process, over real TLS gRPC."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc
import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel.v1 import memory_service_pb2_grpc
from squirrel_core.auth import ensure_token
from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.rpc import GrpcService
from squirrel_core.settings import Settings, load_settings
from squirrel_core.team_client import TeamLink, save_team_token
from squirrel_core.team_listen import team_listener
from squirrel_core.team_tokens import TeamTokens
from squirrel_core.wire import event_to_pb
from squirrel_memory.server import SERVICE_NAME
from squirrel_memory.servicer import MemoryServicer
from squirrel_memory.team_delivery import TeamDelivery
from tests.integration.conftest import memory_client
from tests.tls_certs import make_tls_files

TEAM_ID = "github.com/acme/shop"


@dataclass
class Served:
    service: GrpcService
    servicer: MemoryServicer


@asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[Served]:
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
    servicer = MemoryServicer(settings)

    def register(server: grpc.aio.Server) -> Sequence[str]:
        memory_service_pb2_grpc.add_MemoryServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    service.add(register)
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
        _, token = TeamTokens(HomeLayout(server.home).team_tokens).issue("alice")
        laptop = _settings(tmp_path / "laptop", general_user_id="alice")
        save_team_token(HomeLayout(laptop.home).ensure(), token)
        link = TeamLink("", token, tls.ca, "alice-mbp")
        return server, laptop, link

    return make


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
            delivery = TeamDelivery(engine.registry.open_stores, link, interval=3600)
            first = await delivery.deliver()
            assert (first.sent, first.accepted, first.duplicates) == (1_200, 1_200, 0)
            assert first.projects == {str(repo): TEAM_ID}
            again = await delivery.deliver()
            assert again.sent == 0
            # A laptop that forgot everything (a restart) asks the server where it was.
            fresh = TeamDelivery(engine.registry.open_stores, link, interval=3600)
            assert (await fresh.deliver()).sent == 0
            await delivery.stop()
            await fresh.stop()
        async with memory_client(server.service, server_settings) as admin:
            status = await admin.call(
                admin.stub.GetProcessingStatus, pb.GetProcessingStatusRequest(project_id=TEAM_ID)
            )
            assert status.projects[0].events_total == 1_200
