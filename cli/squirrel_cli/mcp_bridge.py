"""`sqrl mcp`: the stdio MCP server hosts launch, relaying to the gateway's MCP endpoint.

A host starts `sqrl mcp` for every session and waits for its `initialize` answer, and the MCP
SDK alone takes most of a second to import. So `sqrl mcp` loads only the standard library and
the settings, and relays (`mcp_relay`). The real MCP server runs in the gateway.

- Services down (or the gateway still starting): it starts them (`sqrl up --detach`, unless
  `--no-autostart`) and relays as soon as the gateway serves, answering `initialize`, `ping`
  and the tool, prompt and resource lists itself at once meanwhile, so the host has the tools
  from its first turn.
- When the endpoint cannot be reached, or the gateway runs with settings that shape answers
  differently from this process's (`squirrel_core.mcp_profile`), the MCP server runs in this
  process instead (`squirrel_gateway.stdio`): the same tools, the same answers, slower to start.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

from squirrel_cli.mcp_local import AUTOSTART_WAIT_SECONDS, LocalAnswers, load_manifest
from squirrel_cli.mcp_relay import ENDPOINT_FILE, Relay
from squirrel_cli.relay_wire import log_event, memory_running
from squirrel_core.auth import ensure_token
from squirrel_core.detached_start import start_services_detached
from squirrel_core.errors import SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.mcp_profile import mcp_profile, read_profile
from squirrel_core.service_info import ServiceInfo, pid_alive, read_service_info
from squirrel_core.settings import Settings, load_settings


def _gateway_running(layout: HomeLayout) -> bool:
    info = read_service_info(layout.service_file("gateway"))
    return info is not None and pid_alive(info.pid)


def gateway_endpoint(layout: HomeLayout) -> ServiceInfo | None:
    """The gateway's MCP endpoint, if it serves now (never waits)."""
    info = read_service_info(layout.run / ENDPOINT_FILE)
    return info if info is not None and pid_alive(info.pid) else None


def run(settings: Settings, *, autostart: bool = True) -> int:
    """`sqrl mcp` with these settings: relay to the gateway (starting the services first when
    they are down), or serve in this process."""
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    profile = mcp_profile(settings)
    endpoint = gateway_endpoint(layout)
    if endpoint is not None and read_profile(layout.run) == (endpoint.pid, profile):
        log_event("mcp_relay_serving", port=endpoint.port)
        Relay(layout, token, profile, sys.stdout.buffer).serve(sys.stdin.buffer)
        log_event("mcp_relay_stopped")
        return 0
    starting = endpoint is None and _gateway_running(layout)  # its endpoint follows SERVING
    if endpoint is None and (starting or (autostart and not memory_running(layout))):
        if not starting:
            log_event("services_starting", wait_seconds=AUTOSTART_WAIT_SECONDS)
            start_services_detached()
        local = LocalAnswers(
            load_manifest(),
            allow_writes=settings.bool_("gateway.allow_writes"),
            started=time.monotonic(),
        )
        log_event("mcp_relay_serving", port=None, gateway="starting")
        Relay(layout, token, profile, sys.stdout.buffer, local).serve(sys.stdin.buffer)
        log_event("mcp_relay_stopped")
        return 0
    reason = "no gateway endpoint" if endpoint is None else "the gateway has other settings"
    log_event("mcp_in_process", reason=reason)
    return serve_in_process(settings, autostart=False)


def serve_in_process(settings: Settings, *, autostart: bool) -> int:
    """The MCP SDK server in this process, reaching the memory service over gRPC."""
    import asyncio  # noqa: PLC0415

    from squirrel_gateway.stdio import serve_stdio  # noqa: PLC0415 - the MCP SDK only here

    asyncio.run(serve_stdio(settings, autostart=autostart))
    return 0


def main(argv: Sequence[str]) -> int:
    """`sqrl mcp [--no-autostart]` without the rest of the command line loaded."""
    try:
        settings = load_settings(os.environ)
        return run(settings, autostart="--no-autostart" not in argv)
    except SquirrelError as exc:
        sys.stderr.write(f"sqrl mcp: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # the home cannot be made or written (a read-only disk, a full one)
        where = f": {exc.filename}" if exc.filename else ""
        sys.stderr.write(
            f"sqrl mcp: {exc.strerror or exc}{where}; Squirrel needs a home it can write "
            "(~/.sqrl, or SQRL_HOME)\n"
        )
        return 1
