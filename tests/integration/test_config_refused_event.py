"""A service whose configuration is refused stops with exit code 2 and one `config_refused`
JSON event giving the reason, like every other line it writes: no plain line, no traceback,
whether the settings were refused before logging was set up or after."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.service_exit import events, run_to_exit


@pytest.mark.parametrize(
    ("service", "setting", "value", "error", "named"),
    [
        # Refused as the settings are read, before logging is set up.
        ("ingest", "SQRL_INGEST_PORT", "abc", "InvalidArgumentError", "ingest.port"),
        # Plain text off loopback: refused once the settings are read and logging is set up.
        ("memory", "SQRL_SERVE_ADDRESS", "0.0.0.0:7999", "FailedPreconditionError", "0.0.0.0:7999"),
    ],
    ids=["before-logging", "after-logging"],
)
def test_a_refused_configuration_is_one_event_with_the_reason(
    tmp_path: Path, service: str, setting: str, value: str, error: str, named: str
) -> None:
    done = run_to_exit(service, tmp_path / "home", **{setting: value})

    assert done.returncode == 2
    (refused,) = [e for e in events(done.stderr) if e["level"] == "error"]
    assert refused["event"] == "config_refused"
    assert (refused["service"], refused["process"], refused["error"]) == (service, service, error)
    assert named in refused["reason"] and "exception" not in refused
