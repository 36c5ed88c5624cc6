"""The gateway's HTTP socket, bound on loopback before the libraries that serve it are loaded."""

from __future__ import annotations

import errno
import socket

from squirrel_core.port_in_use import PortInUseError
from squirrel_core.service_info import LOOPBACK


def bind_loopback(port: int, setting: str | None = None) -> socket.socket:
    """A TCP socket bound to 127.0.0.1:`port` (0: any free port); a taken port is
    `PortInUseError` (naming `setting`, the one that configured it), other failures `OSError`."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((LOOPBACK, port))
    except OSError as exc:
        sock.close()
        if port and exc.errno == errno.EADDRINUSE:
            raise PortInUseError(port, setting) from None
        raise
    return sock
