"""`sqrl up` and `sqrl down` while a supervisor runs.

`<home>/run` deleted while the services run (by hand, by a cleaner of temporary files): the
supervisor writes its records again, `sqrl up` says Squirrel is already running instead of
starting a second set of services beside the first, and `sqrl down` stops them. Before, the
lock that kept one supervisor per home was a file in `run/` and went with it: `sqrl down` said
"Squirrel is not running" and left them all running, and `sqrl up` started another set. Real
processes: a supervisor of two stand-in services (they serve gRPC health and write their
records) and the real `sqrl up` and `sqrl down`.

`sqrl up` in the foreground while Squirrel runs said "already running" as an error and exited
1, where `sqrl up -d` said it as news and exited 0: both exit 0 with the same line (a systemd
unit with `Restart=on-failure` running `sqrl up` after a `sqrl up -d` no longer restarts it
every few seconds).

Two `sqrl up -d` at once (two hosts starting `sqrl mcp` together): the one whose supervisor
found the home taken failed with "`sqrl up` exited with code 1; see …supervisor.log". It waits
for the other's services, and says they are up.

Stopped while its services were still starting (`sqrl down` right after a `sqrl up -d` that
was interrupted), the supervisor first waited for them to serve, up to the start timeout
(60 s by default, per service): it stops them at once."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from squirrel_cli.home_lock import HomeLock, home_in_use
from squirrel_cli.supervisor_state import running_supervisor
from squirrel_core.errors import FailedPreconditionError
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import pid_alive, read_service_info
from tests.stand_in_services import (
    NEVER,
    PRELUDE,
    SERVE,
    service_state,
    start_supervisor,
    supervisor_state,
)

#: A stand-in service: serves and writes its record as a real service does, until stopped.
SERVICE = PRELUDE + "name = sys.argv[1]\n" + SERVE + "signal.pause()\n"


def _until(check: Callable[[], object]) -> None:
    deadline = time.monotonic() + NEVER
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def _processes_of(home: Path) -> list[psutil.Process]:
    """Every live process started with this test's home."""
    found = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if proc.environ().get("SQRL_HOME") == str(home) and proc.status() != "zombie":
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[dict[str, str], HomeLayout, int]]:
    home = tmp_path / "sqrl"
    env = {**os.environ, "SQRL_HOME": str(home), "HOME": str(tmp_path)}
    layout = HomeLayout(home)
    log = (tmp_path / "supervisor.log").open("wb")
    proc = start_supervisor(SERVICE, env, log)
    try:
        _until(lambda: proc.poll() is not None or service_state(layout, "ingest") == "serving")
        _until(lambda: proc.poll() is not None or service_state(layout, "memory") == "serving")
        assert proc.poll() is None
        yield env, layout, proc.pid
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(NEVER)
        log.close()
        for leftover in _processes_of(home):  # whatever a failed check left running
            leftover.kill()


def _sqrl(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=NEVER,
    )


def test_the_supervisor_writes_its_deleted_records_again(
    running: tuple[dict[str, str], HomeLayout, int],
) -> None:
    _, layout, pid = running
    memory = supervisor_state(layout).services["memory"]
    shutil.rmtree(layout.run)

    _until(lambda: read_service_info(layout.service_file("memory")))
    assert supervisor_state(layout).pid == pid
    again = read_service_info(layout.service_file("memory"))
    assert again is not None and (again.pid, again.port) == (memory.pid, memory.port)


def test_up_and_down_find_services_whose_run_folder_was_deleted(
    running: tuple[dict[str, str], HomeLayout, int],
) -> None:
    env, layout, pid = running
    services = [s.pid for s in supervisor_state(layout).services.values()]
    shutil.rmtree(layout.run)

    up = _sqrl(env, "up", "--detach")
    assert up.returncode == 0, up
    assert up.stdout.strip() == f"Squirrel is already running (supervisor pid {pid}).", up
    assert sorted(p.pid for p in _processes_of(layout.root)) == sorted([pid, *services])

    shutil.rmtree(layout.run)
    down = _sqrl(env, "down")
    assert down.returncode == 0, down
    assert down.stdout.strip() == "Squirrel stopped.", down
    assert not any(pid_alive(p) for p in [pid, *services])


