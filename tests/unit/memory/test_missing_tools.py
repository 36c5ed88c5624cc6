"""A program the shell could not find, with no run of it passing in the session, is kept as a
pitfall of the environment in every shell's wording; a later or earlier pass, a program missing
on a remote host or inside a script, and a "not found" word in a log are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.missing_tools import missing_program, missing_tools
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 7, 10, 0, tzinfo=UTC)
GO = "/home/dev/relay"  # a Go service built with `just`
ELIXIR = "/home/dev/ledger"  # an Elixir app whose protobufs need `protoc`


@pytest.mark.parametrize(
    ("output", "program"),
    [
        ("/bin/bash: line 1: just: command not found", "just"),
        ("zsh: command not found: protoc", "protoc"),
        ("sh: 1: protoc: not found", "protoc"),
        ("fish: Unknown command: just", "just"),
        ("'make' is not recognized as an internal or external command,", "make"),
        ("dotnet : The term 'dotnet' is not recognized as the name of a cmdlet", "dotnet"),
    ],
)
def test_each_shells_not_found_line_names_the_program(output: str, program: str) -> None:
    assert missing_program(output)[0] == program


@pytest.mark.parametrize(
    "output",
    [
        "ERROR: fixture 'db' not found",
        "test_lookup: command not found in registry (expected)",
        "Checking 3 source files ... not found: 0",
        'panic: template "index" not found',
    ],
)
def test_a_not_found_word_in_a_log_is_no_missing_program(output: str) -> None:
    assert missing_program(output) == ("", "")


def _failed(root: str, command: str, output: str) -> Session:
    session = Session(root, "s1", T0)
    session.user("Build it and run the checks.")
    session.run(command, 127, output)
    return session


@pytest.mark.parametrize(
    ("root", "command", "output", "program"),
    [
        (GO, "just build", "/bin/bash: line 1: just: command not found", "just"),
        (
            ELIXIR,
            "protoc --elixir_out=lib proto/ledger.proto",
            "zsh: command not found: protoc",
            "protoc",
        ),
    ],
)
def test_a_program_that_stayed_missing_is_a_pitfall(
    root: str, command: str, output: str, program: str
) -> None:
    session = _failed(root, command, output)
    session.say(f"`{program}` is not installed on this machine, so the build cannot run yet.")

    (found,) = missing_tools(session.events)

    assert found.content == (
        f"`{program}` was not found on `PATH` where the session ran: `{command}` failed with "
        f"`{output}`, and no run of it passed in the session. The assistant's reading: "
        f"`{program}` is not installed on this machine, so the build cannot run yet."
    )
    kept = [c for c in session.extracted() if "missing" in c.tags]
    assert [c.type for c in kept] == [MemoryType.PITFALL]


def test_a_reply_that_does_not_name_the_program_adds_nothing() -> None:
    session = _failed(GO, "just build", "/bin/bash: line 1: just: command not found")
    session.say("Let me look at the Makefile instead.")

    (found,) = missing_tools(session.events)

    assert "reading" not in found.content


@pytest.mark.parametrize("when", ["after", "before", "installed"])
def test_a_pass_of_the_program_in_the_session_keeps_nothing(when: str) -> None:
    session = Session(GO, "s1", T0)
    if when == "before":
        session.run("just --list", 0, "build\ntest")
    session.run("just build", 127, "/bin/bash: line 1: just: command not found")
    if when == "after":
        session.run("source .envrc && just build", 0, "ok")
    if when == "installed":
        session.run("cargo install just", 0, "Installed package `just v1.36.0`")
    assert missing_tools(session.events) == []


def test_an_install_of_something_else_or_that_failed_keeps_it() -> None:
    session = _failed(ELIXIR, "protoc --version", "zsh: command not found: protoc")
    session.run("mix deps.get", 0, "All dependencies are up to date")
    session.run("brew install protobuf protoc", 1, "Error: No available formula")

    assert [f.key for f in missing_tools(session.events)] == ["pitfall:missing:protoc"]


@pytest.mark.parametrize(
    ("command", "output"),
    [
        ("ssh gpu-box nvcc --version", "bash: nvcc: command not found"),  # a remote host's
        ("make proto", "sh: 1: protoc: not found\nmake: *** [proto] Error 127"),  # a script's
    ],
)
def test_a_program_missing_elsewhere_than_the_command_line_is_not_kept(
    command: str, output: str
) -> None:
    session = _failed(ELIXIR, command, output)
    assert missing_tools(session.events) == []


def test_a_command_that_passed_despite_the_line_is_not_kept() -> None:
    session = Session(GO, "s1", T0)
    session.run("just build || go build ./...", 0, "/bin/bash: line 1: just: command not found")
    assert missing_tools(session.events) == []


def _skill(root: str, output: str, *, is_error: bool = True) -> Session:
    session = Session(root, "s1", T0)
    session.user("/overview")
    session.add("tool_call", {"tool": "Skill", "tool_use_id": "k1", "input": {"skill": "hi"}})
    session.add(
        "tool_result",
        {"tool": "Skill", "tool_use_id": "k1", "output": output, "is_error": is_error},
    )
    return session


@pytest.mark.parametrize("root", [GO, ELIXIR])
def test_a_command_a_skill_ran_and_quotes_counts_too(root: str) -> None:
    output = (
        'Shell command failed for pattern "!`tree -L 2 .`": [stderr]\n'
        "/bin/bash: line 1: tree: command not found"
    )
    session = _skill(root, output)
    session.run("find . -maxdepth 2", 0, "./go.mod")

    (found,) = missing_tools(session.events)

    assert found.content.startswith(
        "`tree` was not found on `PATH` where the session ran: `tree -L 2 .` failed with "
        "`/bin/bash: line 1: tree: command not found`"
    )


def test_a_skill_that_quotes_no_command_of_the_program_or_passed_is_not_kept() -> None:
    unquoted = _skill(GO, "/bin/bash: line 1: tree: command not found")
    other = _skill(GO, "ran `make docs`\n/bin/bash: line 1: tree: command not found")
    passed = _skill(GO, "!`tree -L 2`\n/bin/bash: line 1: tree: command not found", is_error=False)

    assert missing_tools(unquoted.events) == []
    assert missing_tools(other.events) == []
    assert missing_tools(passed.events) == []


RAILS = "/home/dev/depot"  # a Rails app whose tests are Minitest


@pytest.mark.parametrize(
    ("command", "output", "runner"),
    [
        ("bundle exec rspec", "bundler: command not found: rspec", "bundle exec"),
        ("RAILS_ENV=test bundle exec rspec", "bundler: command not found: rspec", "bundle exec"),
    ],
)
def test_a_program_the_projects_environment_lacks_is_said_as_such(
    command: str, output: str, runner: str
) -> None:
    session = _failed(RAILS, command, output)
    (found,) = missing_tools(session.events)
    program = output.rsplit(" ", 1)[-1]
    assert found.content.startswith(
        f"`{program}` is not in the project's environment that `{runner}` runs in: "
    ), found.content
    assert "PATH" not in found.content


def test_what_passed_instead_for_the_same_purpose_is_named() -> None:
    session = _failed(RAILS, "bundle exec rspec", "bundler: command not found: rspec")
    session.run("bin/rails test", 0, "24 runs, 34 assertions, 0 failures, 0 errors, 0 skips")
    (found,) = missing_tools(session.events)
    assert found.content.endswith(" The same step passed as `bin/rails test`."), found.content


def test_a_later_pass_of_another_purpose_or_session_is_not_named() -> None:
    session = _failed(RAILS, "bundle exec rspec", "bundler: command not found: rspec")
    session.run("bin/rails db:migrate", 0, "== 2026 CreateProducts: migrated")
    other = Session(RAILS, "s2", T0.replace(hour=12))
    other.run("bin/rails test", 0, "24 runs, 34 assertions, 0 failures, 0 errors, 0 skips")
    (found,) = missing_tools([*session.events, *other.events])
    assert "The same step passed" not in found.content, found.content
    # A pass of the same session for another purpose (the tests after a failed build).
    session = _failed(GO, "just build", "/bin/bash: line 1: just: command not found")
    session.run("go test ./...", 0, "ok  \tgithub.com/acme/relay\t0.4s")
    (found,) = missing_tools(session.events)
    assert "The same step passed" not in found.content, found.content


@pytest.mark.parametrize(
    ("root", "typed", "output", "meant"),
    [
        (
            ELIXIR,
            "bundle exec rpsec",
            "bundler: command not found: rpsec",
            "bundle exec rspec",
        ),
        (GO, "gti status", "bash: gti: command not found", "git status"),
    ],
)
def test_a_typo_in_the_program_retyped_right_keeps_nothing(
    root: str, typed: str, output: str, meant: str
) -> None:
    session = _failed(root, typed, output)
    session.say("Typo on my part; running it again.")
    session.run(meant, 0, "24 examples, 0 failures")
    assert missing_tools(session.events) == []


def test_a_program_replaced_by_another_name_stays_missing() -> None:
    session = _failed(GO, "just build", "/bin/bash: line 1: just: command not found")
    session.run("make build", 0, "ok")  # another program, not a misspelling of `just`
    (found,) = missing_tools(session.events)
    assert found.key == "pitfall:missing:just"
