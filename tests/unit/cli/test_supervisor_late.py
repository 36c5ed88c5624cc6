"""A service slower than `supervisor.start_timeout_seconds` does not stop the others: `sqrl up`
keeps the ones that serve, says what it still waits for (log, `supervisor.json`, `sqrl status`)
and lets the slow one join once it serves. Real child processes stand for the services: each
serves the standard gRPC health check and writes its service record, one only once the test
opens its gate (a loaded machine, a long migration)."""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Callable
from pathlib import Path

from structlog.testing import capture_logs

from squirrel_cli.commands.services import _late_line, _up_but_late
from squirrel_cli.console import Console
from squirrel_cli.status_view import print_status, service_rows
from squirrel_cli.supervisor import Supervisor
from squirrel_cli.supervisor_state import ServiceState, SupervisorState, read_supervisor_state
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import pid_alive
from squirrel_core.settings import load_settings

#: A service: waits for its gate file, then serves gRPC health (SERVING) on a free loopback
#: port and writes `<home>/run/<name>-service.json` as a real service does.
SERVICE = """
import json, os, pathlib, sys, time
from concurrent import futures
import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
name, gate = sys.argv[1], pathlib.Path(sys.argv[2])
while not gate.exists():
    time.sleep(0.02)
server = grpc.server(futures.ThreadPoolExecutor(2))
checks = health.HealthServicer()
checks.set("", health_pb2.HealthCheckResponse.SERVING)
health_pb2_grpc.add_HealthServicer_to_server(checks, server)
port = server.add_insecure_port("127.0.0.1:0")
server.start()
record = pathlib.Path(os.environ["SQRL_HOME"]) / "run" / f"{name}-service.json"
tmp = record.with_suffix(".tmp")
tmp.write_text(json.dumps({"name": name, "pid": os.getpid(), "host": "127.0.0.1", "port": port,
                           "started_at": time.time()}))
tmp.rename(record)
server.wait_for_termination()
"""
#: A safety net for a test that would otherwise hang: never a measure of speed.
NEVER = 120.0


async def _until(check: Callable[[], bool]) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), NEVER)


def _state(layout: HomeLayout) -> SupervisorState:
    state = read_supervisor_state(layout.supervisor_file)
    assert state is not None
    return state


def _late(layout: HomeLayout, name: str) -> bool:
    state = read_supervisor_state(layout.supervisor_file)
    service = state.services.get(name) if state is not None else None
    return service is not None and service.late


def _serving(layout: HomeLayout, name: str) -> bool:
    state = read_supervisor_state(layout.supervisor_file)
    service = state.services.get(name) if state is not None else None
    return service is not None and service.state == "serving"


def _status_text(layout: HomeLayout) -> str:
    rows, _ = service_rows(layout, _state(layout))
    for row in rows:
        row["health"] = "SERVING" if row["state"] == "serving" else "DOWN"
    data = {
        "home": str(layout.root),
        "memory": {"text": "local"},
        "supervisor_pid": 1,
        "services": rows,
        "projects": [],
        "ingest": None,
        "hooks": {},
        "embedding_model": {"problem": None},
    }
    out = io.StringIO()
    print_status(data, {}, Console(out))
    return out.getvalue()


async def test_a_service_slower_than_the_start_timeout_joins_late_and_the_others_keep_running(
    tmp_path: Path,
) -> None:
    home = tmp_path / "sqrl"
    settings = load_settings({"SQRL_HOME": str(home), "SQRL_SUPERVISOR_START_TIMEOUT_SECONDS": "1"})
    layout = HomeLayout(home)
    gates = {name: tmp_path / f"{name}-may-serve" for name in ("memory", "ingest")}
    gates["memory"].touch()  # memory serves at once; ingest waits for the test

    def command(name: str) -> list[str]:
        return [sys.executable, "-c", SERVICE, name, str(gates[name])]

    supervisor = Supervisor(settings, {}, services=("memory", "ingest"), command=command)
    with capture_logs() as logs:
        run = asyncio.create_task(supervisor.run())
        try:
            # (on a loaded machine memory may be late too: it then joins as ingest will)
            await _until(
                lambda: (_late(layout, "ingest") and _serving(layout, "memory")) or run.done()
            )
            state = _state(layout)
            memory, ingest = state.services["memory"], state.services["ingest"]
            assert not run.done()  # the supervisor did not give up on everything
            assert memory.state == "serving" and pid_alive(memory.pid)
            assert ingest.state == "starting" and pid_alive(ingest.pid)
            assert "ingest-service.json" in ingest.waits_for
            text = _status_text(layout)
            assert "The ingest service is not serving yet, past the start timeout" in text
            assert "ingest-service.json" in text
            assert "memory service is not serving" not in text

            gates["ingest"].touch()
            await _until(lambda: _state(layout).services["ingest"].state == "serving")
            joined = _state(layout).services["ingest"]
            assert not joined.late and joined.waits_for == "" and joined.pid == ingest.pid
            assert _state(layout).services["memory"].pid == memory.pid  # never restarted
            assert "not serving yet" not in _status_text(layout)
        finally:
            supervisor._stopping.set()
            assert await asyncio.wait_for(run, NEVER) == 0
    late = {e["service"]: e for e in logs if e["event"] == "service_late"}
    assert late["ingest"]["keeps_waiting"] is True
    assert "ingest-service.json" in late["ingest"]["waits_for"]
    ready = {e["service"]: e["late"] for e in logs if e["event"] == "service_ready"}
    assert set(ready) == {"memory", "ingest"} and ready["ingest"] is True
    up = next(e for e in logs if e["event"] == "services_up")
    assert "ingest" in up["still_starting"] and "ingest" not in up["services"]
    assert not pid_alive(ingest.pid) and not pid_alive(memory.pid)


def test_a_detached_up_returns_once_the_others_serve_naming_the_late_one() -> None:
    state = SupervisorState(pid=7, started_at=0.0)
    for name in ("memory", "ingest", "gateway"):
        state.services[name] = ServiceState(name=name, state="serving", port=1)
    assert not _up_but_late(state)  # all serving: the usual line
    state.services["gateway"] = ServiceState(name="gateway", state="starting")
    assert not _up_but_late(state)  # within the start timeout: still waited for
    state.services["gateway"].late = True
    state.services["gateway"].waits_for = "its record gateway-service.json"
    assert _up_but_late(state)
    line = _late_line(7, state)
    assert "gateway service is still starting" in line
    assert "gateway-service.json" in line and "memory :1" in line
