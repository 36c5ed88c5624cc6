"""A configured port that another process holds: the service's exit code and the one line that
tells the user which setting to change."""

from __future__ import annotations

import errno
import socket
from typing import Final

from squirrel_core.service_info import LOOPBACK

PORT_IN_USE_EXIT_CODE: Final = 3
"""How a service exits when the port it was told to bind is taken (a start that cannot succeed
until the setting changes or the other process goes)."""


class PortInUseError(OSError):
    """The configured loopback port is taken by another process; `setting` names it when it is
    not the service's gRPC port."""

    def __init__(self, port: int, setting: str | None = None) -> None:
        super().__init__(f"could not bind {LOOPBACK}:{port}: it is in use")
        self.port = port
        self.setting = setting


def ensure_free(port: int, setting: str | None = None) -> None:
    """Raises `PortInUseError` when a process listens on the loopback `port` (bound as gRPC
    binds it, with SO_REUSEADDR, and let go at once)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((LOOPBACK, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise PortInUseError(port, setting) from None
            raise


PORT_SETTINGS: Final = {
    "memory": ("memory.port",),
    "ingest": ("ingest.port",),
    "gateway": ("gateway.port", "gateway.mcp_http_port"),
}
"""The settings that give each service a fixed loopback port."""


def port_setting(service: str) -> str:
    """The setting that names `service`'s gRPC port."""
    return f"{service}.port"


def port_in_use_line(service: str, port: int, setting: str) -> str:
    """What `sqrl up` and `sqrl status` say about a service whose configured port is taken."""
    return (
        f"The {service} service cannot listen on {LOOPBACK}:{port}: another process uses the port;"
        f" set `{setting}` in config.toml to a free port (0: any free port) or stop that process"
    )


def taken_setting(configured: dict[str, int]) -> tuple[str, int] | None:
    """Of a service's configured ports (setting -> port, 0s left out), the first one another
    process listens on now."""
    for setting, port in configured.items():
        try:
            ensure_free(port)
        except PortInUseError:
            return setting, port
        except OSError:
            continue
    return None
