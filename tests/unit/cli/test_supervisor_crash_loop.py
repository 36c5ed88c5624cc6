"""A service that keeps exiting the same way is no longer restarted: after
`supervisor.crash_limit` exits by the same signal or exit code within
`supervisor.crash_window_seconds`, the supervisor leaves it stopped, logs one line and says why in
`sqrl status`; the other services keep running. Real child processes stand for the services:
each serves the gRPC health check and writes its record, and the crashing one then dies by SIGBUS
(as the memory service did when a store's mapped `data.db-shm` was cut under it)."""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Callable
from pathlib import Path

from structlog.testing import capture_logs

from squirrel_cli.console import Console
from squirrel_cli.crash_loop import CrashLoop, exit_way, given_up_line
from squirrel_cli.status_view import print_status, service_rows
from squirrel_cli.supervisor import Supervisor
from squirrel_cli.supervisor_state import SupervisorState, read_supervisor_state
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import pid_alive
from squirrel_core.settings import load_settings

#: A service: serves gRPC health (SERVING) on a free loopback port, writes its record as a real
#: service does, then dies by SIGBUS a moment later whenever its crash file exists.
SERVICE = """
import json, os, pathlib, signal, sys, time
from concurrent import futures
import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
name, crash = sys.argv[1], pathlib.Path(sys.argv[2])
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
while not crash.exists():
    time.sleep(0.02)
time.sleep(0.2)
os.kill(os.getpid(), signal.SIGBUS)
"""
#: A safety net for a test that would otherwise hang: never a measure of speed.
NEVER = 120.0
LIMIT = 3


async def _until(check: Callable[[], bool]) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), NEVER)


def _state(layout: HomeLayout) -> SupervisorState:
    state = read_supervisor_state(layout.supervisor_file)
    assert state is not None
    return state


def _is(layout: HomeLayout, name: str, wanted: str) -> bool:
    state = read_supervisor_state(layout.supervisor_file)
    service = state.services.get(name) if state is not None else None
    return service is not None and service.state == wanted


def _status_text(layout: HomeLayout) -> str:
    rows, _ = service_rows(layout, _state(layout))
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


async def test_a_service_crashing_the_same_way_is_left_stopped_saying_why(tmp_path: Path) -> None:
    home = tmp_path / "sqrl"
    settings = load_settings(
        {
            "SQRL_HOME": str(home),
            "SQRL_SUPERVISOR_CRASH_LIMIT": str(LIMIT),
            "SQRL_SUPERVISOR_MAX_BACKOFF_SECONDS": "0.1",
        }
    )
    layout = HomeLayout(home)
    crash = {name: tmp_path / f"{name}-crashes" for name in ("memory", "ingest")}

    def command(name: str) -> list[str]:
        return [sys.executable, "-c", SERVICE, name, str(crash[name])]

    supervisor = Supervisor(settings, {}, services=("memory", "ingest"), command=command)
    with capture_logs() as logs:
        run = asyncio.create_task(supervisor.run())
        try:
            await _until(
                lambda: (
                    (_is(layout, "memory", "serving") and _is(layout, "ingest", "serving"))
                    or run.done()
                )
            )
            assert not run.done()
            ingest = _state(layout).services["ingest"]
            crash["memory"].touch()  # every memory process from now on dies by SIGBUS
            await _until(lambda: _is(layout, "memory", "failed") or run.done())
            assert not run.done()
            memory = _state(layout).services["memory"]
            assert memory.restarts == LIMIT - 1  # started LIMIT times, then left stopped
            assert memory.last_exit_code == -7 and not pid_alive(memory.pid)
            assert "3 times" in memory.problem and "signal SIGBUS" in memory.problem
            assert "no longer restarted" in memory.problem and "data.db-shm" in memory.problem
            text = _status_text(layout)
            assert "The memory service exited 3 times" in text and "run `sqrl up`" in text
            # The other service was never touched.
            still = _state(layout).services["ingest"]
            assert still.state == "serving" and still.pid == ingest.pid and pid_alive(ingest.pid)
        finally:
            supervisor._stopping.set()
            assert await asyncio.wait_for(run, NEVER) == 0
    given_up = [e for e in logs if e["event"] == "service_given_up"]
    assert len(given_up) == 1
    assert given_up[0]["service"] == "memory" and given_up[0]["exit"] == "signal SIGBUS"
    assert given_up[0]["times"] == LIMIT
    exited = [e for e in logs if e["event"] == "service_exited" and e["service"] == "memory"]
    assert len(exited) == LIMIT - 1  # each restart logged with its wait; the last one not
    assert not pid_alive(ingest.pid)


def test_only_exits_the_same_way_within_the_window_count() -> None:
    loop = CrashLoop(limit=3, window=60.0)
    assert loop.exited(-7, 0.0) == 1
    assert loop.exited(1, 1.0) == 1  # another way: counted apart
    assert loop.exited(-7, 30.0) == 2
    assert loop.exited(-7, 70.0) == 2  # the first SIGBUS fell out of the window
    assert loop.exited(-7, 71.0) == 3
    assert loop.span(-7) == 41.0


def test_the_line_names_how_it_exited_and_what_to_do(tmp_path: Path) -> None:
    assert exit_way(3) == "exit code 3" and exit_way(-9) == "signal SIGKILL"
    assert exit_way(-200) == "signal 200"
    log = tmp_path / "memory.log"
    line = given_up_line("memory", 2, 5, 40.2, log)
    assert line.startswith("The memory service exited 5 times in 40 s the same way, exit code 2;")
    assert str(log) in line and "then run `sqrl up` (it starts the service again" in line
    assert "data.db-shm" in given_up_line("memory", -7, 5, 40.0, log)
