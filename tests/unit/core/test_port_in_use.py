"""Which configured port is taken, and the line that names it."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from squirrel_core.port_in_use import PortInUseError, ensure_free, port_in_use_line, taken_setting


@pytest.fixture
def listening() -> Iterator[int]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


@pytest.fixture
def free(server_port: int) -> int:
    """A port nothing listens on, held for the test so no other program takes it meanwhile."""
    return server_port


def test_a_listened_port_is_refused_naming_its_setting(listening: int) -> None:
    with pytest.raises(PortInUseError) as refused:
        ensure_free(listening, "gateway.mcp_http_port")
    assert (refused.value.port, refused.value.setting) == (listening, "gateway.mcp_http_port")


def test_a_free_port_passes(free: int) -> None:
    ensure_free(free)


def test_the_taken_one_of_two_configured_ports_is_found(listening: int, free: int) -> None:
    configured = {"gateway.port": free, "gateway.mcp_http_port": listening}
    assert taken_setting(configured) == ("gateway.mcp_http_port", listening)


def test_no_taken_port_is_none(free: int) -> None:
    assert taken_setting({"memory.port": free}) is None
    assert taken_setting({}) is None


def test_the_line_names_service_address_and_setting() -> None:
    line = port_in_use_line("memory", 50051, "memory.port")
    assert line.startswith("The memory service cannot listen on 127.0.0.1:50051:")
    assert "`memory.port`" in line
