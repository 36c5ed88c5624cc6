"""A test failing while its code is written is the work, not a lesson; a failure the session
calls expected is not one either. Streams of several ecosystems, and where the rule must keep
the pitfall."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent
from tests.unit.memory.session_builder import scripted_session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"


def _session(session: str, steps: Sequence[tuple[str, Any]], start: int = 0) -> list[StoredEvent]:
    return scripted_session(ROOT, T0, session, steps, start)


def _pitfalls(events: list[StoredEvent]) -> list[MemoryCandidate]:
    return [c for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


TEST_RUNS = [
    ("cargo test parser", "test parser::tests::reads_header ... FAILED\nassertion failed: ok"),
    (
        "mix test test/app/billing_test.exs",
        "1) test totals (BillingTest)\n** (MatchError) no match",
    ),
    ("go test ./store/...", "--- FAIL: TestPut (0.00s)\n    store_test.go:12: got 1, want 2"),
    ("bundle exec rspec spec/cart_spec.rb", "Failure/Error: expect(total).to eq(3)\n  got: 2"),
    # a message the test printed at its own line, in the test's own words
    ("go test ./cache/", "--- FAIL: TestExpiry (0.00s)\n    cache_test.go:14: item still returned"),
    ("pytest tests/test_cart.py", "tests/test_cart.py:12: cart total off by one cent"),
]


@pytest.mark.parametrize(("command", "output"), TEST_RUNS)
def test_a_test_edited_until_it_passes_in_one_session_is_no_pitfall(
    command: str, output: str
) -> None:
    events = _session(
        "s",
        [
            ("run", (command, 1, output)),
            ("edit", ("src/thing.src", "return 1", "return 2")),
            ("run", (command, 0, "ok, all passed")),
        ],
    )
    assert _pitfalls(events) == []


@pytest.mark.parametrize(("command", "output"), TEST_RUNS)
def test_the_same_test_failure_in_two_sessions_stays_a_pitfall(command: str, output: str) -> None:
    events: list[StoredEvent] = []
    for day in range(2):
        events += _session(
            f"s{day}",
            [
                ("run", (command, 1, output)),
                ("edit", ("src/thing.src", f"return {day}", f"return {day + 1}")),
                ("run", (command, 0, "ok, all passed")),
            ],
            start=day * 86_400,
        )
    assert len(_pitfalls(events)) == 1


def test_a_test_failure_with_a_stated_cause_stays_a_pitfall() -> None:
    events = _session(
        "s",
        [
            ("run", ("go test ./store/...", 1, "--- FAIL: TestPut\n    store_test.go:12: got 1")),
            ("say", "The test fails because the store caches keys without their prefix."),
            ("edit", ("store/put.go", "key := k", "key := prefix + k")),
            ("run", ("go test ./store/...", 0, "ok")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "caches keys without their prefix" in pitfall.content


@pytest.mark.parametrize(
    "said",
    [
        "The RED step fails because `compaction` is absent, as intended.",
        "The new test fails as expected because the handler does not exist yet.",
        "One test needs updating due to the changed error message.",
        # the expectation said as a clause after the cause (Kotlin and Ruby wordings)
        "The test fails because `applyDiscount` doesn't know about loyalty yet, as expected "
        "for the first step.",
        "The spec fails because `Coupon#expired?` is not written; as expected at this point.",
    ],
)
def test_a_failure_the_session_calls_expected_is_no_pitfall(said: str) -> None:
    events: list[StoredEvent] = []
    for day in range(2):  # even seen twice
        events += _session(
            f"s{day}",
            [
                ("run", ("npm test -- --run cart", 1, "AssertionError: expected 2 to equal 3")),
                ("say", said),
                ("edit", ("src/cart.ts", "return 2", "return 3")),
                ("run", ("npm test -- --run cart", 0, "Tests 1 passed")),
            ],
            start=day * 86_400,
        )
    assert _pitfalls(events) == []


def test_a_setup_step_that_fixed_a_test_run_stays_a_pitfall() -> None:
    events = _session(
        "s",
        [
            ("run", ("pytest", 127, "/bin/bash: line 1: pytest: command not found")),
            ("run", ("source .venv/bin/activate && pytest", 0, "3 passed")),
        ],
    )
    assert len(_pitfalls(events)) == 1


def test_an_assertion_fixed_by_a_setting_stays_a_pitfall() -> None:
    events = _session(
        "s",
        [
            ("run", ("./gradlew test", 1, "expected:<30> but was:<5>\nFAILED RetryTest")),
            ("edit", ("src/test/resources/app.yml", "timeout: 5", "timeout: 30")),
            ("run", ("./gradlew test", 0, "BUILD SUCCESSFUL")),
        ],
    )
    assert len(_pitfalls(events)) == 1
