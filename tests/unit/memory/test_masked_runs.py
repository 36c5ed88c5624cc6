"""A check whose exit status a pipe hid (`make test | tail`) failed when its last lines say so,
in any ecosystem; a reading command, a zero count, a summary far above the end and a run with
`pipefail` are left as they are."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.masked_runs import masked_failure
from squirrel_memory.models import StoredEvent

GO_FAIL = (
    "--- FAIL: TestRewind_DifferentSessions (0.00s)\n"
    "    rewind_test.go:530: Expected session ID conflict error\n"
    "FAIL\nFAIL\texample.com/app/integration\t15.000s\nFAIL\n[test:integration] ERROR task failed"
)
PYTEST_FAIL = (
    "tests/test_api.py::test_login FAILED\n=========== 1 failed, 41 passed in 3.2s ==========="
)
JEST_FAIL = "Tests:       2 failed, 18 passed, 20 total\nTime:        4.1 s"
CARGO_FAIL = (
    "error[E0308]: mismatched types\nerror: could not compile `tiles` due to 1 previous error"
)


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("mise run test:integration 2>&1 | tail -50", GO_FAIL),
        ("uv run pytest -q | tail -5", PYTEST_FAIL),
        ("npm test 2>&1 | tail -20", JEST_FAIL),
        ("cargo build 2>&1 | head -40", CARGO_FAIL),
    ],
    ids=["go-task-runner", "python-pytest", "javascript-jest", "rust-cargo"],
)
def test_a_piped_check_whose_last_lines_report_failure_failed(command: str, output: str) -> None:
    assert masked_failure(command, output)


@pytest.mark.parametrize(
    ("command", "output"),
    [
        # No pipe: the exit status is the check's own.
        ("go test ./...", GO_FAIL),
        # `pipefail`: the pipe keeps the check's status.
        ("set -o pipefail; npm test | tail -20", JEST_FAIL),
        # A command that only reads is no check, whatever it prints.
        ("cat build.log | grep FAIL", "FAIL\texample.com/app\t0.1s"),
        # Counts of zero and a test named after failing are not failures.
        ("uv run pytest -q | tail -3", "test_fail_fast PASSED\n===== 0 failed, 12 passed ====="),
        ("npm test | tail -5", "Tests:       0 failed, 20 passed, 20 total"),
        # `a || b` is no pipe.
        ("npm test || echo done", JEST_FAIL),
    ],
    ids=["no-pipe", "pipefail", "reading", "zero-counts", "zero-jest", "or-not-pipe"],
)
def test_what_is_not_a_masked_failure(command: str, output: str) -> None:
    assert not masked_failure(command, output)


def test_a_summary_far_above_the_last_lines_does_not_count() -> None:
    output = "FAIL\texample.com/app\t0.1s\n" + "ok  \texample.com/other\t0.2s\n" * 40
    assert not masked_failure("go test ./... 2>&1 | tail -60", output)


def test_the_run_read_out_of_the_events_is_failed() -> None:
    t0 = datetime(2026, 1, 7, 11, 38, tzinfo=UTC)
    events = [
        StoredEvent(
            id=f"e{n}",
            project_id="/home/dev/app",
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=t0 + timedelta(seconds=n),
            event_type="test_run",
            content={"command": command, "exit_code": 0, "output": output},
            file_paths=(),
            hash=f"h{n}",
            origin="assistant",
        )
        for n, (command, output) in enumerate(
            [
                ("mise run test:integration 2>&1 | tail -50", GO_FAIL),
                ("mise run test 2>&1", "ok  \texample.com/app\t2.3s"),
            ]
        )
    ]
    assert [run.ok for run in commands(events)] == [False, True]
