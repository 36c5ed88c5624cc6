"""A gate task beside the command that runs only the tests, and a test command that failed
before it passed.

A gate (`./gradlew check`, `make check`) runs the tests among other checks: when the sessions
also ran a command that runs only the tests, that command is the test command and the gate a
recipe of its own; when the gate is all they ran, it keeps the test slot, said as what it is.
A test command whose whole run passed is never said to have had its tests fail.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.command_evidence import evidence_candidates
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/src/app"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

#: (test command, its failing output, its passing output, the gate, a source file) per
#: ecosystem.
ECOSYSTEMS = {
    "gradle": (
        "./gradlew test",
        "> Task :test FAILED\n\nOrderTest > rejects() FAILED\n\n12 tests completed, 1 failed",
        "> Task :test\n\nBUILD SUCCESSFUL in 14s",
        "./gradlew check",
        "src/main/java/com/acme/Order.java",
    ),
    "make": (
        "make test",
        "[FAIL] parse_trailer\n2 passed, 1 failed\nmake: *** [Makefile:7: test] Error 1",
        "[PASS] parse_trailer\n3 passed, 0 failed",
        "make check",
        "src/parse.c",
    ),
}


def _found(ecosystem: str, runs: Sequence[tuple[str, int, str]]) -> dict[str, str]:
    """Every memory one session that ran `runs`, with an edit of the ecosystem's source file
    before each, gives (key: text)."""
    session = Session(ROOT, "s1", T0)
    for command, code, output in runs:
        session.edit(f"{ROOT}/{ECOSYSTEMS[ecosystem][4]}")
        session.run(command, code, output, cwd=ROOT)
    return {c.key: c.content for c in evidence_candidates(session.events)}


@pytest.mark.parametrize("ecosystem", sorted(ECOSYSTEMS))
def test_the_command_running_only_the_tests_holds_the_test_slot(ecosystem: str) -> None:
    test, failed, passed, gate, _ = ECOSYSTEMS[ecosystem]
    found = _found(ecosystem, [(test, 1, failed), (test, 0, passed), (gate, 0, passed)])
    assert found["recipe:test"] == f"To run the tests: `{test}`."
    assert found["recipe:gate"] == f"To run the checks: `{gate}`."


@pytest.mark.parametrize("ecosystem", sorted(ECOSYSTEMS))
def test_a_gate_alone_keeps_the_test_slot(ecosystem: str) -> None:
    _, _, passed, gate, _ = ECOSYSTEMS[ecosystem]
    found = _found(ecosystem, [(gate, 0, passed), (gate, 0, passed)])
    assert found["recipe:test"].startswith(f"To run the checks: `{gate}`")
    assert "recipe:gate" not in found


@pytest.mark.parametrize("ecosystem", sorted(ECOSYSTEMS))
def test_a_test_command_that_passed_after_failing_is_not_said_to_fail(ecosystem: str) -> None:
    test, failed, passed, gate, _ = ECOSYSTEMS[ecosystem]
    found = _found(ecosystem, [(test, 1, failed), (test, 0, passed), (gate, 0, passed)])
    assert not any("its tests failed" in text for text in found.values())


@pytest.mark.parametrize("ecosystem", sorted(ECOSYSTEMS))
def test_a_test_command_that_never_passed_still_says_so(ecosystem: str) -> None:
    test, failed, *_ = ECOSYSTEMS[ecosystem]
    found = _found(ecosystem, [(test, 1, failed), (test, 1, failed)])
    assert found["test_command"] == f"Tests run with `{test}` (it ran; its tests failed)."
    assert "recipe:test" not in found


#: A check whose options come before its action (the head alone is the bare program), per
#: ecosystem, and a run of one test file whose head stays as it is.
OPTIONS_FIRST = {
    "maven": ("mvn -q test", "Tests run: 12, Failures: 0, Errors: 0, Skipped: 0", "Order.java"),
    "gradle": ("./gradlew --offline test", "BUILD SUCCESSFUL in 9s", "Order.kt"),
}


@pytest.mark.parametrize("ecosystem", sorted(OPTIONS_FIRST))
def test_a_verifying_check_shows_its_action_after_options(ecosystem: str) -> None:
    command, output, source = OPTIONS_FIRST[ecosystem]
    session = Session(ROOT, "s1", T0)
    for _ in range(2):
        session.edit(f"{ROOT}/src/main/{source}")
        session.run(command, 0, output, cwd=ROOT)
    found = {c.key: c.content for c in evidence_candidates(session.events)}
    assert found["recipe:verify"] == f"Before finishing a change: `{command}`."


def test_a_verifying_run_of_one_file_keeps_its_head() -> None:
    session = Session(ROOT, "s1", T0)
    for _ in range(2):
        session.edit(f"{ROOT}/app/models.py")
        session.run("pytest tests/test_models.py", 0, "3 passed in 0.10s", cwd=ROOT)
    found = {c.key: c.content for c in evidence_candidates(session.events)}
    assert found["recipe:verify"] == "Before finishing a change: `pytest`."
