"""The gateway service process: the CLI-facing gRPC API and MCP over streamable HTTP."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import grpc

from squirrel.v1 import gateway_service_pb2, gateway_service_pb2_grpc
from squirrel_core.auth import ensure_token
from squirrel_core.home import HomeLayout
from squirrel_core.projects import read_projects
from squirrel_core.rpc import GrpcService
from squirrel_core.runner import Cleanup, main_for
from squirrel_core.settings import Settings
from squirrel_gateway.hook_service import HookService, HookSettings
from squirrel_gateway.mcp_http import McpHttpEndpoint, info_file
from squirrel_gateway.memory_backend import GrpcMemoryBackend, MemoryConnection
from squirrel_gateway.servicer import GatewayServicer
from squirrel_gateway.session_end import IngestSessionEnder
from squirrel_gateway.team_backend import for_hooks, reads_backend
from squirrel_gateway.tools import build_mcp_server
from squirrel_gateway.ui.app import UiRoutes
from squirrel_gateway.ui.calls import BrowserCalls

SERVICE_NAME = gateway_service_pb2.DESCRIPTOR.services_by_name["GatewayService"].full_name


async def setup(
    settings: Settings, service: GrpcService
) -> tuple[Callable[[], Awaitable[None]], Cleanup]:
    """Registers the gateway's gRPC API; `ready` starts the MCP HTTP endpoint beside it."""
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    connection = MemoryConnection(layout.service_file("memory"), token)
    backend = GrpcMemoryBackend(
        connection.client,
        lambda: read_projects(layout.projects),
        default_user_id=settings.user_id,
    )
    reads, close_team = reads_backend(settings, backend)
    servicer = GatewayServicer(backend, reads)
    hooks = HookService(
        for_hooks(reads, settings.int_("hooks.deadline_ms")),
        HookSettings.from_settings(settings),
        layout.run,
        IngestSessionEnder(layout.service_file("ingest"), token),
    )
    endpoint = McpHttpEndpoint(
        build_mcp_server(reads, allow_writes=settings.bool_("gateway.allow_writes")),
        token,
        settings.int_("gateway.mcp_http_port"),
        info_file(layout.run),
        hooks,
        ui=lambda app: UiRoutes(
            app, token, backend, BrowserCalls(backend, layout.service_file("ingest"), token)
        ),
    )

    def register(server: grpc.aio.Server) -> Sequence[str]:
        gateway_service_pb2_grpc.add_GatewayServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    service.add(register)

    async def ready() -> None:
        await endpoint.start()

    async def cleanup() -> None:
        await endpoint.stop()
        await hooks.close()
        await close_team()
        await connection.close()

    return ready, cleanup


def main() -> None:
    main_for("gateway", setup)
