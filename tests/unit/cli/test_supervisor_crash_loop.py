"""A service that keeps exiting the same way is no longer restarted: after
`supervisor.crash_limit` exits by the same signal or exit code within
`supervisor.crash_window_seconds`, the supervisor leaves it stopped, logs one line and says why in
`sqrl status`; the other services keep running. Real child processes stand for the services:
each serves the gRPC health check and writes its record, and the crashing one then dies by SIGBUS
(as the memory service did when a store's mapped `data.db-shm` was cut under it)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from structlog.testing import capture_logs

from squirrel_cli.crash_loop import CrashLoop, exit_way, given_up_line
from squirrel_cli.supervisor import Supervisor
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import pid_alive
from squirrel_core.settings import load_settings
from tests.stand_in_services import (
    DIE_ONCE_CRASH_FILE_EXISTS,
    NEVER,
    PRELUDE,
    SERVE,
    service_state,
    status_text,
    supervisor_state,
    until,
)

#: A service: serves and writes its record as a real service does, then dies by SIGBUS a moment
#: later whenever its crash file exists.
SERVICE = (
    PRELUDE
    + "name, crash = sys.argv[1], pathlib.Path(sys.argv[2])\n"
    + SERVE
    + DIE_ONCE_CRASH_FILE_EXISTS
)
LIMIT = 3


def _is(layout: HomeLayout, name: str, wanted: str) -> bool:
    return service_state(layout, name) == wanted


def _status_text(layout: HomeLayout) -> str:
    return status_text(layout, supervisor_state(layout))


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
            await until(
                lambda: (
                    (_is(layout, "memory", "serving") and _is(layout, "ingest", "serving"))
                    or run.done()
                )
            )
            assert not run.done()
            ingest = supervisor_state(layout).services["ingest"]
            crash["memory"].touch()  # every memory process from now on dies by SIGBUS
            await until(lambda: _is(layout, "memory", "failed") or run.done())
            assert not run.done()
            memory = supervisor_state(layout).services["memory"]
            assert memory.restarts == LIMIT - 1  # started LIMIT times, then left stopped
            assert memory.last_exit_code == -7 and not pid_alive(memory.pid)
            assert "3 times" in memory.problem and "signal SIGBUS" in memory.problem
            assert "no longer restarted" in memory.problem and "data.db-shm" in memory.problem
            text = _status_text(layout)
            assert "The memory service exited 3 times" in text and "run `sqrl up`" in text
            # The other service was never touched.
            still = supervisor_state(layout).services["ingest"]
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
