"""Typed gRPC clients: the token on every call, a deadline on every call, errors mapped back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import grpc

from squirrel_core.auth import bearer
from squirrel_core.errors import SquirrelError, UnavailableError, error_for_status
from squirrel_core.service_info import MAX_MESSAGE_BYTES, read_service_info

Resp = TypeVar("Resp")

DEFAULT_TIMEOUT = 10.0
LOCAL_READS = ("squirrel-reads", "local")
TEAM_AWAY = "squirrel-team-away"
"""Trailing metadata: one line each time a gateway read left the team server out."""
"""Metadata asking the gateway to read local memory alone (`sqrl context --local`)."""


def open_channel(target: str) -> grpc.aio.Channel:
    """An insecure loopback channel with Squirrel's message size limits."""
    return grpc.aio.insecure_channel(
        target,
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ],
    )


class BaseClient:
    """Holds a channel and the token; `call` applies both and maps status codes to domain errors.

    `service` names a service of this machine (`memory`, `ingest`, `gateway`): a call that
    cannot reach it (gRPC's "failed to connect to all addresses; last error: …", a socket
    closed by a service that died) then says so in one line instead of the transport's words.
    Without it (a team server) those words are kept: they say why (TLS, DNS)."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        token: str,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        metadata: tuple[tuple[str, str], ...] = (),
        service: str = "",
    ) -> None:
        self.channel = channel
        self._metadata = bearer(token) + metadata
        self.timeout = timeout
        self._service = service

    def _error(self, exc: grpc.aio.AioRpcError) -> SquirrelError:
        """The domain error of a failed call (a service's own UNAVAILABLE arrives on a ready
        channel and keeps its message)."""
        if (
            self._service
            and exc.code() == grpc.StatusCode.UNAVAILABLE
            and self.channel.get_state() != grpc.ChannelConnectivity.READY
        ):
            return UnavailableError(
                f"the {self._service} service does not answer (it may be restarting): "
                "`sqrl status` shows it, `sqrl up` starts it"
            )
        return error_for_status(exc.code(), exc.details() or "")

    async def call(
        self, method: Callable[..., Awaitable[Resp]], request: Any, timeout: float | None = None
    ) -> Resp:
        try:
            return await method(request, metadata=self._metadata, timeout=timeout or self.timeout)
        except grpc.aio.AioRpcError as exc:
            raise self._error(exc) from None

    async def call_said(
        self, method: Callable[..., Any], request: Any, timeout: float | None = None
    ) -> tuple[Any, list[str]]:
        """`call`, and the values of the reply's `TEAM_AWAY` trailing metadata (what the
        gateway says when it answered without the team server)."""
        try:
            rpc = method(request, metadata=self._metadata, timeout=timeout or self.timeout)
            reply = await rpc
            trailing = await rpc.trailing_metadata()
        except grpc.aio.AioRpcError as exc:
            raise self._error(exc) from None
        return reply, [str(v) for k, v in (trailing or ()) if k == TEAM_AWAY]

    async def stream(
        self, method: Callable[..., Any], request: Any, timeout: float | None = None
    ) -> AsyncIterator[Any]:
        try:
            async for item in method(request, metadata=self._metadata, timeout=timeout):
                yield item
        except grpc.aio.AioRpcError as exc:
            raise self._error(exc) from None

    async def close(self) -> None:
        await self.channel.close(None)


class MemoryClient(BaseClient):
    """Client of `squirrel.v1.MemoryService`."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        token: str,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        service: str = "",
    ) -> None:
        from squirrel.v1 import memory_service_pb2_grpc  # noqa: PLC0415 - each command loads only its stubs

        super().__init__(channel, token, timeout, service=service)
        self.stub = memory_service_pb2_grpc.MemoryServiceStub(channel)


class IngestClient(BaseClient):
    """Client of `squirrel.v1.IngestService`."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        token: str,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        service: str = "",
    ) -> None:
        from squirrel.v1 import ingest_service_pb2_grpc  # noqa: PLC0415 - each command loads only its stubs

        super().__init__(channel, token, timeout, service=service)
        self.stub = ingest_service_pb2_grpc.IngestServiceStub(channel)


class GatewayClient(BaseClient):
    """Client of `squirrel.v1.GatewayService`; `metadata` goes with every call (the reads'
    `LOCAL_READS` header)."""

    def __init__(
        self,
        channel: grpc.aio.Channel,
        token: str,
        timeout: float = DEFAULT_TIMEOUT,
        *,
        metadata: tuple[tuple[str, str], ...] = (),
        service: str = "",
    ) -> None:
        from squirrel.v1 import gateway_service_pb2_grpc  # noqa: PLC0415 - each command loads only its stubs

        super().__init__(channel, token, timeout, metadata=metadata, service=service)
        self.stub = gateway_service_pb2_grpc.GatewayServiceStub(channel)


def target_of(service_file: Path) -> str:
    """`host:port` of a running service, from its service file."""
    info = read_service_info(service_file)
    if info is None:
        name = service_file.stem.removesuffix("-service")
        raise UnavailableError(f"the {name} service is not running; start it with `sqrl up`")
    return info.target


async def health_status(target: str, service: str = "", timeout: float = 1.0) -> str:
    """SERVING, NOT_SERVING, SERVICE_UNKNOWN, or UNREACHABLE."""
    async with open_channel(target) as channel:
        return await channel_health(channel, service, timeout)


async def channel_health(channel: grpc.aio.Channel, service: str = "", timeout: float = 1.0) -> str:
    """`health_status` on a channel the caller already holds (and keeps using)."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: PLC0415 - health callers only

    stub = health_pb2_grpc.HealthStub(channel)
    try:
        response = await stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=timeout)
    except grpc.aio.AioRpcError:
        return "UNREACHABLE"
    return str(health_pb2.HealthCheckResponse.ServingStatus.Name(response.status))


async def wait_serving(target: str, deadline_seconds: float) -> bool:
    """Polls health until SERVING or the deadline passes."""
    deadline = time.monotonic() + deadline_seconds
    delay = 0.05
    while time.monotonic() < deadline:
        if await health_status(target, timeout=min(1.0, deadline_seconds)) == "SERVING":
            return True
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.5)
    return False
