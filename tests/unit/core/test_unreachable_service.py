"""A client of a service of this machine that cannot reach it says so in one line: `sqrl search`
while the memory service restarts printed gRPC's "failed to connect to all addresses; last
error: UNKNOWN: ipv4:127.0.0.1:…: Failed to connect to remote host: Connection refused". A
service's own UNAVAILABLE keeps its message, and a client of a team server (no `service`) keeps
the transport's words, which say why (TLS, DNS)."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import grpc
import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel.v1 import memory_service_pb2_grpc
from squirrel_core.clients import MemoryClient, open_channel
from squirrel_core.errors import UnavailableError


class _Busy(memory_service_pb2_grpc.MemoryServiceServicer):
    async def ListMemories(
        self, request: pb.ListMemoriesRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListMemoriesResponse:
        await context.abort(grpc.StatusCode.UNAVAILABLE, "the store is being restored")
        raise AssertionError  # pragma: no cover - abort raises


@pytest.fixture
async def busy_target() -> AsyncIterator[str]:
    server = grpc.aio.server()
    memory_service_pb2_grpc.add_MemoryServiceServicer_to_server(_Busy(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await server.stop(None)


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


async def _list(client: MemoryClient) -> None:
    try:
        await client.call(client.stub.ListMemories, pb.ListMemoriesRequest(), timeout=5)
    finally:
        await client.close()


async def test_a_local_service_that_does_not_answer_is_named_in_one_line() -> None:
    client = MemoryClient(open_channel(_closed_port()), "token", service="memory")
    with pytest.raises(UnavailableError) as refused:
        await _list(client)
    said = str(refused.value)
    assert said.startswith("the memory service does not answer"), said
    assert "failed to connect" not in said and "\n" not in said


async def test_a_services_own_unavailable_keeps_its_message(busy_target: str) -> None:
    client = MemoryClient(open_channel(busy_target), "token", service="memory")
    with pytest.raises(UnavailableError, match=r"^the store is being restored$"):
        await _list(client)


async def test_a_client_naming_no_service_keeps_the_transports_words() -> None:
    client = MemoryClient(open_channel(_closed_port()), "token")
    with pytest.raises(UnavailableError, match=r"failed to connect|Connection refused"):
        await _list(client)
