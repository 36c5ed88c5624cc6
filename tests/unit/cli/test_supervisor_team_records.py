"""`<home>/run` deleted while the services run: the records the services write once at their
start, which team server each uses (`<service>-team.json`) and a team server's address
(`team-server.json`), are written again by the supervisor as they were, as its own and the
services' records are. Before, they were gone for the rest of the run: `sqrl doctor` and `sqrl
team join` could no longer tell that a restart was still needed, and `sqrl status` on a team
server lost its "serving a team on HOST:PORT". Real processes: the supervisor over two
stand-in services (memory writes both records, as the real one does on a team server)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from squirrel_core.home import HomeLayout
from squirrel_core.service_info import read_service_info
from squirrel_core.team_in_use import TeamInUse, team_in_use_path, teams_in_use
from tests.stand_in_services import NEVER, PRELUDE, SERVE, service_state, start_supervisor

#: A stand-in service that serves, then (memory only) records its team server and address.
SERVICE = (
    PRELUDE
    + "name = sys.argv[1]\n"
    + SERVE
    + """
run = pathlib.Path(os.environ["SQRL_HOME"]) / "run"
if name == "memory":
    (run / "memory-team.json").write_text(
        json.dumps({"pid": os.getpid(), "server": "team.example:7443"}))
    (run / "team-server.json").write_text(json.dumps(
        {"name": "team", "pid": os.getpid(), "host": "0.0.0.0", "port": 7443,
         "started_at": time.time()}))
(run / f"{name}-ready").write_text("")
signal.pause()
"""
)


def _until(check: Callable[[], object]) -> None:
    deadline = time.monotonic() + NEVER
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[HomeLayout, Path]]:
    home = tmp_path / "sqrl"
    env = {**os.environ, "SQRL_HOME": str(home), "HOME": str(tmp_path)}
    layout = HomeLayout(home)
    log_path = tmp_path / "supervisor.log"
    log = log_path.open("wb")
    proc = start_supervisor(SERVICE, env, log)
    try:
        for name in ("memory", "ingest"):
            _until(lambda: proc.poll() is not None or service_state(layout, name) == "serving")  # noqa: B023
        _until((layout.run / "memory-ready").exists)
        assert proc.poll() is None
        yield layout, log_path
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(NEVER)
        log.close()


def _stale_gateway_record(layout: HomeLayout) -> Path:
    """A gateway team record left by a process that is gone."""
    gone = subprocess.Popen(["true"])
    gone.wait()
    path = team_in_use_path(layout.run, "gateway")
    path.write_text(json.dumps({"pid": gone.pid, "server": "old.example:7443"}))
    return path


def test_the_team_records_come_back_as_their_services_wrote_them(
    running: tuple[HomeLayout, Path],
) -> None:
    layout, log = running
    team = team_in_use_path(layout.run, "memory")
    before = {path: path.read_bytes() for path in (team, layout.team_server_file)}
    stale = _stale_gateway_record(layout)
    # A check of the supervisor's that ends after the records were written has its copies: one
    # that writes again the ingest record, deleted here, says so in its log once it is done.
    layout.service_file("ingest").unlink()
    _until(lambda: "run_records_restored" in log.read_text())
    shutil.rmtree(layout.run)

    _until(lambda: team.exists() and layout.team_server_file.exists())
    assert {path: path.read_bytes() for path in before} == before
    assert teams_in_use(layout.run) == [TeamInUse("memory", "team.example:7443")]
    address = read_service_info(layout.team_server_file)
    assert address is not None and address.port == 7443
    _until(lambda: layout.supervisor_file.exists() and layout.service_file("ingest").exists())
    assert not stale.exists()  # its writer is no running service: not written again
