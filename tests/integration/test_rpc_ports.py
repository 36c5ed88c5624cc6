"""Which loopback port a service binds: the one configured (refused when taken), else the one
it had before a restart when still free, else any free one."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.held_ports import server_port
from squirrel_core.port_in_use import PORT_IN_USE_EXIT_CODE, PortInUseError
from squirrel_core.rpc import GrpcService
from tests.service_exit import events as stderr_events
from tests.service_exit import run_to_exit


@pytest.fixture
def taken() -> Iterator[int]:
    """A loopback port some other program listens on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


async def _bound(tmp_path: Path, port: int, preferred: int = 0) -> int:
    service = GrpcService(
        "memory", "t" * 32, port, tmp_path / "memory.json", preferred_port=preferred
    )
    try:
        return await service.start()
    finally:
        await service.server.stop(None)


async def test_a_configured_port_in_use_is_a_clear_refusal(tmp_path: Path, taken: int) -> None:
    with pytest.raises(PortInUseError, match=rf"could not bind 127\.0\.0\.1:{taken}: it is in use"):
        await _bound(tmp_path, taken)


@pytest.mark.parametrize(
    ("service", "setting"), [("ingest", "ingest.port"), ("gateway", "gateway.mcp_http_port")]
)
def test_a_service_whose_port_is_in_use_exits_with_one_event_and_no_traceback(
    tmp_path: Path, taken: int, service: str, setting: str
) -> None:
    variable = "SQRL_" + setting.upper().replace(".", "_")
    done = run_to_exit(service, tmp_path / "home", **{variable: str(taken)})
    assert done.returncode == PORT_IN_USE_EXIT_CODE
    events = stderr_events(done.stderr)  # only JSON: no traceback
    assert [(e["event"], e["level"]) for e in events if e["level"] == "error"] == [
        ("port_in_use", "error")
    ]
    assert events[-1] == {**events[-1], "service": service, "port": taken, "setting": setting}


async def test_a_configured_port_wins_over_the_preferred_one(tmp_path: Path) -> None:
    with server_port() as configured, server_port() as preferred:
        assert await _bound(tmp_path, configured, preferred) == configured


async def test_the_port_of_before_a_restart_is_taken_again_when_free(
    tmp_path: Path, server_port: int
) -> None:
    assert await _bound(tmp_path, 0, server_port) == server_port


async def test_a_preferred_port_in_use_gives_way_to_any_free_one(
    tmp_path: Path, taken: int
) -> None:
    port = await _bound(tmp_path, 0, taken)
    assert port not in (0, taken)
