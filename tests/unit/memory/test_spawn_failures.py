"""An executable a running program could not start (Node's `spawn rg ENOENT`, Go's `exec:
"protoc": executable file not found in $PATH`) is a pitfall of the environment, from a failed
command's output or from a reply that quotes the error and says how to check or install the
executable; an error the code handles, a progress line, a passing run and a failure of another
cause are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.spawn_failures import spawn_error, spawn_failures
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 11, 14, 0, tzinfo=UTC)
NODE = "/home/dev/orchestrator"  # a Node CLI that searches with an external program
GO = "/home/dev/codegen"  # a Go generator that calls a compiler

RG_REPLY = (
    "The approved search failed with `spawn rg ENOENT`: that terminal could not find it.\n\n"
    "Before retrying, run this in the same terminal:\n\n```bash\ncommand -v rg\n"
    "rg --version\n```\n\nIf unavailable on Ubuntu/Debian:\n\n```bash\n"
    "sudo apt-get install ripgrep\n```\n"
)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Error: spawn rg ENOENT", "rg"),
        ("Error: spawnSync /usr/local/bin/protoc ENOENT", "protoc"),
        ('exec: "protoc": executable file not found in $PATH', "protoc"),
        ('exec: "gcc": executable file not found in %PATH%', "gcc"),
    ],
)
def test_each_spawn_error_names_the_executable(text: str, name: str) -> None:
    assert spawn_error(text)[0] == name


@pytest.mark.parametrize(
    "text",
    [
        "Error: ENOENT: no such file or directory, open 'config.json'",
        "spawning 4 workers ...",
        "ENOENT handling added to the search tool",
    ],
)
def test_a_missing_file_or_a_progress_line_is_no_spawn_error(text: str) -> None:
    assert spawn_error(text) == ("", "")


def test_a_reply_quoting_the_error_with_a_check_is_a_pitfall() -> None:
    session = Session(NODE, "s1", T0)
    session.user("here is the trace of the live run")
    session.say(RG_REPLY)

    (found,) = spawn_failures(session.events)

    assert found.key == "pitfall:missing:rg"
    assert found.content == (
        "`rg` could not be started where the project's program ran: `spawn rg ENOENT` (no "
        "executable of that name on its `PATH`). Check with `command -v rg`. The assistant's "
        "install step: `sudo apt-get install ripgrep`."
    )
    kept = [c for c in session.extracted() if c.key == "pitfall:missing:rg"]
    assert [c.type for c in kept] == [MemoryType.PITFALL]


def test_a_reply_that_only_names_the_error_is_no_pitfall() -> None:
    # The code now handles the error: nothing says the executable is missing here.
    session = Session(NODE, "s1", T0)
    session.user("make the search fail gracefully")
    session.say("The search now catches `spawn rg ENOENT` and falls back to reading files.")

    assert spawn_failures(session.events) == []


def test_an_install_of_the_project_is_not_the_executables() -> None:
    session = Session(NODE, "s1", T0)
    session.say(
        "It failed with `spawn rg ENOENT`. Check with `command -v rg`.\n\n"
        "Earlier steps:\n\n```bash\npnpm install\n```\n"
    )
    (found,) = spawn_failures(session.events)
    # `pnpm install` installs the project's dependencies, not the executable.
    assert found.content.endswith("Check with `command -v rg`.")

    session = Session(NODE, "s2", T0)
    session.say("```bash\npnpm install\n```\n\nThen it failed with `spawn rg ENOENT`.")
    assert spawn_failures(session.events) == []


def test_a_failed_command_with_the_error_is_a_pitfall() -> None:
    session = Session(GO, "s1", T0)
    session.run(
        "go generate ./...",
        1,
        'main.go:3: running "buf": exec: "protoc": executable file not found in $PATH',
    )

    (found,) = spawn_failures(session.events)

    assert found.content == (
        "`protoc` could not be started where the project's program ran: `go generate ./...` "
        'failed with `exec: "protoc": executable file not found in $PATH` (no executable of '
        "that name on its `PATH`)."
    )


def test_a_passing_run_or_a_later_pass_of_the_executable_says_nothing() -> None:
    # A test that expects the error passes: nothing is missing.
    session = Session(NODE, "s1", T0)
    session.run("pnpm test", 0, "✓ reports spawn nosuchtool ENOENT to the user")
    assert spawn_failures(session.events) == []

    # The executable ran and passed in the session: it is installed.
    session = Session(NODE, "s2", T0)
    session.run("node cli.js search", 1, "Error: spawn rg ENOENT")
    session.run("rg --version", 0, "ripgrep 14.1.0")
    assert spawn_failures(session.events) == []


def test_a_failure_of_another_cause_is_no_pitfall() -> None:
    session = Session(NODE, "s1", T0)
    session.run("node cli.js search", 1, "Error: EACCES: permission denied, open 'trace.jsonl'")
    assert spawn_failures(session.events) == []
