"""The test command of a session whose tests never all passed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.evidence import EVIDENCE_TAG
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"
FAILED = "tests/test_books.py::test_post FAILED\n=== 2 failed, 10 passed in 0.41s ===\n"


def _test_facts(session: Session) -> list[MemoryCandidate]:
    return [
        c for c in evidence_candidates(session.events) if c.key in ("test_command", "recipe:test")
    ]


def _failing(*runs: tuple[str, int | None, str]) -> Session:
    session = Session(ROOT, "s1", T0 + timedelta(days=1), test_runs=True)
    session.user("The posting tests fail, have a look.")
    session.edit("NOTES.md", "Posting fails for entries without a date.\n")
    for command, code, output in runs:
        session.run(command, code, output)
    return session


def test_a_runner_that_reported_failing_tests_is_the_test_command() -> None:
    session = _failing(("uv run pytest -x", 1, FAILED), ("uv run pytest", 1, FAILED))
    (fact,) = _test_facts(session)
    assert (fact.key, fact.content) == (
        "test_command",
        "Tests run with `uv run pytest` (it ran; its tests failed).",
    )


@pytest.mark.parametrize(
    ("command", "output"),
    [
        (
            "go test ./...",
            "--- FAIL: TestPost (0.00s)\nFAIL\nFAIL\tgithub.com/acme/ledger\t0.012s\n",
        ),
        ("dotnet test", "Failed!  - Failed:     1, Passed:     9, Skipped:     0, Total:    10\n"),
        ("vendor/bin/phpunit", "FAILURES!\nTests: 8, Assertions: 20, Failures: 1.\n"),
        ("flutter test", "00:02 +8 -1: Some tests failed.\n"),
    ],
)
def test_runners_that_print_no_counts_report_their_failed_tests(command: str, output: str) -> None:
    (fact,) = _test_facts(_failing((command, 1, output)))
    assert fact.content == f"Tests run with `{command}` (it ran; its tests failed)."


@pytest.mark.parametrize(
    ("command", "code", "output"),
    [
        ("pytest", 127, "bash: pytest: command not found\n"),  # it never started
        ("npx vitest run", 1, "Error: Cannot find module 'vitest'\n"),  # no runner to run
        ("cargo test", 101, "error[E0425]: cannot find value `entry` in this scope\n"),  # build
        (
            "bundle exec rspec",
            None,
            "The user doesn't want to proceed with this tool use. The tool use was rejected.\n",
        ),  # declined: it never ran
        ("pytest /home/dev/other/tests", 1, FAILED),  # another checkout's tests
    ],
)
def test_a_run_that_reported_no_tests_of_the_project_says_nothing(
    command: str, code: int | None, output: str
) -> None:
    assert _test_facts(_failing((command, code, output))) == []


def test_a_run_in_a_sub_folder_is_not_the_projects_test_command() -> None:
    session = _failing(("cd web && npx vitest run", 1, "Tests  2 failed | 10 passed (12)\n"))
    assert [c.key for c in _test_facts(session)] == []


def test_a_passing_run_makes_the_fact_and_the_failing_one_adds_nothing() -> None:
    session = _failing(("pytest", 1, FAILED), ("pytest", 0, "12 passed in 0.40s\n"))
    facts = _test_facts(session)
    assert [(c.key, c.content) for c in facts] == [("recipe:test", "To run the tests: `pytest`.")]
    assert facts[0].importance > 0.45


def test_a_test_command_only_the_user_typed_is_no_evidence_the_project_pass_replaces() -> None:
    typed = Session(ROOT, "s1", T0, test_runs=True)
    typed.edit("ledger/books.py", "def post(): ...\n")
    typed.typed("uv run pytest", FAILED)
    ran = _failing(("uv run pytest", 1, FAILED))
    (by_user,) = _test_facts(typed)
    (by_assistant,) = _test_facts(ran)
    assert (
        by_user.content
        == by_assistant.content
        == ("Tests run with `uv run pytest` (it ran; its tests failed).")
    )
    # The project pass reads no user messages: it could not say this again, so must not drop it.
    assert EVIDENCE_TAG not in by_user.tags
    assert EVIDENCE_TAG in by_assistant.tags


async def test_the_processor_keeps_a_test_command_only_the_user_typed(tmp_path: Path) -> None:
    now = T0 + timedelta(days=2)
    async with clocked_stores(tmp_path, now) as (store, users):
        root = store.project_id
        at = T0 + timedelta(days=1)
        events = [
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.CODE_CHANGE,
                at,
                {"tool": "Edit", "tool_use_id": "t1", "path": f"{root}/ledger/books.py"},
                session_id="s1",
                file_paths=(f"{root}/ledger/books.py",),
            ),
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.USER_MESSAGE,
                at + timedelta(seconds=20),
                {"text": "<bash-input>uv run pytest</bash-input>"},
                session_id="s1",
                origin=Origin.TYPED,
            ),
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.USER_MESSAGE,
                at + timedelta(seconds=21),
                {"text": f"<bash-stdout>{FAILED}</bash-stdout><bash-stderr></bash-stderr>"},
                session_id="s1",
                origin=Origin.HARNESS,
            ),
        ]
        await store.append_events(root, "u", events, [])
        await rules_processor(store, users, now).drain(store)
        items, _ = await store.list_memories(root, types=[MemoryType.PROJECT_FACT])
        assert [m.content for m in items if m.key == "test_command"] == [
            "Tests run with `uv run pytest` (it ran; its tests failed)."
        ]


def _also(session: Session) -> list[str]:
    return [c.content for c in evidence_candidates(session.events) if c.key == "test_command:also"]


@pytest.mark.parametrize(
    ("unit", "passed", "suite", "failed"),
    [
        (
            "mise run test",
            "ok  \tgithub.com/acme/ledger\t2.3s\n",
            "mise run test:integration 2>&1 | tail -50",
            "--- FAIL: TestRewind (0.00s)\nFAIL\nFAIL\tgithub.com/acme/ledger/integration\t15.0s\n",
        ),
        (
            "npm test",
            "Tests  12 passed (12)\n",
            "npm run test:e2e",
            "Tests  2 failed | 10 passed (12)\n",
        ),
    ],
    ids=["go-integration-suite", "javascript-e2e-suite"],
)
def test_beside_a_passing_test_command_another_suite_that_reported_its_tests_is_kept(
    unit: str, passed: str, suite: str, failed: str
) -> None:
    session = _failing((unit, 0, passed), (suite, 1, failed))
    base = suite.split(" 2>&1", maxsplit=1)[0]
    assert _also(session) == [f"Tests also run with `{base}` (it ran; its tests failed)."]


def test_the_passing_command_failing_once_or_a_suite_that_never_started_is_no_second_suite() -> (
    None
):
    # The same command failing before it passed is that command, not a second suite.
    assert _also(_failing(("pytest", 1, FAILED), ("pytest", 0, "12 passed in 0.40s\n"))) == []
    # A suite that never started reported no tests: nothing is known of it.
    never = _failing(
        ("npm test", 0, "Tests  12 passed (12)\n"),
        ("npm run test:e2e", 127, "sh: playwright: command not found\n"),
    )
    assert _also(never) == []


@pytest.mark.parametrize(
    ("failed", "output", "passed"),
    [
        ("pytest tests/test_books.py", FAILED, "3 passed in 0.10s\n"),
        (
            "zig test src/lexer.zig",
            "13 passed; 0 skipped; 1 failed.\n",
            "All 14 tests passed.\n",
        ),
    ],
    ids=["python-one-file", "zig-one-file"],
)
def test_a_failing_run_that_passed_later_as_typed_is_no_failing_test_command(
    failed: str, output: str, passed: str
) -> None:
    # Beside the whole suite passing (`make test`), the file's run was fixed: nothing failed.
    whole = ("make test", 0, "12 passed in 0.40s\n")
    assert _also(_failing((failed, 1, output), (failed, 0, passed), whole)) == []
    # Never fixed, it is said.
    (said,) = _also(_failing((failed, 1, output), (failed, 1, output), whole))
    assert said.endswith("(it ran; its tests failed).")


BUSTED_ERROR = (
    "spec/parse_spec.lua:1: module 'almanac.parse' not found:\n"
    "0 successes / 0 failures / 1 error / 0 pending : 0.004 seconds\n"
)
MAKE_TEST = (
    'LUA_PATH="src/?.lua;$LUA_PATH" busted spec\n'
    "21 successes / 0 failures / 0 errors / 0 pending : 0.031 seconds\n"
)


def test_the_runner_a_passing_wrapper_echoes_run_bare_is_no_second_suite() -> None:
    session = _failing(("busted", 1, BUSTED_ERROR), ("make test", 0, MAKE_TEST))
    assert _also(session) == []
    # A wrapper that echoes another runner leaves a failing suite of its own said.
    other = _failing(("busted", 1, BUSTED_ERROR), ("make test", 0, "ok  \tpkg\t0.2s\n"))
    assert _also(other) == ["Tests also run with `busted` (it ran; its tests failed)."]
