"""How the tests are run, as the assistant told the user and the session never ran."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.replied_commands import replied_commands
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"


def _replied(*replies: str, runs: tuple[tuple[str, int], ...] = ()) -> str | None:
    session = Session(ROOT, "s1", T0)
    session.user("Add a discount field to the order model.")
    for command, code in runs:
        session.run(command, code, "")
    for reply in replies:
        session.say(reply)
    found = replied_commands(session.events)
    return None if found is None else found.content


@pytest.mark.parametrize(
    ("reply", "command"),
    [
        ("The field is added. You can run the tests with `busted spec/`.", "busted spec/"),
        ("Done.\n\nTo run the tests: `mvn test`", "mvn test"),
        ("The change is in.\n\n- Tests: `composer test`\n- Docs: `README.md`", None),
        ("Tests run via `ctest --test-dir build` once the build is configured.", None),
    ],
)
def test_a_reply_that_says_how_the_tests_are_run_gives_the_command(
    reply: str, command: str | None
) -> None:
    expected = command or reply.split("`")[1]
    assert _replied(reply) == f"The assistant said to run the tests with `{expected}`."


@pytest.mark.parametrize(
    "reply",
    [
        "Should I run the tests with `make test` now?",  # a question
        "Let me run the tests with `make test`.",  # the next step, not a statement
        "### Step 4\n- [ ] Run all unit tests: `npm run test`\n- [ ] Fix any failing tests",  # plan
        "Running the tests with `make test` failed twice.",  # a failure
        "Do not run the tests with `make test`: it wipes the database.",  # negated
        "The upstream project runs its tests with `make test`.",  # another repository
        "In ../engine, run the tests with `make test`.",  # another folder
        "The field is added and documented.",  # no command
        "Run `make build` to build the image.",  # no test command
        "| `test/` | 50 test files with full coverage |",  # a folder in a table of the layout
        "The tests live in `test/`, with fixtures beside them.",  # a folder, not a command
    ],
)
def test_a_question_a_plan_a_failure_or_another_place_gives_nothing(reply: str) -> None:
    assert _replied(reply) is None


def test_a_command_the_session_ran_gives_nothing_here() -> None:
    reply = "You can run the tests with `make test`."
    assert _replied(reply, runs=(("make test", 2),)) is None  # only failed: no way to test
    assert _replied(reply, runs=(("make test", 0),)) is None  # passed: its own recipe says it


def test_a_command_run_as_one_step_of_a_line_counts_as_run() -> None:
    reply = "You can run the tests with `make test`."
    assert _replied(reply, runs=((f"cd {ROOT} && make test", 0),)) is None
    assert _replied(reply, runs=(("make test | tail -n 20", 0),)) is None
    # A line that ran another command still leaves the one said.
    said = "The assistant said to run the tests with `make test`."
    assert _replied(reply, runs=((f"cd {ROOT} && make build", 0),)) == said
    assert _replied(reply, runs=(("make test-unit", 0),)) == said


def test_the_last_statement_is_kept() -> None:
    found = _replied(
        "Run the tests with `make test`.", "Actually, run the tests with `make check` instead."
    )
    assert found == "The assistant said to run the tests with `make check`."


def test_a_subagents_reply_is_left_to_its_own_rule() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Add a discount field.")
    session.add("assistant_response", {"text": "Run the tests with `make test`."}, sidechain=True)
    assert replied_commands(session.events) is None


def test_a_reply_about_what_was_printed_in_another_checkout_gives_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("How does the sibling sdk repo run its tests?")
    session.run(
        "cd ../shop-sdk && cat package.json", 0, '{\n  "scripts": {"test": "vitest run"}\n}\n'
    )
    session.say("The SDK runs `pnpm test` with Vitest and coverage.")
    assert replied_commands(session.events) is None
    # The same reply after a look at the project's own manifest says how its tests run.
    own = Session(ROOT, "s2", T0)
    own.user("How are the tests run?")
    own.run("cat package.json", 0, '{\n  "scripts": {"test": "vitest run"}\n}\n')
    own.say("The project runs `pnpm test` with Vitest and coverage.")
    found = replied_commands(own.events)
    assert found is not None and "`pnpm test`" in found.content
