"""A failure's cause read by its structure: the assistant's sentence, said between the failure
and the change, that names what the failing output named, kept when a run passed after it.
Streams of several ecosystems, and where the rule must stay silent (a plan, a guess, a
question, a progress line, a step a later failure showed wrong, a sentence after the change)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.session_builder import scripted_session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"

PY_ERROR = (
    "tests/test_dates.py::test_due FAILED\n"
    '  File "src/ledger/dates.py", line 12, in parse_date\n'
    "E   TypeError: can't compare offset-naive and offset-aware datetimes\n"
)
PY_CAUSE = "`parse_date` returns a naive datetime while the stored dates carry a zone offset."


def _pitfalls(steps: Sequence[tuple[str, Any]]) -> list[MemoryCandidate]:
    events = scripted_session(ROOT, T0, "s", steps)
    return [c for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def _python(reply: str) -> list[tuple[str, Any]]:
    return [
        ("run", ("pytest tests/test_dates.py", 1, PY_ERROR)),
        ("say", reply),
        ("edit", ("src/ledger/dates.py", "return parse(text)", "return parse(text).astimezone()")),
        ("run", ("pytest tests/test_dates.py", 0, "1 passed")),
    ]


def test_a_sentence_naming_the_outputs_symbol_is_the_cause_python() -> None:
    (pitfall,) = _pitfalls(_python(f"Found it. {PY_CAUSE} Let me fix that."))
    assert "the assistant found: `parse_date` returns a naive datetime" in pitfall.content


def test_a_sentence_naming_the_outputs_crate_is_the_cause_rust() -> None:
    error = (
        "error[E0433]: failed to resolve: use of undeclared crate or module `serde_json`\n"
        " --> src/report.rs:4:5\n"
    )
    steps = [
        ("run", ("cargo build", 101, error)),
        ("say", "The `serde_json` crate is not listed under `[dependencies]` in `Cargo.toml` yet."),
        ("run", ("cargo add serde_json", 0, "Adding serde_json v1.0.120 to dependencies")),
        ("run", ("cargo build", 0, "Finished dev profile")),
    ]
    (pitfall,) = _pitfalls(steps)
    assert "the assistant found: the `serde_json` crate is not listed" in pitfall.content


def test_a_sentence_naming_the_outputs_symbol_is_the_cause_typescript() -> None:
    error = "src/api.ts(3,10): error TS2305: Module '\"./types\"' has no exported member 'Entry'.\n"
    old, new = "import { Entry } from './types'", "import { Entry } from './models'"
    steps = [
        ("run", ("npx tsc --noEmit", 2, error)),
        ("say", "`Entry` lives in `src/models.ts`, not in `./types`."),
        ("edit", ("src/api.ts", old, new)),
        ("run", ("npx tsc --noEmit", 0, "")),
    ]
    (pitfall,) = _pitfalls(steps)
    assert "the assistant found: `Entry` lives in `src/models.ts`, not in `./types`;" in (
        pitfall.content
    )
    assert pitfall.content.endswith(f"changing `{old}` to `{new}` in src/api.ts fixed it.")


def test_a_sentence_naming_the_outputs_flag_is_the_cause_go() -> None:
    error = "flag provided but not defined: -short-mode\nusage: ledger-check [flags]\n"
    steps = [
        ("run", ("go run ./cmd/ledger-check -short-mode", 2, error)),
        ("say", "The checker only knows `-short`; `-short-mode` was its name before v2."),
        ("run", ("go run ./cmd/ledger-check -short", 0, "ledger ok")),
    ]
    (pitfall,) = _pitfalls(steps)
    assert "the assistant found: the checker only knows `-short`" in pitfall.content
    assert "`-short`" in pitfall.content


@pytest.mark.parametrize(
    "reply",
    [
        # a plan
        "Let me look at `parse_date` in `src/ledger/dates.py` first.",
        # a guess
        "`parse_date` probably returns a naive datetime here.",
        "It seems `parse_date` has no zone offset.",
        # a question
        "Does `parse_date` return a naive datetime?",
        # a progress line
        "Checking `src/ledger/dates.py` ...",
        # the outcome said again
        "`test_due` failed on the comparison of two dates.",
        # the assistant's own doing
        "I changed `parse_date` to keep the offset.",
        # an instruction
        "Use `parse_date` with an explicit zone.",
        # a sentence naming nothing the output named
        "The date helper returns a naive datetime while the stored dates carry a zone offset.",
    ],
)
def test_no_cause_from_a_plan_a_guess_a_question_or_a_symptom(reply: str) -> None:
    (pitfall,) = _pitfalls(_python(reply))
    assert "the assistant found" not in pitfall.content


def test_a_sentence_a_later_failure_showed_wrong_is_not_the_cause() -> None:
    steps = [
        ("run", ("pytest tests/test_dates.py", 1, PY_ERROR)),
        ("say", "`parse_date` reads the offset from `settings.TIME_ZONE`, which is empty."),
        ("run", ("pytest tests/test_dates.py", 1, PY_ERROR)),
        ("say", "Hmm, same result."),
        ("edit", ("src/ledger/dates.py", "return parse(text)", "return parse(text).astimezone()")),
        ("run", ("pytest tests/test_dates.py", 0, "1 passed")),
    ]
    pitfalls = _pitfalls(steps)
    assert pitfalls
    assert all("TIME_ZONE" not in p.content for p in pitfalls)


def test_a_sentence_after_the_change_is_not_the_cause() -> None:
    steps = [
        ("run", ("pytest tests/test_dates.py", 1, PY_ERROR)),
        ("edit", ("src/ledger/dates.py", "return parse(text)", "return parse(text).astimezone()")),
        ("say", "`parse_date` returns an aware datetime with the offset kept."),
        ("run", ("pytest tests/test_dates.py", 0, "1 passed")),
    ]
    (pitfall,) = _pitfalls(steps)
    assert "the assistant found" not in pitfall.content


def test_no_cause_when_nothing_passed_after_it() -> None:
    steps = [
        ("run", ("cargo build", 101, "error[E0433]: use of undeclared crate `serde_json`\n")),
        ("say", "The `serde_json` crate is not listed under `[dependencies]` yet."),
        ("run", ("cargo build", 101, "error[E0433]: use of undeclared crate `serde_json`\n")),
    ]
    for pitfall in _pitfalls(steps):
        assert "the assistant found" not in pitfall.content


def test_a_cue_word_diagnosis_still_comes_first() -> None:
    reply = f"{PY_CAUSE} The test fails because the fixture dates are aware."
    (pitfall,) = _pitfalls(_python(reply))
    assert "the assistant found: the test fails because the fixture dates" in pitfall.content
