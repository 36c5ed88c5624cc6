"""The one check a session kept coming back to while it changed the code is its gate."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.command_evidence import evidence_candidates
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"


def _gate(session: Session) -> list[str]:
    return [c.content for c in evidence_candidates(session.events) if c.key == "recipe:verify"]


def _fixed(check: str, *, cwd: str | None = None) -> Session:
    """A change, the check failing on it, another change, the check passing."""
    session = Session(ROOT, "s1", T0)
    session.user("Entries without a date must be rejected.")
    session.edit(f"{ROOT}/ledger/books.go", "func Post() {}\n")
    session.run(check, 1, "--- FAIL: TestPost (0.00s)\nFAIL\n", cwd=cwd)
    session.edit(f"{ROOT}/ledger/books.go", "func Post(e Entry) {}\n")
    session.run(check, 0, "ok  \tledger\t0.012s\n", cwd=cwd)
    return session


def test_a_check_run_until_it_passed_after_the_changes_is_the_gate() -> None:
    assert _gate(_fixed("go test ./...")) == ["Before finishing a change: `go test ./...`."]


def test_a_check_the_user_typed_and_the_session_then_satisfied_is_the_gate() -> None:
    session = Session(ROOT, "s1", T0)
    session.typed("cargo clippy", "warning: unused variable: `total`\n")
    session.user("please fix these")
    session.edit(f"{ROOT}/src/books.rs", "let _total = 0;\n")
    session.run("cargo clippy", 0, "Finished `dev` profile\n")
    assert _gate(session) == ["Before finishing a change: `cargo clippy`."]


def test_a_check_run_once_after_the_only_change_is_no_gate() -> None:
    session = Session(ROOT, "s1", T0)
    session.edit(f"{ROOT}/ledger/books.go", "func Post() {}\n")
    session.run("go test ./...", 0, "ok  \tledger\t0.012s\n")
    assert _gate(session) == []


def test_a_check_failing_at_the_end_is_no_gate() -> None:
    session = _fixed("go test ./...")
    session.edit(f"{ROOT}/ledger/books.go", "func Post(e *Entry) {}\n")
    session.run("go test ./...", 1, "--- FAIL: TestPost (0.00s)\nFAIL\n")
    assert _gate(session) == []


def test_a_check_run_in_another_repository_is_no_gate() -> None:
    assert _gate(_fixed("go test ./...", cwd="/home/dev/other")) == []


def test_a_check_whose_status_a_pipe_hid_is_no_gate() -> None:
    assert _gate(_fixed("go test ./... 2>&1 | tail -20")) == []


def test_a_session_without_a_change_has_no_gate() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("go test ./...", 1, "--- FAIL: TestPost (0.00s)\nFAIL\n")
    session.run("go test ./...", 0, "ok  \tledger\t0.012s\n")
    assert _gate(session) == []


def test_two_kinds_of_check_after_the_last_change_give_the_wider_gate() -> None:
    session = _fixed("go test ./...")
    session.run("golangci-lint run", 0, "")
    assert _gate(session) == ["Before finishing a change: `go test ./...` → `golangci-lint run`."]


def test_a_change_after_the_last_check_leaves_it_unverified() -> None:
    session = _fixed("go test ./...")
    session.edit(f"{ROOT}/ledger/books.go", "func Post(e *Entry) {}\n")
    assert _gate(session) == []


@pytest.mark.parametrize(
    "given",
    [
        # Rust: the query macros need the offline cache the variable turns on
        "QUUX_OFFLINE=true",
        # a quoted value with blanks, kept whole
        'QUUX_FLAGS="-a -b"',
    ],
)
def test_a_check_that_passed_only_with_a_variable_keeps_it(given: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Accept lowercase tracking codes.")
    session.edit(f"{ROOT}/src/tracking.rs", "c.is_ascii_alphanumeric()\n")
    session.run("cargo test", 101, "error: set `DATABASE_URL` to use query macros online\n")
    session.run(f"{given} cargo test", 0, "test result: ok. 23 passed; 0 failed\n")
    assert _gate(session) == [f"Before finishing a change: `{given} cargo test`."]
