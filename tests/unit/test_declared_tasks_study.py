"""The declared-tasks study's cases and how an outcome is judged (no pipeline run)."""

from __future__ import annotations

from bench.declared_task_cases import BUN_HEAD, CASES, RAN_PASSED
from bench.declared_tasks import Outcome


def test_every_case_is_named_once_and_a_firing_case_expects_something() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    assert all(c.expect for c in CASES if c.fires)
    assert sum(not c.fires for c in CASES) >= 10


def test_an_outcome_needs_every_pattern_and_no_never_or_second_once_match() -> None:
    said = (
        "recipe",
        "Tasks `package.json` defines: `bun run check` (runs the checks; runs `bun run lint &&"
        " bun run test`); `bun run lint` (lints the code; runs `eslint .`).",
    )
    assert Outcome(BUN_HEAD, [said]).right()
    assert not Outcome(BUN_HEAD, [("recipe", "To run the checks: `bun run check`.")]).right()
    npm = ("recipe", "Lint with `npm run lint`.")
    assert not Outcome(BUN_HEAD, [said, npm]).right()
    twice = [("recipe", "To run the checks: `bun run check`."), said]
    assert not Outcome(RAN_PASSED, twice).right()
    assert Outcome(RAN_PASSED, twice[:1]).right()
