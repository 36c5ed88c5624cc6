"""A service whose start-up fails after SERVING (the gateway's HTTP endpoint, for a reason other
than a taken port) stops with one `start_failed` JSON event giving the reason, no traceback."""

from __future__ import annotations

from pathlib import Path

from squirrel_core.home import HomeLayout
from squirrel_core.mcp_profile import profile_path
from squirrel_core.runner import failure_reason
from tests.service_exit import events as stderr_events
from tests.service_exit import run_to_exit


def test_the_gateway_endpoint_failing_after_serving_is_one_event_with_the_reason(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    layout = HomeLayout(home).ensure()
    # The endpoint's profile record cannot be written: a folder (not empty) holds its name.
    blocked = profile_path(layout.run)
    (blocked / "keep").mkdir(parents=True)
    done = run_to_exit("gateway", home)
    assert done.returncode == 1
    events = stderr_events(done.stderr)  # only JSON: no traceback
    assert "service_serving" in [e["event"] for e in events]
    failed = [e for e in events if e["level"] == "error"]
    assert [e["event"] for e in failed] == ["start_failed"]
    assert failed[0]["error"] == "IsADirectoryError"
    assert failed[0]["reason"].startswith("Is a directory: ")
    assert "exception" not in failed[0]


def test_a_reason_without_an_os_error_is_the_message_on_one_line() -> None:
    assert failure_reason(ValueError("bad\n  value")) == "bad value"
    assert failure_reason(RuntimeError()) == "RuntimeError"
    assert failure_reason(OSError(13, "Permission denied", "/x")) == "Permission denied: /x"
    assert failure_reason(OSError("no errno")) == "no errno"
