"""`sqrl up` while the supervisor runs and has given up on a service (it exited the same way
`supervisor.crash_limit` times) starts that service again under the running supervisor, with a
fresh crash count, and says so in one line: that it serves, or the supervisor's line when it is
given up on again. Before, it said "already running" and left the service stopped until
`sqrl down` and `sqrl up -d`. Real processes: a supervisor of two stand-in services (they serve
gRPC health and write their records; the memory one dies by SIGBUS while its crash file exists)
and the real `sqrl up -d`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from squirrel_core.home import HomeLayout
from squirrel_core.service_info import pid_alive
from tests.stand_in_services import (
    DIE_ONCE_CRASH_FILE_EXISTS,
    NEVER,
    PRELUDE,
    SERVE,
    service_state,
    start_supervisor,
    supervisor_state,
)

#: A service: dies by SIGBUS at once while its crash file exists (a cause still there at
#: start); otherwise serves and writes its record as a real service does, and dies by SIGBUS a
#: moment after the crash file appears.
SERVICE = (
    PRELUDE
    + """
name, crash = sys.argv[1], pathlib.Path(sys.argv[2])
if crash.exists():
    os.kill(os.getpid(), signal.SIGBUS)
"""
    + SERVE
    + DIE_ONCE_CRASH_FILE_EXISTS
)
LIMIT = 3


def _until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + NEVER
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[dict[str, str], HomeLayout, Path]]:
    home = tmp_path / "sqrl"
    env = {
        **os.environ,
        "SQRL_HOME": str(home),
        "SQRL_SUPERVISOR_CRASH_LIMIT": str(LIMIT),
        "SQRL_SUPERVISOR_MAX_BACKOFF_SECONDS": "0.1",
    }
    layout = HomeLayout(home)
    log = (tmp_path / "supervisor.log").open("wb")
    proc = start_supervisor(SERVICE, env, log, str(tmp_path / "{name}-crashes"))
    try:
        _until(lambda: proc.poll() is not None or service_state(layout, "ingest") == "serving")
        assert proc.poll() is None
        yield env, layout, tmp_path
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(NEVER)
        log.close()


def _up(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    sqrl = Path(sys.executable).with_name("sqrl")
    return subprocess.run(
        [str(sqrl), "up", "-d"], env=env, capture_output=True, text=True, timeout=NEVER
    )


def test_sqrl_up_starts_a_service_given_up_on_again_under_the_running_supervisor(
    running: tuple[dict[str, str], HomeLayout, Path],
) -> None:
    env, layout, folder = running
    crash = folder / "memory-crashes"
    _until(lambda: service_state(layout, "memory") == "serving")
    ingest = supervisor_state(layout).services["ingest"].pid
    crash.touch()  # every memory process from now on dies by SIGBUS
    _until(lambda: service_state(layout, "memory") == "failed")
    given_up = supervisor_state(layout).services["memory"]
    assert "no longer restarted" in given_up.problem and "`sqrl up`" in given_up.problem

    # The cause is still there: started again, given up on again, and said in one line.
    still = _up(env)
    assert still.returncode == 1, still
    lines = still.stderr.strip().splitlines()
    assert len(lines) == 1 and "The memory service exited 3 times" in lines[0], still
    assert service_state(layout, "memory") == "failed"

    crash.unlink()  # the cause fixed
    fixed = _up(env)
    assert fixed.returncode == 0, fixed
    assert fixed.stdout.startswith("Started the memory service again under the running"), fixed
    assert len(fixed.stdout.strip().splitlines()) == 1
    memory = supervisor_state(layout).services["memory"]
    assert memory.state == "serving" and pid_alive(memory.pid) and not memory.problem
    # The supervisor and the other service were never touched.
    assert supervisor_state(layout).services["ingest"].pid == ingest and pid_alive(ingest)

    # Nothing failed: `sqrl up` says it is already running, as before.
    again = _up(env)
    assert again.returncode == 0 and "already running" in again.stdout, again
    assert supervisor_state(layout).services["memory"].pid == memory.pid


def test_a_supervisor_that_takes_no_retry_signal_is_not_sent_one(tmp_path: Path) -> None:
    """A supervisor from before the retry (its `supervisor.json` names no signal, nor a version)
    would be killed by SIGUSR1: it is left alone, and `sqrl up` says it is an earlier Squirrel
    and to restart everything instead."""
    home = tmp_path / "sqrl"
    (home / "run").mkdir(parents=True)
    older = subprocess.Popen(["sleep", "120"])
    try:
        failed = {"name": "memory", "pid": 0, "state": "failed", "problem": "gave up"}
        (home / "run" / "supervisor.json").write_text(
            json.dumps({"pid": older.pid, "started_at": 0, "services": {"memory": failed}})
        )
        done = _up({**os.environ, "SQRL_HOME": str(home)})
        assert done.returncode == 1, done
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "an earlier Squirrel is still running" in lines[0], done
        assert "`sqrl down`, then `sqrl up -d`" in lines[0]
        assert older.poll() is None  # not signalled
    finally:
        older.kill()
        older.wait()
