"""A command whose `cd` the shell or the host refused, then the same command given the folder
another way (its own option), is one pitfall whose fix is the run that worked, said as typed and
without the `cd` (the same line with the option added would be refused again); a failure of the
command itself in that folder is not paired with a run elsewhere, and a call the user declined
with a message stays a call that never ran."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import commands
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 7, 10, 0, tzinfo=UTC)
BLOCKED = (
    "cd to '/tmp' was blocked. For security, the assistant may only change directories to "
    "child directories of the allowed working directories for this session."
)

# A Go module built from a sibling folder, and a Node app whose front end lives elsewhere.
CASES = [
    (
        "/home/dev/relay",
        "cd /tmp && go build -o relay ./cmd/relay",
        BLOCKED,
        "go -C /tmp build -o relay ./cmd/relay",
        "-C /tmp",
    ),
    (
        "/home/dev/shop",
        "cd web && npm run build",
        "/bin/bash: line 1: cd: web: No such file or directory",
        "npm --prefix frontend run build",
        "--prefix frontend",
    ),
]


def _pitfalls(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.type.value == "pitfall"]


@pytest.mark.parametrize(("root", "failing", "error", "passing", "option"), CASES)
def test_a_refused_folder_then_the_folder_as_an_option_is_one_lesson(
    root: str, failing: str, error: str, passing: str, option: str
) -> None:
    session = Session(root, "s1", T0)
    session.user("Build it.")
    session.run(failing, None, error)
    session.events[-1].content["is_error"] = True
    session.run(passing, 0, "built")

    folder = failing.partition(" && ")[0]
    (lesson,) = [p for p in _pitfalls(session) if folder in p]

    assert lesson.startswith(f"`{folder} && ")
    assert f"running `{passing}` without the `cd` worked" in lesson
    assert option in lesson
    assert "added worked" not in lesson


def test_an_option_added_in_a_folder_that_was_reached_is_still_said_as_added() -> None:
    session = Session("/home/dev/relay", "s1", T0)
    session.user("Build it.")
    session.run("cd cmd && go build ./relay", 1, "flag provided but not defined: -tags")
    session.run("cd cmd && go build -tags netgo ./relay", 0, "built")

    (lesson,) = [p for p in _pitfalls(session) if "go build" in p]

    assert "without the `cd`" not in lesson


@pytest.mark.parametrize(("root", "failing", "_error", "passing", "_option"), CASES)
def test_a_failure_of_the_command_itself_is_not_fixed_by_a_run_elsewhere(
    root: str, failing: str, _error: str, passing: str, _option: str
) -> None:
    session = Session(root, "s1", T0)
    session.user("Build it.")
    session.run(failing, 1, "error: cannot find module 'left-pad'")
    session.run(passing, 0, "built")

    assert not any("worked" in p for p in _pitfalls(session))


def test_the_hosts_refusal_is_a_failure_and_the_users_message_a_declined_call() -> None:
    session = Session("/home/dev/relay", "s1", T0)
    session.run("cd /tmp && ls", None, BLOCKED)
    session.events[-1].content["is_error"] = True
    session.run("rm -rf build", None, "not now, keep the build folder")
    session.events[-1].content["is_error"] = True

    assert [run.ok for run in commands(session.events)] == [False, None]
