"""`sqrl mcp`: the stdio MCP server a host launches; starts the services when they are down.

stdout is the MCP wire: everything else (logs, the output of `sqrl up`) goes to stderr.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Awaitable, Callable
from typing import Final

import structlog

from squirrel_core.auth import ensure_token
from squirrel_core.clients import health_status
from squirrel_core.detached_start import start_services_detached
from squirrel_core.home import HomeLayout
from squirrel_core.logs import configure_logging
from squirrel_core.projects import read_projects
from squirrel_core.service_info import read_service_info
from squirrel_core.settings import Settings
from squirrel_gateway.memory_backend import GrpcMemoryBackend, MemoryConnection
from squirrel_gateway.reads import reads_backend
from squirrel_gateway.stdio_drain import serve_stdio_answering
from squirrel_gateway.tools import build_mcp_server

log = structlog.get_logger()

AUTOSTART_WAIT_SECONDS: Final = 20.0
"""How long `sqrl mcp` waits for the memory service after starting the services."""

_POLL_SECONDS: Final = 0.1


async def memory_serving(layout: HomeLayout) -> bool:
    """True when the memory service recorded in the home answers health with SERVING."""
    info = read_service_info(layout.service_file("memory"))
    if info is None:
        return False
    return await health_status(info.target, timeout=1.0) == "SERVING"


async def ensure_memory(
    layout: HomeLayout,
    start: Callable[[], Awaitable[object]],
    wait_seconds: float = AUTOSTART_WAIT_SECONDS,
) -> bool:
    """True once the memory service serves; when it does not, `start` it and wait (bounded).

    False when it is still not serving at the deadline: the server runs anyway and its tools
    say the services are down, which a host shows the model instead of a failed launch.
    """
    if await memory_serving(layout):
        return True
    log.info("services_starting", wait_seconds=wait_seconds)
    started = time.monotonic()
    await start()
    deadline = started + wait_seconds
    while time.monotonic() < deadline:
        if await memory_serving(layout):
            log.info("services_started", waited_ms=round((time.monotonic() - started) * 1000))
            return True
        await asyncio.sleep(_POLL_SECONDS)
    log.warning("memory_not_serving", waited_seconds=wait_seconds)
    return False


async def serve_stdio(
    settings: Settings, *, autostart: bool = True, wait_seconds: float = AUTOSTART_WAIT_SECONDS
) -> None:
    """Serve Squirrel's MCP tools on stdin/stdout until the host closes stdin (and has the
    answers to what it asked before)."""
    configure_logging("mcp", settings.str_("general.log_level"))
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    starter: list[subprocess.Popen[bytes]] = []

    async def start() -> None:
        starter.append(start_services_detached())

    if autostart:
        await ensure_memory(layout, start, wait_seconds)
    connection = MemoryConnection(layout.service_file("memory"), token)
    backend = GrpcMemoryBackend(
        connection.client,
        lambda: read_projects(layout.projects),
        default_user_id=settings.user_id,
    )
    reads, close_team = reads_backend(settings, backend)
    server = build_mcp_server(reads, allow_writes=settings.bool_("gateway.allow_writes"))
    log.info("mcp_stdio_serving")
    try:
        await serve_stdio_answering(server)
    finally:
        await close_team()
        await connection.close()
        for proc in starter:
            proc.poll()  # reap `sqrl up --detach` if it finished; it keeps running otherwise
        log.info("mcp_stdio_stopped")
