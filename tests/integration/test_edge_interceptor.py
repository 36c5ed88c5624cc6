"""The edge interceptor maps every failure once: domain errors, crashes, unimplemented, streams."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from squirrel_core.auth import bearer
from squirrel_core.errors import NotFoundError
from squirrel_core.rpc import GrpcService

TOKEN = "t0ken"


async def _crash(request: bytes, context: Any) -> bytes:
    raise RuntimeError("secret internal detail /home/alice/.ssh/id_rsa")


async def _missing(request: bytes, context: Any) -> bytes:
    raise NotFoundError("no memory mem_1")


def _unimplemented(request: bytes, context: Any) -> bytes:
    raise NotImplementedError


async def _stream(request: bytes, context: Any) -> AsyncIterator[bytes]:
    yield b"one"
    raise NotFoundError("gone midway")


@pytest.fixture
async def port(tmp_path: Path) -> AsyncIterator[int]:
    service = GrpcService("test", TOKEN, 0, tmp_path / "test-service.json")

    def register(server: grpc.aio.Server) -> list[str]:
        handlers = {
            "Crash": grpc.unary_unary_rpc_method_handler(_crash),
            "Missing": grpc.unary_unary_rpc_method_handler(_missing),
            "Todo": grpc.unary_unary_rpc_method_handler(_unimplemented),
            "Stream": grpc.unary_stream_rpc_method_handler(_stream),
        }
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("t.T", handlers),))
        return ["t.T"]

    service.add(register)
    await service.start()
    yield service.port
    await service.stop(0)


@pytest.mark.parametrize(
    ("method", "code"),
    [
        ("Crash", grpc.StatusCode.INTERNAL),
        ("Missing", grpc.StatusCode.NOT_FOUND),
        ("Todo", grpc.StatusCode.UNIMPLEMENTED),
    ],
)
async def test_failures_become_their_status_and_crashes_leak_nothing(
    port: int, method: str, code: grpc.StatusCode
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary(f"/t.T/{method}")
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await call(b"", metadata=bearer(TOKEN), timeout=60)
    assert err.value.code() == code
    assert "secret" not in (err.value.details() or "")


async def test_a_stream_failing_midway_ends_with_its_status(port: int) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_stream("/t.T/Stream")
        received = []
        with pytest.raises(grpc.aio.AioRpcError) as err:
            async for item in call(b"", metadata=bearer(TOKEN), timeout=60):
                received.append(item)
    assert received == [b"one"]
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


async def test_streams_need_the_token_too(port: int) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_stream("/t.T/Stream")
        with pytest.raises(grpc.aio.AioRpcError) as err:
            async for _ in call(b"", timeout=60):
                pass
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
