"""A command that got a failed check past its failure is that moment's fix, not a step of the
end-of-session routine, whatever the ecosystem; run after the checks passed, it still is one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.rules import evidence_candidates
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 8, 3, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/resolvd"

#: (check, its failure's output, the fix, the output of the check passing)
CASES = {
    "go": (
        "go test ./...",
        "missing go.sum entry for module providing package github.com/acme/ldap",
        "go mod tidy",
        "ok  \texample.com/resolvd\t0.012s",
    ),
    "elixir": (
        "mix test",
        "** (Mix) Could not find an SCM for dependency :jason",
        "mix deps.get",
        "12 tests, 0 failures",
    ),
}


def _sessions(check: str, failed: str, fix: str, passed: str, fix_after: bool) -> list:
    events = []
    for n in range(3):
        session = Session(ROOT, f"s{n}", T0 + timedelta(days=n))
        session.user("Add the next integration.")
        session.write(f"lib/part_{n}.src", "x\n")
        if fix_after:
            session.run(check, 0, passed)
            session.run(fix, 0, "")
        else:
            session.run(check, 1, failed)
            session.run(fix, 0, "")
            session.run(check, 0, passed)
        session.say("Done.")
        events.extend(session.events)
    return events


@pytest.mark.parametrize("ecosystem", sorted(CASES))
def test_a_fix_between_a_failed_check_and_its_pass_is_no_routine_step(ecosystem: str) -> None:
    check, failed, fix, passed = CASES[ecosystem]
    found = {
        c.key: c.content for c in evidence_candidates(_sessions(check, failed, fix, passed, False))
    }
    assert "recipe:routine" not in found or fix not in found["recipe:routine"], found


@pytest.mark.parametrize("ecosystem", sorted(CASES))
def test_the_same_command_after_the_checks_passed_is_still_the_routine(ecosystem: str) -> None:
    check, failed, fix, passed = CASES[ecosystem]
    found = {
        c.key: c.content for c in evidence_candidates(_sessions(check, failed, fix, passed, True))
    }
    assert fix in found.get("recipe:routine", ""), found
