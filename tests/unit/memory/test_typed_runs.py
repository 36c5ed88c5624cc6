"""Commands the user typed (`!cmd`): their output, and success only from a passing test summary."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.evidence.typed_runs import passed, with_typed_outcomes
from squirrel_memory.extractors.rules import RulesExtractor
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 4, 8, tzinfo=UTC)
PROJECT = "/home/dev/ledger"

#: (ecosystem, test command as typed, its runner's passing summary, a file the session edits)
TYPED = [
    (
        "r-testthat",
        'Rscript -e "devtools::test()"',
        "[ FAIL 0 | WARN 0 | SKIP 1 | PASS 30 ]",
        "R/books.R",
    ),
    (
        "ruby-rspec",
        "bundle exec rspec",
        "Finished in 0.4 seconds\n5 examples, 0 failures",
        "lib/books.rb",
    ),
    ("elixir-mix", "mix test", "Finished in 0.1 seconds\n3 tests, 0 failures", "lib/books.ex"),
    (
        "swift-spm",
        "swift test",
        "Executed 4 tests, with 0 failures (0 unexpected)",
        "Sources/Books.swift",
    ),
    (
        "java-maven",
        "mvn test",
        "Tests run: 8, Failures: 0, Errors: 0, Skipped: 0",
        "src/Books.java",
    ),
    ("php-unit", "vendor/bin/phpunit", "OK (12 tests, 30 assertions)", "src/Books.php"),
    ("lua-busted", "busted", "3 successes / 0 failures / 0 errors / 0 pending", "src/books.lua"),
    ("python-uv", "uv run pytest", "======== 12 passed in 0.41s ========", "ledger/books.py"),
]
IDS = [t[0] for t in TYPED]


async def _tests(session: Session) -> list[str]:
    (episode,) = segment_episodes(session.events, now=NOW)
    found = await RulesExtractor().extract(episode, session.events)
    return [c.content for c in found if c.key in ("test_command", "recipe:test")]


@pytest.mark.parametrize(("name", "command", "summary", "path"), TYPED, ids=IDS)
async def test_a_typed_test_command_that_passed_is_the_test_command(
    name: str, command: str, summary: str, path: str
) -> None:
    session = Session(PROJECT, "s1", T0)
    session.edit(path)
    session.typed(command, f"running\n{summary}\n")

    tests = await _tests(session)

    assert len(tests) == 1 and command.split(maxsplit=1)[0] in tests[0], (name, tests)


@pytest.mark.parametrize(("name", "command", "summary", "path"), TYPED, ids=IDS)
async def test_a_typed_command_without_its_output_says_nothing(
    name: str, command: str, summary: str, path: str
) -> None:
    session = Session(PROJECT, "s1", T0)
    session.edit(path)
    session.add("user_message", {"text": f"<bash-input>{command}</bash-input>"}, origin="typed")
    session.add("user_message", {"text": f"Here it is:\n{summary}"}, origin="typed")

    assert await _tests(session) == [], name


@pytest.mark.parametrize(
    "summary",
    [
        "12 passed, 1 failed in 0.5s",
        "5 examples, 2 failures",
        "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 29 ]",
        "Tests run: 8, Failures: 1, Errors: 0",
        "Listing files\nREADME.md",
        "",
    ],
)
def test_a_failing_or_missing_summary_is_no_pass(summary: str) -> None:
    assert not passed(summary)


def test_the_output_is_joined_from_the_next_message_and_failures_stay_unknown() -> None:
    session = Session(PROJECT, "s1", T0)
    session.typed("mix test", "3 tests, 1 failure", "warning: unused variable")
    session.typed("mix format --check-formatted", "")

    first, second = with_typed_outcomes(commands(session.events), session.events)

    assert first.ok is None and "3 tests, 1 failure" in first.output
    assert "unused variable" in first.output
    assert second.ok is None and second.output == ""


def test_cabals_summary_says_pass_or_fail() -> None:
    assert passed("Test suite spec: PASS\n1 of 1 test suites (3 of 3 test cases) passed.")
    assert not passed("Test suite spec: FAIL\n1 of 1 test suites (1 of 1 test cases) failed.")