def test_a_held_home_whose_record_never_comes_back_is_one_refusal(tmp_path: Path) -> None:
    """A supervisor that holds the home but does not write its record again (one of an earlier
    version, or hung): named in one line, not taken for a home where nothing runs."""
    layout = HomeLayout(tmp_path / "sqrl").ensure()
    lock = HomeLock(layout.root)
    assert lock.acquire()
    try:
        assert home_in_use(layout.root)
        with pytest.raises(FailedPreconditionError, match="holds"):
            running_supervisor(layout, wait=0.2)
    finally:
        lock.release()
    assert not home_in_use(layout.root)
    assert running_supervisor(layout, wait=0.2) is None


def test_up_in_the_foreground_while_running_exits_0_as_detached_up_does(
    running: tuple[dict[str, str], HomeLayout, int],
) -> None:
    env, _, pid = running
    detached = _sqrl(env, "up", "--detach")
    foreground = _sqrl(env, "up")
    for done in (detached, foreground):
        assert done.returncode == 0, done
        assert done.stdout.strip() == f"Squirrel is already running (supervisor pid {pid}).", done
        assert done.stderr == "", done


#: A supervisor that won the home a moment before ours: holds its lock, records its services
#: as serving, and runs until killed.
WINNER = """
import json, os, pathlib, sys, time
from squirrel_cli.home_lock import HomeLock
home = pathlib.Path(sys.argv[1])
assert HomeLock(home).acquire()
services = {n: {"name": n, "pid": os.getpid(), "port": 1, "state": "serving"}
            for n in ("memory", "ingest", "gateway")}
record = home / "run" / "supervisor.json"
record.parent.mkdir(parents=True, exist_ok=True)
(home / "run" / "tmp.json").write_text(
    json.dumps({"pid": os.getpid(), "started_at": time.time(), "services": services}))
(home / "run" / "tmp.json").rename(record)
time.sleep(120)
"""


def test_two_detached_ups_at_once_both_say_it_is_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from squirrel_cli import main as cli_main  # noqa: PLC0415 - the command under test
    from squirrel_cli.commands import services  # noqa: PLC0415

    home = tmp_path / "home"
    real_popen = subprocess.Popen
    started: list[subprocess.Popen[bytes]] = []

    def supervisor(args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        if "squirrel_cli.supervise" not in args:
            return real_popen(args, **kwargs)
        started.append(real_popen([sys.executable, "-c", WINNER, str(home)]))
        _until((home / "run" / "supervisor.json").exists)
        lost = "import sys; sys.exit(1)"  # ours: the home was taken (its log says so)
        started.append(real_popen([sys.executable, "-c", lost], **kwargs))
        return started[-1]

    for name in [k for k in os.environ if k.startswith("SQRL_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("SQRL_HOME", str(home))
    monkeypatch.setattr(services.subprocess, "Popen", supervisor)
    try:
        assert cli_main.main(["up", "-d"]) == 0
        winner = started[0].pid
    finally:
        for proc in started:
            proc.kill()
            proc.wait()
    said = capsys.readouterr()
    assert said.err == ""
    assert said.out.startswith(f"Squirrel is up (supervisor pid {winner}; memory :1"), said.out


#: A service that starts and never serves (a long migration).
NEVER_SERVES = PRELUDE + "signal.pause()\n"


def test_a_supervisor_stopped_while_its_services_start_stops_at_once(tmp_path: Path) -> None:
    home = tmp_path / "sqrl"
    env = {
        **os.environ,
        "SQRL_HOME": str(home),
        "SQRL_SUPERVISOR_START_TIMEOUT_SECONDS": "600",
        "SQRL_SUPERVISOR_STOP_GRACE_SECONDS": "5",
    }
    layout = HomeLayout(home)
    proc = start_supervisor(NEVER_SERVES, env, subprocess.DEVNULL)
    try:
        _until(lambda: service_state(layout, "ingest") == "starting" or proc.poll() is not None)
        services = [s.pid for s in supervisor_state(layout).services.values()]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(NEVER) == 0
        assert not any(pid_alive(p) for p in services)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for leftover in _processes_of(home):
            leftover.kill()
