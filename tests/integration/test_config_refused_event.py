"""A service whose configuration is refused stops with exit code 2 and one `config_refused`
JSON event giving the reason, like every other line it writes: no plain line, no traceback,
whether the settings were refused before logging was set up or after."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import PATIENCE_SECONDS


def _run(service: str, home: Path, **settings: str) -> tuple[int, list[dict[str, Any]]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.update({"SQRL_HOME": str(home), **settings})
    done = subprocess.run(
        [sys.executable, "-m", f"squirrel_{service}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=PATIENCE_SECONDS,
        check=False,
    )
    return done.returncode, [json.loads(line) for line in done.stderr.splitlines()]


def _errors(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["level"] == "error"]


def test_a_setting_refused_before_logging_is_one_event_with_the_reason(tmp_path: Path) -> None:
    code, events = _run("ingest", tmp_path / "home", SQRL_INGEST_PORT="abc")

    assert code == 2
    (refused,) = _errors(events)
    assert refused["event"] == "config_refused"
    assert (refused["service"], refused["process"]) == ("ingest", "ingest")
    assert refused["error"] == "InvalidArgumentError"
    assert "ingest.port" in refused["reason"] and "exception" not in refused


def test_a_configuration_refused_at_start_is_one_event_with_the_reason(tmp_path: Path) -> None:
    # Plain text off loopback: refused once the settings are read and logging is set up.
    code, events = _run("memory", tmp_path / "home", SQRL_SERVE_ADDRESS="0.0.0.0:7999")

    assert code == 2
    (refused,) = _errors(events)
    assert refused["event"] == "config_refused"
    assert (refused["service"], refused["process"]) == ("memory", "memory")
    assert refused["error"] == "FailedPreconditionError"
    assert "0.0.0.0:7999" in refused["reason"]
