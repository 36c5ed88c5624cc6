"""A command launched in the background is one run: the run its end made, else the launch."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.activity import commands
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 11, 30, 3, 9, tzinfo=UTC)
PROJECT = "/home/dev/repo"
LAUNCHED = (
    "Command running in background with ID: bnejukxwt. You will be notified when it completes."
)


def _launch(session: Session, command: str) -> None:
    """As ingest stores a background launch: the call, its result, a run without a result."""
    session.add(
        "tool_call",
        {"tool": "Bash", "tool_use_id": "toolu_1", "input": {"command": command}},
    )
    session.add(
        "tool_result",
        {"tool": "Bash", "tool_use_id": "toolu_1", "output": LAUNCHED, "is_error": False},
    )
    session.add(
        "command_run",
        {"command": command, "tool_use_id": "toolu_1", "cwd": PROJECT, "background": True},
    )


def test_the_run_the_end_made_takes_the_launch_place() -> None:
    session = Session(PROJECT, "s1", T0)
    _launch(session, "pytest -q")
    summary = 'Background command "Run the suite" failed with exit code 3'
    ended = session.add(
        "command_run",
        {
            "command": "pytest -q",
            "tool_use_id": "toolu_1",
            "exit_code": 3,
            "is_error": True,
            "output": summary,
            "cwd": PROJECT,
        },
    )
    [run] = commands(session.events)
    assert (run.event_id, run.ok, run.output) == (ended, False, summary)


def test_a_launch_without_an_end_is_a_run_of_unknown_outcome() -> None:
    """Not a pass: the launch's own tool result only says the command started."""
    session = Session(PROJECT, "s1", T0)
    _launch(session, "pnpm dev")
    [run] = commands(session.events)
    assert (run.command, run.ok) == ("pnpm dev", None)
