"""The gateway service process: the CLI-facing gRPC API and MCP over streamable HTTP."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import grpc

from squirrel.v1 import gateway_service_pb2, gateway_service_pb2_grpc
from squirrel_core.rpc import GrpcService
from squirrel_core.runner import Cleanup, main_for
from squirrel_core.settings import Settings
from squirrel_gateway.servicer import GatewayServicer

SERVICE_NAME = gateway_service_pb2.DESCRIPTOR.services_by_name["GatewayService"].full_name


async def setup(
    settings: Settings, service: GrpcService
) -> tuple[Callable[[], Awaitable[None]], Cleanup]:
    servicer = GatewayServicer(settings)  # type: ignore[abstract]

    def register(server: grpc.aio.Server) -> Sequence[str]:
        gateway_service_pb2_grpc.add_GatewayServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    service.add(register)
    return servicer.start, servicer.close


def main() -> None:
    main_for("gateway", setup)
