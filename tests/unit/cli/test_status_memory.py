"""`sqrl status` says which memory a home uses: on a joined laptop it counts the remembers queued
for the team server (read from the outbox file the gateway writes), so "all delivered" is never
said while some wait; on a running team server it says so however the address was given."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import time
from pathlib import Path

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.memory_status import memory_in_use
from squirrel_cli.status_view import status_data
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import ServiceInfo, write_service_info
from squirrel_core.settings import Settings, load_settings
from squirrel_core.team_client import save_team_token
from squirrel_gateway.team_outbox import TeamOutbox


def _laptop(tmp_path: Path) -> Settings:
    home = tmp_path / "laptop"
    save_team_token(HomeLayout(home).ensure(), "sqt_000000000000_" + "x" * 43)
    return load_settings({"SQRL_HOME": str(home), "SQRL_TEAM_SERVER": "localhost:7443"})


def _said(settings: Settings, events_waiting: int = 0) -> dict[str, object]:
    counts = {"/r": {"team_events_waiting": events_waiting}}  # the services answered
    memory: dict[str, object] = status_data(settings, None, [], counts, None)["memory"]
    return memory


def test_status_counts_the_remembers_waiting_in_the_outbox(tmp_path: Path) -> None:
    settings = _laptop(tmp_path)
    outbox = TeamOutbox(HomeLayout(settings.home).team_outbox)
    for text in ("The staging deploy needs STAGE_REGION.", "Run the migrations first."):
        outbox.put("/r", pb.RememberRequest(content=text))
    memory = memory_in_use(settings)
    assert memory["remembers_queued"] == 2
    said = _said(settings)
    text = f"{said['text']}{said.get('text_delivery', '')}"
    assert "2 remembers queued for the team server" in text, text
    assert "all delivered" not in text, text
    first = outbox.claim(limit=1)[0]
    outbox.done(first.id)  # the team server acknowledged one
    assert memory_in_use(settings)["remembers_queued"] == 1


def test_status_says_nothing_of_an_outbox_that_is_empty_or_was_never_made(tmp_path: Path) -> None:
    settings = _laptop(tmp_path)
    assert memory_in_use(settings)["remembers_queued"] == 0
    said = _said(settings)
    assert "queued" not in f"{said['text']}{said.get('text_delivery', '')}"
    assert not HomeLayout(settings.home).team_outbox.exists()  # reading made no file
    solo = load_settings({"SQRL_HOME": str(tmp_path / "solo")})
    assert "remembers_queued" not in memory_in_use(solo)


def test_status_reads_a_damaged_outbox_as_unknown_not_as_a_crash(tmp_path: Path) -> None:
    settings = _laptop(tmp_path)
    path = HomeLayout(settings.home).team_outbox
    path.write_bytes(b"not a database" * 100)
    assert memory_in_use(settings)["remembers_queued"] is None
    with sqlite3.connect(tmp_path / "other.db") as conn:  # a database without the table
        conn.execute("CREATE TABLE t (x)")
    (tmp_path / "other.db").replace(path)
    assert memory_in_use(settings)["remembers_queued"] is None


def test_status_on_a_server_started_with_an_address_flag_says_it_serves_a_team(
    tmp_path: Path,
) -> None:
    # `sqrl serve --address …` sets no setting: the running listener's record says it.
    home = tmp_path / "server"
    layout = HomeLayout(home).ensure()
    layout.run.mkdir(parents=True, exist_ok=True)
    settings = load_settings({"SQRL_HOME": str(home)})
    assert memory_in_use(settings)["mode"] == "local"
    info = ServiceInfo("team", os.getpid(), "127.0.0.1", 17443, time.time())
    write_service_info(layout.team_server_file, info)
    serving = memory_in_use(settings)
    assert serving["mode"] == "team-server" and serving["server"] == "127.0.0.1:17443", serving
    gone = ServiceInfo("team", _exited_pid(), "127.0.0.1", 17443, time.time())
    write_service_info(layout.team_server_file, gone)  # left behind by a server that stopped
    assert memory_in_use(settings)["mode"] == "local"


def _exited_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_status_on_a_server_whose_memory_service_still_starts_says_it_serves_a_team(
    tmp_path: Path,
) -> None:
    # Before the memory service serves (it opens or migrates its store), only `sqrl serve`'s
    # own record says this home is a team server: not "local (this machine only)".
    home = tmp_path / "server"
    layout = HomeLayout(home).ensure()
    layout.run.mkdir(parents=True, exist_ok=True)
    settings = load_settings({"SQRL_HOME": str(home)})
    write_service_info(layout.serve_file, ServiceInfo("serve", os.getpid(), "0.0.0.0", 7443, 0.0))
    said = memory_in_use(settings)
    assert said["mode"] == "team-server" and said["server"] == "0.0.0.0:7443", said
    write_service_info(layout.serve_file, ServiceInfo("serve", _exited_pid(), "0.0.0.0", 7443, 0))
    assert memory_in_use(settings)["mode"] == "local"  # a record left by a stopped server
