"""Held ports: refused while held, taken by no one else, and a server of its own binds one."""

from __future__ import annotations

import socket

from bench.held_ports import refusing_port, server_port
from squirrel_core.port_in_use import ensure_free


def _refused(port: int) -> bool:
    with socket.socket() as client:
        client.settimeout(30)
        try:
            client.connect(("127.0.0.1", port))
        except ConnectionRefusedError:
            return True
    return False


def _bindable(port: int, *, reuse: bool, address: str = "127.0.0.1") -> bool:
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family) as sock:
        if reuse:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address, port))
        except OSError:
            return False
    return True


def _has_ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
    except OSError:
        return False
    return True


def test_a_refusing_port_refuses_connections_and_binds() -> None:
    with refusing_port() as port:
        assert _refused(port)
        assert not _bindable(port, reuse=False)  # a probe for a free port passes it by
        assert not _bindable(port, reuse=True)  # and no server can take it
        if _has_ipv6():
            assert not _bindable(port, reuse=True, address="::1")


def test_a_server_port_takes_its_server_and_no_one_else() -> None:
    with server_port() as port:
        assert _refused(port)
        assert not _bindable(port, reuse=False)
        ensure_free(port)  # what a service checks before it binds: nobody listens
        with socket.socket() as server:
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC, Postgres
            server.bind(("127.0.0.1", port))
            server.listen()
            with socket.create_connection(("127.0.0.1", port), timeout=30):
                pass
            assert not _bindable(port, reuse=True)  # a second server while the first runs
        assert _refused(port)  # the server stopped: down again, and still held
        assert not _bindable(port, reuse=False)
