"""The service files in deploy/ are well-formed and run `sqrl up`."""

from __future__ import annotations

import configparser
import plistlib
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_systemd_unit_runs_sqrl_up_in_the_foreground() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "squirrel.service")
    assert unit["Service"]["ExecStart"].endswith("sqrl up")
    assert unit["Service"]["KillSignal"] == "SIGTERM"
    assert unit["Install"]["WantedBy"] == "default.target"


def test_launchd_agent_runs_sqrl_up_and_keeps_it_alive() -> None:
    with (DEPLOY / "dev.squirrel.sqrl.plist").open("rb") as fh:
        agent = plistlib.load(fh)
    assert agent["ProgramArguments"][-1] == "up"
    assert agent["ProgramArguments"][0].endswith("sqrl")
    assert agent["RunAtLoad"] is True


def test_team_unit_runs_sqrl_serve_over_tls_as_its_own_user() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(DEPLOY / "squirrel-team.service")
    service = unit["Service"]
    assert service["ExecStart"].endswith("sqrl serve")
    assert service["User"] == "squirrel"
    env = (DEPLOY / "squirrel-team.service").read_text()
    for name in ("SQRL_SERVE_ADDRESS", "SQRL_SERVE_TLS_CERT", "SQRL_SERVE_TLS_KEY"):
        assert f"Environment={name}=" in env
    assert unit["Install"]["WantedBy"] == "multi-user.target"
