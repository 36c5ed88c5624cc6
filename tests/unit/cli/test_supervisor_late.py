"""A service slower than `supervisor.start_timeout_seconds` does not stop the others: `sqrl up`
keeps the ones that serve, says what it still waits for (log, `supervisor.json`, `sqrl status`)
and lets the slow one join once it serves. Real child processes stand for the services: each
serves the standard gRPC health check and writes its service record, one only once the test
opens its gate (a loaded machine, a long migration)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from structlog.testing import capture_logs

from squirrel_cli.commands.services import _late_line, _up_but_late
from squirrel_cli.supervisor import Supervisor
from squirrel_cli.supervisor_state import ServiceState, SupervisorState, read_supervisor_state
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import pid_alive
from squirrel_core.settings import load_settings
from tests import stand_in_services as stand_in

#: A service: waits for its gate file, then serves and writes its record as a real one does.
SERVICE = (
    stand_in.PRELUDE
    + """
name, gate = sys.argv[1], pathlib.Path(sys.argv[2])
while not gate.exists():
    time.sleep(0.02)
"""
    + stand_in.SERVE
    + "server.wait_for_termination()\n"
)


def _late(layout: HomeLayout, name: str) -> bool:
    state = read_supervisor_state(layout.supervisor_file)
    service = state.services.get(name) if state is not None else None
    return service is not None and service.late


def _status_text(layout: HomeLayout) -> str:
    state = stand_in.supervisor_state(layout)
    return stand_in.status_text(
        layout, state, lambda row: "SERVING" if row["state"] == "serving" else "DOWN"
    )


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
            await stand_in.until(
                lambda: (
                    (
                        _late(layout, "ingest")
                        and stand_in.service_state(layout, "memory") == "serving"
                    )
                    or run.done()
                )
            )
            state = stand_in.supervisor_state(layout)
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
            await stand_in.until(
                lambda: stand_in.supervisor_state(layout).services["ingest"].state == "serving"
            )
            joined = stand_in.supervisor_state(layout).services["ingest"]
            assert not joined.late and joined.waits_for == "" and joined.pid == ingest.pid
            assert (
                stand_in.supervisor_state(layout).services["memory"].pid == memory.pid
            )  # never restarted
            assert "not serving yet" not in _status_text(layout)
        finally:
            supervisor._stopping.set()
            assert await asyncio.wait_for(run, stand_in.NEVER) == 0
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
