"""A command whose failure a pipe hid counts as failed, and its fix becomes a pitfall."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.evidence.piped_runs import (
    error_line,
    piped_to_viewer,
    split_segments_raw,
    status_hidden,
    with_piped_outcomes,
)
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"
REFUSED = "Error: can't load config: unsupported version of the configuration\n"
FINDINGS = "books/post.go:98:15: Error return value of `f.Close` is not checked (errcheck)\n"


def _pitfalls(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.type == MemoryType.PITFALL]


def _refused_then_fixed(first: str, second: str) -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("The linter says its configuration is outdated, fix it.")
    session.run(first, 0, REFUSED)
    session.say('Version 2 wants a `version: "2"` field at the top of the configuration.')
    session.edit(f"{ROOT}/.lint.yml", 'version: "2"\n')
    session.run(second, 0, FINDINGS)
    return session


def test_a_refusal_behind_a_pipe_then_fixed_by_an_edit_is_a_pitfall() -> None:
    session = _refused_then_fixed("lintr run 2>&1 | head -50", "lintr run 2>&1 | head -20")
    found = _pitfalls(session)
    assert len(found) == 1
    assert "unsupported version of the configuration" in found[0]
    assert ".lint.yml" in found[0]


def test_without_a_pipe_an_exit_status_of_zero_stays_a_pass() -> None:
    session = _refused_then_fixed("lintr run", "lintr run")
    assert _pitfalls(session) == []


def test_a_pipe_into_a_filter_that_sets_the_status_keeps_it() -> None:
    run = "lintr run 2>&1 | grep -v deprecated"
    session = _refused_then_fixed(run, run)
    assert _pitfalls(session) == []
    assert [r.ok for r in with_piped_outcomes(commands(session.events))] == [True, True]


def test_a_hidden_failure_never_fixed_is_no_pitfall() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Does the linter run here?")
    session.run("lintr run 2>&1 | head -50", 0, REFUSED)
    session.say("It does not load its configuration; leaving it as it is.")
    assert [r.ok for r in with_piped_outcomes(commands(session.events))] == [False]
    assert _pitfalls(session) == []


def test_a_hidden_failure_in_another_folder_is_no_pitfall() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("lintr run 2>&1 | head -50", 0, REFUSED, cwd="/home/dev/other")
    session.edit("/home/dev/other/.lint.yml", 'version: "2"\n')
    session.run("lintr run 2>&1 | head -20", 0, FINDINGS, cwd="/home/dev/other")
    assert _pitfalls(session) == []


def test_a_passing_test_summary_is_a_pass_whatever_was_logged_before_it() -> None:
    session = Session(ROOT, "s1", T0)
    logged = "ERROR: connection refused (retrying)\n12 passed in 0.4s\n"
    session.run("pytest -q 2>&1 | tail -5", 0, logged)
    assert [r.ok for r in with_piped_outcomes(commands(session.events))] == [True]


def test_a_test_summary_counting_failures_behind_a_pipe_is_a_failure() -> None:
    session = Session(ROOT, "s1", T0)
    session.run(
        "pytest -q 2>&1 | tail -3",
        0,
        "FAILED tests/test_books.py::test_post\n1 failed, 11 passed in 0.4s\n",
    )
    assert [r.ok for r in with_piped_outcomes(commands(session.events))] == [False]


def test_the_error_lines_of_several_tools_are_read() -> None:
    for line in (
        "error[E0425]: cannot find value `x` in this scope",
        "fatal: not a git repository (or any of the parent directories): .git",
        "panic: runtime error: index out of range",
        "Traceback (most recent call last):",
        "ModuleNotFoundError: No module named 'ledger'",
        "npm ERR! missing script: lint",
        "bash: lintr: command not found",
    ):
        assert error_line(f"starting\n{line}\n") == line
    quiet = ("0 errors, 2 warnings", "warning: unused variable", "no_error: 0", FINDINGS)
    for line in quiet:
        assert error_line(line) == ""


def test_a_fallback_that_always_succeeds_hides_the_status_too() -> None:
    session = _refused_then_fixed("lintr run || true", "lintr run || true")
    assert len(_pitfalls(session)) == 1
    assert status_hidden("make check 2>&1 || echo 'check failed'")
    assert status_hidden("make check || exit 0")
    assert not status_hidden("make check || make check-fallback")
    assert not status_hidden("make check || true && make deploy")


def test_only_a_pipe_into_a_viewer_hides_the_status() -> None:
    assert piped_to_viewer("make check 2>&1 | tail -n 30")
    assert piped_to_viewer("cd app && npm run lint | head")
    assert not piped_to_viewer("make check || echo failed")
    assert not piped_to_viewer("make check 2>&1 | grep error")
    assert not piped_to_viewer("make check | head; echo done")


def test_a_long_hostile_command_is_read_in_linear_time() -> None:
    # A run of blanks with no separator after it, and a pipe whose last stage never ends:
    # both took quadratic time (hours on a 1 MB line) before.
    assert split_segments_raw("make" + " " * 1_000_000 + "x") == ["make" + " " * 1_000_000 + "x"]
    assert not piped_to_viewer("make |" + " " * 1_000_000 + "x |")
    assert piped_to_viewer("make" + " " * 1_000_000 + "| head")


def test_an_error_line_in_data_a_command_only_shows_is_no_failure() -> None:
    log = "INFO start\nError: connection refused\nINFO retried\n"
    for command in (
        "docker logs api 2>&1 | tail -50",
        "cat logs/app.log | head -20",
        "git log -5 | cat",
        "kubectl logs pod/api | tail",
        "curl -s localhost:8080/health | head",
        "cat logs/app.log || true",
    ):
        run = Session(ROOT, "s1", T0)
        run.run(command, 0, log)
        assert [r.ok for r in with_piped_outcomes(commands(run.events))] == [True], command
    tool = Session(ROOT, "s1", T0)
    tool.run("npm test 2>&1 | tail -20", 0, log)
    assert [r.ok for r in with_piped_outcomes(commands(tool.events))] == [False]


GO_FAILED = (
    "--- FAIL: TestRewind_DifferentSessions (0.00s)\n"
    "    rewind_test.go:530: Expected session ID conflict error\n"
    "FAIL\nFAIL\texample.com/ledger/integration\t15.000s\nFAIL\n[test:integration] ERROR task failed\n"
)
DOTNET_FAILED = "Failed!  - Failed:     1, Passed:     9, Skipped:     0, Total:    10\n"


def _runs_of(*steps: tuple[str, str]) -> list[bool | None]:
    session = Session(ROOT, "s1", T0)
    session.user("tests are failing")
    for command, output in steps:
        session.run(command, 0, output)
    return [r.ok for r in with_piped_outcomes(commands(session.events))]


def test_a_runners_failed_tests_without_counts_behind_a_pipe_are_a_failure() -> None:
    # Go prints no counts, .NET counts only in its own words: both ran and their tests failed.
    assert _runs_of(
        ("mise run test:integration 2>&1 | tail -50", GO_FAILED),
        ("dotnet test 2>&1 | tail -5", DOTNET_FAILED),
    ) == [False, False]


def test_failed_tests_in_a_log_shown_or_without_a_pipe_or_passing_are_no_hidden_failure() -> None:
    assert _runs_of(
        ("cat integration.log | tail -50", GO_FAILED),  # a log shown: the data's failure
        ("mise run test:integration", GO_FAILED),  # its own exit status, 0, stands
        ("go test ./... 2>&1 | tail -5", "ok  \texample.com/ledger\t0.412s\n"),
    ) == [True, True, True]


def test_a_program_the_shell_could_not_start_fails_the_run_whatever_came_after() -> None:
    # `ls` gave the exit status; the shell's own line says `java` and `gradle` never ran.
    not_found = "/bin/bash: line 1: java: command not found\nLICENSE\nREADME.md\n"
    assert _runs_of(
        ("java -version 2>&1; gradle --version 2>&1 | head -3; ls", not_found),
        (
            "dotnet build; echo done",
            "'dotnet' is not recognized as an internal or external command\n",
        ),
    ) == [False, False]


def test_a_not_found_line_of_a_program_the_command_does_not_start_is_no_failure() -> None:
    assert _runs_of(
        ("cat ci.log", "/bin/bash: line 1: java: command not found\n"),  # a log shown
        ("./scripts/setup.sh; ls", "./setup.sh: line 4: protoc: command not found\nMakefile\n"),
        ("grep -r 'command not found' docs", "docs/faq.md: bash: java: command not found\n"),
    ) == [True, True, True]


def test_the_run_after_sourcing_the_environment_is_the_fix_not_the_one_that_listed_files() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Check the Java and Gradle versions.")
    session.run("java -version 2>&1; gradle --version", 0, "bash: java: command not found\n")
    session.run("java -version 2>&1; ls", 0, "bash: java: command not found\nLICENSE\n")
    session.run(
        'source "$HOME/.sdkman/bin/sdkman-init.sh" && java -version 2>&1',
        0,
        'openjdk version "21.0.6" 2025-01-21 LTS\n',
    )
    found = _pitfalls(session)
    assert len(found) == 1
    assert "sdkman-init.sh" in found[0]
    assert "; ls" not in found[0]
