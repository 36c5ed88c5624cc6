"""Stand-in services for the supervisor's tests: real child processes that serve the standard
gRPC health check (SERVING) on a free loopback port and write their service record as a real
service does; what each does before and after is the test's own. Also the supervisor's state as
a test reads it, and the `sqrl status` text of a home's services."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

from squirrel_cli.console import Console
from squirrel_cli.status_view import print_status, service_rows
from squirrel_cli.supervisor_state import SupervisorState, read_supervisor_state
from squirrel_core.home import HomeLayout

#: A stand-in's first lines: what it imports (`name` and its file come from argv after them).
PRELUDE = """
import json, os, pathlib, signal, sys, time
from concurrent import futures
"""
#: Serve gRPC health on a free loopback port, then write `<home>/run/<name>-service.json`.
SERVE = """
import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
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
"""
#: Die by SIGBUS a moment after the file `crash` appears (as the memory service did when a
#: store's mapped `data.db-shm` was cut under it).
DIE_ONCE_CRASH_FILE_EXISTS = """
while not crash.exists():
    time.sleep(0.02)
time.sleep(0.2)
os.kill(os.getpid(), signal.SIGBUS)
"""
#: A safety net for a test that would otherwise hang: never a measure of speed.
NEVER = 120.0
#: The supervisor, run as `sqrl up` runs it, over two stand-in services (memory, ingest): each
#: runs the script argv[1] as `script NAME ARGS…`, ARGS being argv[2:] with `{name}` made NAME.
SUPERVISOR = """
import asyncio, os, sys
from squirrel_cli.supervisor import Supervisor
from squirrel_core.logs import configure_logging
from squirrel_core.settings import load_settings
service, args = sys.argv[1], sys.argv[2:]
def command(name):
    return [sys.executable, "-c", service, name, *(a.replace("{name}", name) for a in args)]
configure_logging("supervisor", "info", json=True)
settings = load_settings(os.environ)
sys.exit(asyncio.run(Supervisor(settings, os.environ, ("memory", "ingest"), command).run()))
"""


def start_supervisor(
    service: str, env: Mapping[str, str], log: IO[bytes] | int, *args: str
) -> subprocess.Popen[bytes]:
    """`SUPERVISOR` over stand-ins running `service` (with `args`), its output into `log`."""
    return subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, service, *args],
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
    )


async def until(check: Callable[[], bool]) -> None:
    """Return once `check()` holds (polled; `NEVER` seconds at the most)."""

    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), NEVER)


def supervisor_state(layout: HomeLayout) -> SupervisorState:
    """The state the supervisor last wrote (there must be one)."""
    state = read_supervisor_state(layout.supervisor_file)
    assert state is not None
    return state


def service_state(layout: HomeLayout, name: str) -> str:
    """The state the supervisor last wrote for service `name` ("" when it wrote none)."""
    state = read_supervisor_state(layout.supervisor_file)
    service = state.services.get(name) if state is not None else None
    return service.state if service is not None else ""


def status_text(
    layout: HomeLayout,
    state: SupervisorState | None,
    health: Callable[[Mapping[str, Any]], str] | None = None,
) -> str:
    """What `sqrl status` prints of `layout`'s services under `state`, each service's health
    check answering `health(row)` (None: as `service_rows` leaves it)."""
    rows, _ = service_rows(layout, state)
    if health is not None:
        for row in rows:
            row["health"] = health(row)
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
