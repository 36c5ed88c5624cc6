"""The checks a session ran to finish its change: the gate of a project seen once."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.evidence.final_checks import final_checks
from squirrel_memory.extractors.evidence.typed_runs import with_typed_outcomes
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"


def _gate(session: Session) -> list[str]:
    """What this rule alone finds."""
    found = attempts(with_typed_outcomes(commands(session.events), session.events), ROOT)
    edits = sorted(e.timestamp for e in session.events if e.event_type == EventType.CODE_CHANGE)
    gate = final_checks(found, edits)
    return [] if gate is None else [gate.content]


def _kept(session: Session) -> list[str]:
    """What the rules extractor's evidence keeps as the gate."""
    return [c.content for c in evidence_candidates(session.events) if c.key == "recipe:verify"]


def _worked() -> Session:
    session = Session(ROOT, "s1", T0)
    session.user("Entries without a date must be rejected.")
    session.edit("ledger/books.py", "def post(): ...\n")
    session.run("uv run pytest tests/test_books.py", 1, "1 failed, 4 passed in 0.2s\n")
    session.edit("ledger/books.py", "def post(entry): ...\n")
    return session


def test_the_checks_after_the_last_edit_are_the_gate_though_something_ran_between() -> None:
    session = _worked()
    session.run("uv run ruff check --fix .", 1, "ledger/books.py:3:1: F401 unused import\n")
    session.run("uv run ruff check --fix .", 0, "All checks passed!\n")
    session.run("uv run ruff format .", 0, "1 file reformatted, 9 files left unchanged\n")
    session.run("uv run pyright", 1, "ledger/books.py:4:5 - error: Type is unknown\n")
    session.run("uv run pytest", 0, "12 passed in 0.4s\n")
    session.run("uv run pyright", 0, "0 errors, 0 warnings, 0 informations\n")
    expected = [
        "Before finishing a change: `uv run ruff check --fix .` → `uv run ruff format .` → "
        "`uv run pytest` → `uv run pyright`."
    ]
    assert _gate(session) == expected
    # A failure between the checks breaks the longest unbroken run: this rule keeps the gate.
    assert _kept(session) == expected


def test_a_check_still_failing_at_the_end_says_nothing_of_the_gate() -> None:
    session = _worked()
    session.run("go vet ./...", 0, "")
    session.run("go test ./...", 1, "--- FAIL: TestPost (0.00s)\nFAIL\n")
    session.run("uv run pyright", 0, "0 errors\n")
    assert _gate(session) == []


def test_one_kind_of_check_is_no_gate() -> None:
    session = _worked()
    session.run("uv run pytest", 0, "12 passed in 0.4s\n")
    session.run("uv run pytest -k post", 0, "2 passed in 0.1s\n")
    assert _gate(session) == []


def test_checks_before_the_last_edit_or_in_a_sub_folder_are_not_the_gate() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("bundle exec rubocop", 0, "no offenses detected\n")
    session.run("bundle exec rspec", 0, "12 examples, 0 failures\n")
    session.edit("app/models/entry.rb", "class Entry; end\n")
    session.run("cd web && npx eslint .", 0, "")
    session.run("cd web && npx vitest run", 0, "Tests  12 passed (12)\n")
    assert _gate(session) == []


def test_a_session_that_changed_nothing_has_no_change_to_finish() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("mix format --check-formatted", 1, "** (Mix) mix format failed\n")
    session.run("mix format", 0, "")
    session.run("mix credo", 0, "no issues\n")
    session.run("mix test", 0, "10 tests, 0 failures\n")
    assert _gate(session) == []


def _two_sessions(root: str, old: list[str], new: list[str], edit: str) -> list[Session]:
    """An older session finishing with the `old` checks, a later one with the `new`, each
    after an edit of `edit`; every check passes."""
    sessions = [Session(root, "s1", T0), Session(root, "s2", T0.replace(day=T0.day + 7))]
    for session, checks in zip(sessions, (old, new), strict=True):
        session.run("git status --short", 0, "")
        session.edit(edit, "changed\n")
        for check in checks:
            session.run(check, 0, "ok\n")
    return sessions


def _gate_of(sessions: list[Session]) -> list[str]:
    root = sessions[0].root
    events = [e for s in sessions for e in s.events]
    found = attempts(with_typed_outcomes(commands(events), events), root)
    edits = sorted(e.timestamp for e in events if e.event_type == EventType.CODE_CHANGE)
    gate = final_checks(found, edits)
    return [] if gate is None else [gate.content]


def test_a_check_the_project_moved_away_from_is_no_longer_listed_in_python() -> None:
    # The older session ran more checks, but its linter was replaced by the later one's.
    sessions = _two_sessions(
        ROOT, ["flake8 .", "black .", "pytest"], ["ruff check .", "pytest"], "ledger/books.py"
    )

    assert _gate_of(sessions) == ["Before finishing a change: `ruff check .` → `pytest`."]


def test_a_check_the_project_moved_away_from_is_no_longer_listed_in_javascript() -> None:
    sessions = _two_sessions(
        "/home/dev/site",
        ["npx eslint .", "npx prettier --check .", "npx vitest run"],
        ["npx biome lint .", "npx vitest run"],
        "src/app.ts",
    )

    (gate,) = _gate_of(sessions)
    assert "eslint" not in gate
    assert "biome lint" in gate


def test_a_check_still_run_beside_the_newer_one_stays_listed() -> None:
    # Both linters passed after each other: both are in use, neither is dropped.
    sessions = _two_sessions(
        ROOT, ["flake8 .", "black .", "pytest"], ["ruff check .", "pytest", "flake8 ."], "a.py"
    )

    assert _gate_of(sessions) == [
        "Before finishing a change: `ruff check .` → `pytest` → `flake8 .`."
    ]


def test_checks_run_in_a_folder_outside_the_project_are_no_step_of_its_gate() -> None:
    # Trap: a subagent sent to a sibling checkout runs that checkout's checks there.
    session = _worked()
    session.run("cd /home/dev/client && npm test", 0, "Tests: 38 passed, 38 total\n")
    session.run("cd /home/dev/client && npm run lint", 0, "")

    assert not any("npm" in kept for kept in _kept(session))
