"""TCP ports held for the length of a `with` block, so no other process can take them meanwhile.

Tests and benches run beside others (pytest-xdist workers, other test runs on the machine). A
port picked as free and let go ("nobody listens there", "the server starts there later") can be
bound by any of them before it is used: a test that wanted a refusal then reached someone else's
server, or its own server could not start. A port held here is bound, never listened on, by a
socket on every address (IPv4 and IPv6 where the machine has it): connecting to it is refused at
once, and neither a bind of port 0 nor an outgoing connection's local port can be given it.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager


def _holder(shared: bool) -> socket.socket:
    """A socket bound to a port the kernel chooses on every local address, not listening."""
    try:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    except OSError:
        sock = None
    if sock is not None:
        try:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # IPv4 as well
            if shared:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("::", 0))
            return sock
        except OSError:
            sock.close()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # a machine without IPv6
    try:
        if shared:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("0.0.0.0", 0))
    except OSError:
        sock.close()
        raise
    return sock


@contextmanager
def refusing_port() -> Iterator[int]:
    """A port that refuses every connection for the block, and that nobody else can bind: the
    address of a server that is down and stays down."""
    with _holder(shared=False) as sock:
        yield int(sock.getsockname()[1])


@contextmanager
def server_port() -> Iterator[int]:
    """A port for a server the block starts (and may stop and start again) on 127.0.0.1. The
    server binds it beside the held socket, as gRPC and Postgres bind (with SO_REUSEADDR); while
    no server listens, connecting is refused. Nobody else takes it meanwhile: a probe for a free
    port (a bind without SO_REUSEADDR) is refused, and a bind of port 0 is never given a port
    that a socket holds. (SO_REUSEADDR lets two sockets share a port, on Linux, only while
    neither listens, so a second server cannot bind it while the first runs.)"""
    with _holder(shared=True) as sock:
        yield int(sock.getsockname()[1])
