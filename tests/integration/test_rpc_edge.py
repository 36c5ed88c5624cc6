"""The three services in-process on 127.0.0.1:0: auth, status mapping, health and reflection."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from squirrel.v1 import (
    gateway_service_pb2,
    ingest_service_pb2,
    memory_service_pb2,
    memory_service_pb2_grpc,
)
from squirrel_core.auth import bearer, ensure_token
from squirrel_core.home import HomeLayout
from squirrel_core.rpc import GrpcService
from squirrel_core.settings import Settings, load_settings
from squirrel_gateway import server as gateway_server
from squirrel_ingest import server as ingest_server
from squirrel_memory import server as memory_server

SETUPS = {
    "memory": memory_server.setup,
    "ingest": ingest_server.setup,
    "gateway": gateway_server.setup,
}
FILES = {
    "memory": memory_service_pb2,
    "ingest": ingest_service_pb2,
    "gateway": gateway_service_pb2,
}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings({"SQRL_HOME": str(tmp_path / "home")})


@pytest.fixture
async def services(settings: Settings) -> AsyncIterator[dict[str, GrpcService]]:
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    running: dict[str, GrpcService] = {}
    cleanups = []
    for name, setup in SETUPS.items():
        service = GrpcService(name, token, 0, layout.service_file(name))
        ready, cleanup = await setup(settings, service)
        await service.start()
        later = await ready()
        await service.set_serving()
        if later is not None:
            await later
        running[name] = service
        cleanups.append(cleanup)
    yield running
    for service in running.values():
        await service.stop(grace=0)
    for cleanup in cleanups:
        await cleanup()


def _token(settings: Settings) -> str:
    return HomeLayout(settings.home).token.read_text()


async def test_data_rpc_without_token_is_unauthenticated(
    services: dict[str, GrpcService], settings: Settings
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{services['memory'].port}") as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.ListProjects(memory_service_pb2.ListProjectsRequest(), timeout=60)
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.ListProjects(
                memory_service_pb2.ListProjectsRequest(), metadata=bearer("wrong"), timeout=60
            )
        assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
        response = await stub.ListProjects(
            memory_service_pb2.ListProjectsRequest(), metadata=bearer(_token(settings)), timeout=60
        )
        assert list(response.projects) == []


async def test_domain_errors_travel_as_their_status_code(
    services: dict[str, GrpcService], settings: Settings, tmp_path: Path
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{services['memory'].port}") as channel:
        stub = memory_service_pb2_grpc.MemoryServiceStub(channel)
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await stub.RegisterProject(
                memory_service_pb2.RegisterProjectRequest(root=str(tmp_path / "missing")),
                metadata=bearer(_token(settings)),
                timeout=60,
            )
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_health_is_open_and_serving(services: dict[str, GrpcService]) -> None:
    for name, service in services.items():
        async with grpc.aio.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            full_name = FILES[name].DESCRIPTOR.services_by_name
            for service_name in ["", *[s.full_name for s in full_name.values()]]:
                reply = await stub.Check(
                    health_pb2.HealthCheckRequest(service=service_name), timeout=60
                )
                assert reply.status == health_pb2.HealthCheckResponse.SERVING


def _reflected_services(port: int) -> list[str]:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        return list(ProtoReflectionDescriptorDatabase(channel).get_services())


async def test_reflection_exposes_every_squirrel_service(services: dict[str, GrpcService]) -> None:
    exposed: set[str] = set()
    for service in services.values():
        # The blocking reflection client runs in a thread; the servers need this loop.
        names = await asyncio.to_thread(_reflected_services, service.port)
        exposed.update(n for n in names if n.startswith("squirrel.v1."))
        assert "grpc.health.v1.Health" in names
    declared = {
        s.full_name
        for module in FILES.values()
        for s in module.DESCRIPTOR.services_by_name.values()
    }
    assert declared == {
        "squirrel.v1.MemoryService",
        "squirrel.v1.IngestService",
        "squirrel.v1.GatewayService",
    }
    assert exposed == declared


def _file_of_symbol(port: int, symbol: str) -> str:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        return str(
            ProtoReflectionDescriptorDatabase(channel).FindFileContainingSymbol(symbol).package
        )


async def test_reflection_describes_request_messages(services: dict[str, GrpcService]) -> None:
    package = await asyncio.to_thread(
        _file_of_symbol, services["memory"].port, "squirrel.v1.AppendEventsRequest"
    )
    assert package == "squirrel.v1"
