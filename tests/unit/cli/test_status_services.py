"""`sqrl status` lists the services the running supervisor runs: a team server (`sqrl serve`)
runs no ingest, so it shows no ingest row that would read as a service down."""

from __future__ import annotations

import os
import time
from pathlib import Path

from squirrel_cli.commands.doctor import _service_checks
from squirrel_cli.status_view import service_rows
from squirrel_cli.supervisor_state import ServiceState, SupervisorState
from squirrel_core.home import SERVICES, HomeLayout


def _state(*names: str) -> SupervisorState:
    return SupervisorState(
        pid=os.getpid(),
        started_at=time.time(),
        services={n: ServiceState(n, state="stopped") for n in names},
    )


def test_a_team_server_shows_no_ingest_row(tmp_path: Path) -> None:
    layout = HomeLayout(tmp_path / "home").ensure()

    rows, _ = service_rows(layout, _state("memory", "gateway"))

    assert [r["service"] for r in rows] == ["memory", "gateway"]


def test_a_laptop_shows_all_three_and_so_does_a_home_with_no_supervisor(tmp_path: Path) -> None:
    layout = HomeLayout(tmp_path / "home").ensure()

    supervised, _ = service_rows(layout, _state(*SERVICES))
    alone, _ = service_rows(layout, None)

    assert [r["service"] for r in supervised] == list(SERVICES)
    assert [r["service"] for r in alone] == list(SERVICES)


def test_doctor_on_a_team_server_checks_no_ingest(tmp_path: Path) -> None:
    """The supervisor of `sqrl serve` runs memory and the gateway: an ingest it never started is
    no problem to report."""
    layout = HomeLayout(tmp_path / "home").ensure()
    layout.supervisor_file.write_bytes(_state("memory", "gateway").to_json())

    checks, _, _ = _service_checks(layout)

    assert [c.name for c in checks] == ["service memory", "service gateway"]
