"""The suite's own logging: what the code under test logs goes to pytest's capture of that test
(printed beside it when it fails) as one JSON line, never straight to the terminal."""

from __future__ import annotations

import json

import pytest
import structlog


def test_a_log_line_is_captured_with_its_test_as_json(
    caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    structlog.get_logger().info("probe_done", rows=3)

    [record] = [r for r in caplog.records if "probe_done" in r.getMessage()]
    assert record.levelname == "INFO"
    assert json.loads(record.getMessage()) == {"event": "probe_done", "rows": 3, "level": "info"}
    assert capfd.readouterr() == ("", "")  # nothing written to the test's stdout or stderr
