""" "To format" is the run that formats, not its check-only form, in every ecosystem: the
check may have run more often, and with no writing run seen the check is all there is to say."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.rules import evidence_candidates
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 8, 3, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"

FORMATTERS = {
    "php": ("vendor/bin/pint", "vendor/bin/pint --test"),
    "javascript": ("npx prettier --write .", "npx prettier --check ."),
    "rust": ("cargo fmt", "cargo fmt --check"),
}


def _format_recipe(writer: str, check: str, *, with_writer: bool) -> str:
    events = []
    for n in range(2):
        session = Session(ROOT, f"s{n}", T0 + timedelta(days=n))
        session.user("Tidy the new module.")
        session.write(f"src/part_{n}.txt", "x\n")
        if with_writer and n == 0:
            session.run(check, 1, "1 file would be reformatted")
            session.run(writer, 0, "1 file reformatted")
        session.run(check, 0, "all files formatted")
        session.say("Done.")
        events.extend(session.events)
    return next(c.content for c in evidence_candidates(events) if c.key == "recipe:format")


@pytest.mark.parametrize("ecosystem", sorted(FORMATTERS))
def test_the_format_recipe_is_the_run_that_formats(ecosystem: str) -> None:
    writer, check = FORMATTERS[ecosystem]
    assert _format_recipe(writer, check, with_writer=True).startswith(f"To format: `{writer}`")


@pytest.mark.parametrize("ecosystem", sorted(FORMATTERS))
def test_with_only_the_check_seen_the_check_is_said(ecosystem: str) -> None:
    writer, check = FORMATTERS[ecosystem]
    said = _format_recipe(writer, check, with_writer=False)
    assert said.startswith(f"To check the formatting: `{check}`"), said


def test_the_formatter_after_a_failed_check_is_its_fix_not_its_pass() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Tidy it.")
    session.write("src/main.rs", "fn main() {}\n")
    session.run("cargo fmt --all -- --check", 1, "Diff in /home/dev/ledger/src/main.rs at line 3:")
    session.run("cargo fmt --all", 0, "")
    session.run("cargo fmt --all -- --check", 0, "")
    (pitfall,) = [c for c in evidence_candidates(session.events) if c.key.startswith("pitfall")]
    assert "running the formatter (`cargo fmt --all`)" in pitfall.content, pitfall.content
