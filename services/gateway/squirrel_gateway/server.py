"""The gateway service process: the CLI-facing gRPC API and MCP over streamable HTTP.

The gRPC API reports SERVING first; the HTTP endpoint (MCP, hooks, the memory browser) follows
a moment later, once the MCP SDK and uvicorn are loaded — they take longer to import than the
rest of the gateway put together. Its port is bound before SERVING, so a taken port still fails
the start, and `<home>/run/gateway-mcp.json` appears when it answers.
"""

from __future__ import annotations

import asyncio
import functools
import os
import socket
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING

import grpc

from squirrel.v1 import gateway_service_pb2, gateway_service_pb2_grpc
from squirrel_core.auth import ensure_token
from squirrel_core.home import HomeLayout
from squirrel_core.mcp_profile import mcp_profile, write_profile
from squirrel_core.projects import read_projects
from squirrel_core.rpc import GrpcService
from squirrel_core.runner import Cleanup, Ready, main_for
from squirrel_core.settings import Settings
from squirrel_core.team_in_use import clear_team_in_use, record_team_in_use
from squirrel_gateway.hook_service import HookService, HookSettings, warm_up
from squirrel_gateway.memory_backend import GrpcMemoryBackend, MemoryConnection
from squirrel_gateway.reads import for_hooks, reads_backend
from squirrel_gateway.served_log import served_log_for
from squirrel_gateway.servicer import GatewayServicer
from squirrel_gateway.session_end import IngestSessionEnder
from squirrel_gateway.sockets import bind_loopback
from squirrel_gateway.team_backend import TeamMemoryBackend

if TYPE_CHECKING:
    from squirrel_gateway.backend import MemoryBackend
    from squirrel_gateway.mcp_http import McpHttpEndpoint

SERVICE_NAME = gateway_service_pb2.DESCRIPTOR.services_by_name["GatewayService"].full_name


def build_endpoint(
    settings: Settings,
    *,
    layout: HomeLayout,
    token: str,
    reads: MemoryBackend,
    backend: GrpcMemoryBackend,
    hooks: HookService,
    servicer: GatewayServicer,
) -> McpHttpEndpoint:
    """The HTTP endpoint with MCP, the hook answers, the CLI's reads and the memory browser: the
    import of the MCP SDK, uvicorn and Starlette happens here, off the path to SERVING."""
    from squirrel_gateway.cli_http import CliApi  # noqa: PLC0415
    from squirrel_gateway.mcp_http import McpHttpEndpoint, info_file  # noqa: PLC0415
    from squirrel_gateway.tools import build_mcp_server  # noqa: PLC0415
    from squirrel_gateway.ui.app import UiRoutes  # noqa: PLC0415
    from squirrel_gateway.ui.calls import BrowserCalls  # noqa: PLC0415

    return McpHttpEndpoint(
        build_mcp_server(reads, allow_writes=settings.bool_("gateway.allow_writes")),
        token,
        settings.int_("gateway.mcp_http_port"),
        info_file(layout.run),
        hooks,
        ui=lambda app: UiRoutes(
            app,
            token,
            backend,
            BrowserCalls(backend, layout.service_file("ingest"), token),
            team=reads if isinstance(reads, TeamMemoryBackend) else None,
        ),
        cli=CliApi(
            servicer,
            backend,
            layout.root,
            token,
            reads if isinstance(reads, TeamMemoryBackend) else None,
        ),
    )


async def setup(settings: Settings, service: GrpcService) -> tuple[Ready, Cleanup]:
    """Registers the gateway's gRPC API; `ready` binds the HTTP port and leaves the endpoint
    to start after SERVING."""
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    connection = MemoryConnection(layout.service_file("memory"), token)
    backend = GrpcMemoryBackend(
        connection.client,
        lambda: read_projects(layout.projects),
        default_user_id=settings.user_id,
    )
    reads, close_team = reads_backend(settings, backend)
    record_team_in_use(layout.run, "gateway", settings)
    servicer = GatewayServicer(backend, reads)
    # What each session was served goes to the local memory service, on a joined laptop too
    # (a team's memories are the team server's: the memory service records no id it does not
    # hold, so their outcomes are not recorded here).
    served = served_log_for(settings, connection.client, layout.run)
    hooks = HookService(
        for_hooks(reads, settings.int_("hooks.deadline_ms")),
        HookSettings.from_settings(settings),
        layout.run,
        IngestSessionEnder(layout.service_file("ingest"), token),
        observer=served.observe if served is not None else None,
        keep_starts=reads is backend,
    )
    endpoint: McpHttpEndpoint | None = None

    def register(server: grpc.aio.Server) -> Sequence[str]:
        gateway_service_pb2_grpc.add_GatewayServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    service.add(register)

    async def start_http(sock: socket.socket) -> None:
        nonlocal endpoint
        try:
            # Loading the libraries is most of the work; a thread keeps the RPCs answering.
            built = await asyncio.to_thread(
                functools.partial(
                    build_endpoint,
                    settings,
                    layout=layout,
                    token=token,
                    reads=reads,
                    backend=backend,
                    hooks=hooks,
                    servicer=servicer,
                )
            )
            # Before the endpoint is recorded (`sqrl up --detach` waits for it): the first hook
            # after `up` then finds it ready.
            await asyncio.to_thread(warm_up)
        except BaseException:
            sock.close()
            raise
        endpoint = built
        # Before the endpoint is recorded, so `sqrl mcp` never sees one without the other.
        write_profile(layout.run, os.getpid(), mcp_profile(settings))
        await built.start(sock)

    async def ready() -> Awaitable[None]:
        setting = "gateway.mcp_http_port"
        return start_http(bind_loopback(settings.int_(setting), setting))

    async def cleanup() -> None:
        if endpoint is not None:
            await endpoint.stop()
        await hooks.close()
        if served is not None:
            await served.close()
        await close_team()
        await connection.close()
        clear_team_in_use(layout.run, "gateway")

    return ready, cleanup


def main() -> None:
    main_for("gateway", setup)
