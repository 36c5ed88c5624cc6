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
