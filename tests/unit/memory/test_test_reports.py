"""A test command no table names, recognised by its report and its reruns after edits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.evidence.test_reports import (
    discovered_tests,
    report_line,
    reports_tests,
)
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/ledger"
T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
PASSING = "Finished in 0.02s\n5 examples, 0 failures\n"
FAILING = "Finished in 0.02s\n5 examples, 1 failure\n"


def _tests_named(found: list[MemoryCandidate]) -> list[str]:
    return [c.content for c in found if c.key in ("recipe:test", "test_command")]


@pytest.mark.parametrize(
    "summary",
    [
        "===== 1 failed, 2 passed in 0.12s =====",
        "5 examples, 0 failures",
        "3 runs, 5 assertions, 0 failures, 0 errors, 0 skips",
        "4 tests, no failures",
        "Ran 4 tests containing 9 assertions.",
        "Tests run: 8, Failures: 0, Errors: 0, Skipped: 0",
        "OK (12 tests, 30 assertions)",
        "[ FAIL 0 | WARN 1 | SKIP 0 | PASS 12 ]",
        "Files=3, Tests=12,  0 wallclock secs",
        "12 successes / 0 failures / 0 errors / 0 pending : 0.01 seconds",
        "Test Summary: | Pass  Total",
        "3 tests passed",
        "  5 passing (10ms)",
        "test result: ok. 4 passed; 0 failed; 0 ignored",
        "Executed 4 tests, with 0 failures (0 unexpected) in 0.01 seconds",
        "1 of 1 test suites (3 of 3 test cases) passed.",
    ],
)
def test_summaries_of_many_runners_report_tests(summary: str) -> None:
    assert reports_tests(f"compiling...\n{summary}\n")


@pytest.mark.parametrize(
    "output",
    [
        "Argument 1 passed to App\\Books::post() must be an instance of Entry",
        "Compiling ledger v0.1.0 (/home/dev/ledger)",
        "2 files changed, 10 insertions(+), 3 deletions(-)",
        "Installed 26 packages in 97ms",
        "Build passed",
        "",
    ],
)
def test_other_output_reports_no_tests(output: str) -> None:
    assert not reports_tests(output)


def test_a_summary_far_above_the_end_is_not_the_runs_own() -> None:
    output = "5 examples, 0 failures\n" + "log line\n" * 100
    assert not reports_tests(output)


def test_an_unnamed_command_reporting_tests_again_after_an_edit_is_the_test_command() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("bundle exec rake", 1, FAILING)
    session.edit("lib/ledger/books.rb")
    session.run("bundle exec rake", output=PASSING)

    found = evidence_candidates(session.events)

    assert _tests_named(found) == ["To run the tests: `bundle exec rake`."]


def test_a_report_seen_once_is_not_enough() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("bundle exec rake", output=PASSING)
    session.edit("lib/ledger/books.rb")
    session.run("bundle exec rake", output="")

    assert _tests_named(evidence_candidates(session.events)) == []


def test_reports_before_any_edit_are_not_enough() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("bundle exec rake", output=PASSING)
    session.run("bundle exec rake", output=PASSING)
    session.edit("lib/ledger/books.rb")

    assert _tests_named(evidence_candidates(session.events)) == []


def test_one_passing_report_after_an_edit_is_enough() -> None:
    session = Session(ROOT, "s1", T0)
    session.edit("lib/ledger/books.rb")
    session.run("bundle exec rake", output=PASSING)

    assert _tests_named(evidence_candidates(session.events)) == [
        "To run the tests: `bundle exec rake`."
    ]


def test_a_printed_log_is_not_a_test_command() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cat log/test.log", output=FAILING)
    session.edit("lib/ledger/books.rb")
    session.run("cat log/test.log", output=PASSING)
    session.run("tail -n 20 log/test.log", output=PASSING)

    assert _tests_named(evidence_candidates(session.events)) == []


def test_a_run_of_two_unnamed_commands_says_whose_output_it_is_not() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("ledger-setup && bundle exec rake", 1, FAILING)
    session.edit("lib/ledger/books.rb")
    session.run("ledger-setup && bundle exec rake", output=PASSING)

    assert _tests_named(evidence_candidates(session.events)) == []


def test_a_folder_change_before_the_runner_still_leaves_it_the_runs_own() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cd /home/dev/ledger && bundle exec rake", 1, FAILING)
    session.edit("lib/ledger/books.rb")
    session.run("cd /home/dev/ledger && bundle exec rake", output=PASSING)

    assert _tests_named(evidence_candidates(session.events)) == [
        "To run the tests: `bundle exec rake`."
    ]


def test_a_named_command_keeps_what_the_table_says() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cargo build", 1, FAILING)
    session.edit("src/lib.rs")
    session.run("cargo build", output=PASSING)
    found = attempts(commands(session.events), ROOT)

    marked = discovered_tests(found, [e.timestamp for e in session.events])

    assert [a.use for a in marked] == [a.use for a in found]
    assert all(a.use is None or a.use.purpose != "test" for a in marked)


@pytest.mark.parametrize("script", ["./run.sh", "python run.py"])
def test_a_script_named_only_as_running_something_is_the_test_command(script: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.run(script, 1, FAILING)
    session.edit("lib/ledger/books.rb")
    session.run(script, output=PASSING)

    assert _tests_named(evidence_candidates(session.events)) == [f"To run the tests: `{script}`."]


@pytest.mark.parametrize("script", ["./run_tests.sh", "python run_tests.py"])
def test_a_script_named_for_its_tests_is_the_test_command_without_a_report(script: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.run(script, output="ok\n")
    session.edit("lib/ledger/books.rb")
    session.run(script, output="ok\n")

    assert _tests_named(evidence_candidates(session.events)) == [f"To run the tests: `{script}`."]


def test_a_script_that_reports_no_tests_keeps_its_purpose() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("./run_server.sh", output="Listening on :8080\n")
    session.edit("lib/ledger/books.rb")
    session.run("./run_server.sh", output="Listening on :8080\n")

    assert _tests_named(evidence_candidates(session.events)) == []


def test_the_report_line_is_the_last_summary_line_near_the_end() -> None:
    output = "Run options: --seed 4242\n..F\n3 runs, 5 assertions, 1 failures, 0 errors\ndone\n"

    assert report_line(output) == "3 runs, 5 assertions, 1 failures, 0 errors"
    assert report_line("Run options: --seed 4242\n..F\n") == ""


def test_a_service_started_before_a_named_test_command_did_not_print_its_report() -> None:
    # `mix test` printed the report, not `docker compose up -d db` before it.
    session = Session(ROOT, "s1", T0)
    session.run("./gradlew build", 0, "BUILD SUCCESSFUL in 9s")
    session.edit_lines("app/build.gradle.kts", "kotlin {\n}", "kotlin {\n    jvmToolchain(21)\n}")
    session.run(
        "docker compose up -d db && mix test", 0, "Finished in 2.1 seconds\n41 tests, 0 failures"
    )

    named = [
        c.content for c in evidence_candidates(session.events) if c.key.startswith("recipe:test")
    ]
    assert not any("docker compose" in content for content in named)
