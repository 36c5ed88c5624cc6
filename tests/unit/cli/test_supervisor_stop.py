"""How `sqrl up` stops a service: SIGTERM, the configured grace to exit, then a kill, each said
in one log line. A real child process stands for a service still busy (a model loading) that
ignores SIGTERM until it is done."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from squirrel_cli.supervisor import Supervisor
from squirrel_cli.supervisor_state import ServiceState
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.settings import load_settings

#: Ignores SIGTERM (noting it), then exits 0 once the file `done` exists or, when a number of
#: seconds is given, once that long has passed since SIGTERM (a load ending by itself).
BUSY_CHILD = """
import pathlib, signal, sys, time
folder = pathlib.Path(sys.argv[1])
busy = float(sys.argv[2])
asked = []
def note(*_):
    asked.append(time.monotonic())
    (folder / "asked").touch()
signal.signal(signal.SIGTERM, note)
(folder / "ready").touch()
while not (folder / "done").exists():
    if busy and asked and time.monotonic() - asked[0] > busy:
        break
    time.sleep(0.02)
"""
#: A safety net for a test that would otherwise hang: never a measure of speed.
NEVER = 120.0


async def _until(check: Path) -> None:
    while not check.exists():
        await asyncio.sleep(0.02)


async def _supervised_child(
    tmp_path: Path, grace: str, busy: float = 0.0
) -> tuple[Supervisor, Path]:
    settings = load_settings(
        {"SQRL_HOME": str(tmp_path / "sqrl"), "SQRL_SUPERVISOR_STOP_GRACE_SECONDS": grace}
    )
    supervisor = Supervisor(settings, {}, services=("memory",))
    folder = tmp_path / "child"
    folder.mkdir()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", BUSY_CHILD, str(folder), str(busy)
    )
    supervisor._procs["memory"] = proc
    supervisor._state.services["memory"] = ServiceState(name="memory", pid=proc.pid)
    await asyncio.wait_for(_until(folder / "ready"), NEVER)
    return supervisor, folder


async def test_a_service_busy_past_sigterm_is_given_the_configured_grace(
    tmp_path: Path,
) -> None:
    # busy for a while after SIGTERM (a model load ending), then exits by itself
    supervisor, folder = await _supervised_child(tmp_path, "600", busy=2.0)
    with capture_logs() as logs:
        await asyncio.wait_for(supervisor._terminate("memory"), NEVER)

    assert (folder / "asked").exists()
    assert supervisor._procs["memory"].returncode == 0  # exited, not killed
    said = [e for e in logs if e["event"] == "service_stopping"]
    assert [(e["service"], e["kills_after_s"]) for e in said] == [("memory", 600.0)]
    assert not any(e["event"] == "service_killed" for e in logs)
    assert supervisor._state.services["memory"].state == "stopped"


async def test_a_service_still_running_after_the_grace_is_killed(tmp_path: Path) -> None:
    supervisor, folder = await _supervised_child(tmp_path, "1")
    with capture_logs() as logs:
        await asyncio.wait_for(supervisor._terminate("memory"), NEVER)

    assert (folder / "asked").exists()
    assert supervisor._procs["memory"].returncode == -signal.SIGKILL
    assert [e["event"] for e in logs] == ["service_stopping", "service_killed"]


def test_the_grace_is_a_bounded_setting(tmp_path: Path) -> None:
    home = str(tmp_path / "sqrl")
    assert load_settings({"SQRL_HOME": home}).float_("supervisor.stop_grace_seconds") == 60.0
    with pytest.raises(InvalidArgumentError):
        load_settings({"SQRL_HOME": home, "SQRL_SUPERVISOR_STOP_GRACE_SECONDS": "0"})
