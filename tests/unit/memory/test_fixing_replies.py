"""A failure's cause said by the reply that explains it and says what it changed, a cause after
a label ("Root cause: …", "The real reason: …"), and a diagnosis too long to keep whole cut at
its first clause. Streams of several ecosystems, and where nothing may be kept: a guess, a
cause taken back, a plan, a test written first, a reply that changes nothing, a sentence that
names nothing the output named."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.fixing_replies import fixing_reply_cause
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.session_builder import scripted_session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/ledger"

PYTEST = "pytest tests/test_invoice.py -q"
PY_ERROR = (
    "F..\n>       assert invoice.total() == 10.1\n"
    "E       AssertionError: assert Decimal('10.098') == 10.1\n1 failed, 2 passed in 0.11s"
)
PY_CAUSE = (
    "The test compared a Decimal with a float; money values must be cast to Decimal before "
    "comparing."
)
DOTNET = "dotnet test tests/Ledger.Data.Tests"
DOTNET_ERROR = (
    "  Failed Ledger.Data.Tests.OrderRepositoryTests.SavesOrder [12 ms]\n  Error Message:\n"
    "   Microsoft.Data.Sqlite.SqliteException : SQLite Error 1: 'no such table: Orders'.\n"
    "Failed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12"
)
DOTNET_CAUSE = (
    "What happened: each context opens its own in-memory SQLite connection, and the tables "
    "vanish when the first one closes."
)


def _pitfalls(steps: Sequence[tuple[str, Any]]) -> list[MemoryCandidate]:
    events = scripted_session(ROOT, T0, "s", steps)
    return [c for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def _python(reply: str) -> list[tuple[str, Any]]:
    return [
        ("run", (PYTEST, 1, PY_ERROR)),
        ("say", reply),
        ("edit", ("tests/test_invoice.py", "== 10.1", "== Decimal('10.10')")),
        ("run", (PYTEST, 0, "3 passed in 0.08s")),
    ]


def _dotnet(reply: str) -> list[tuple[str, Any]]:
    return [
        ("run", (DOTNET, 1, DOTNET_ERROR)),
        ("say", reply),
        ("edit", ("tests/Ledger.Data.Tests/DbFixture.cs", "UseSqlite(text)", "UseSqlite(conn)")),
        ("run", (DOTNET, 0, "Passed!  - Failed:     0, Passed:    12")),
    ]


def test_the_cause_before_what_was_changed_is_kept_python() -> None:
    reply = f"{PY_CAUSE} I changed the assertion to `Decimal('10.10')`."
    (pitfall,) = _pitfalls(_python(reply))
    assert "the assistant found: the test compared a Decimal with a float; money values" in (
        pitfall.content
    )


def test_the_cause_before_the_change_that_fixes_it_is_kept_dotnet() -> None:
    reply = f"{DOTNET_CAUSE} Keeping one open connection for the fixture's lifetime fixes it."
    (pitfall,) = _pitfalls(_dotnet(reply))
    assert "the assistant found: each context opens its own in-memory SQLite connection" in (
        pitfall.content
    )


@pytest.mark.parametrize(
    "reply",
    [
        # a guess
        "The test probably compared a Decimal with a float here. I changed the assertion.",
        # a hedge said as not being sure
        "I'm not sure why the Decimal differs. I changed the assertion to use `Decimal`.",
        # the outcome said again
        "The Decimal total works with the rounded tax rate. I changed the assertion.",
        # what a test written first checks
        "The new test checks the Decimal total with tax. I added the tax to `Invoice.total`.",
        # something not done yet
        "The Decimal total has no tax applied yet. I added the tax to `Invoice.total`.",
        # no change said after it
        PY_CAUSE + " Running the tests again.",
        # naming nothing the output named
        "Money values are kept as integers of cents everywhere else. I changed the assertion.",
        # the assistant's own doing
        "We compared a Decimal with a float in the fixture. I changed the assertion.",
    ],
)
def test_no_cause_from_a_guess_an_outcome_a_test_or_a_reply_without_a_change(reply: str) -> None:
    for pitfall in _pitfalls(_python(reply)):
        assert "the assistant found" not in pitfall.content


def test_a_reply_after_the_next_try_is_not_read() -> None:
    steps = [
        ("run", (PYTEST, 1, PY_ERROR)),
        ("run", ("pytest tests/test_invoice.py -q -x", 0, "3 passed")),
        ("say", f"{PY_CAUSE} I changed the assertion."),
    ]
    for pitfall in _pitfalls(steps):
        assert "compared a Decimal" not in pitfall.content


def test_the_reply_shape_alone() -> None:
    assert fixing_reply_cause(f"{PY_CAUSE} I changed it.", PY_ERROR).startswith("The test")
    assert fixing_reply_cause(f"{DOTNET_CAUSE} Fix: keep it open.", DOTNET_ERROR).startswith(
        "Each context opens"
    )
    assert fixing_reply_cause(PY_CAUSE, PY_ERROR) == ""


GO = "go test -race ./internal/cache/..."
GO_ERROR = (
    "WARNING: DATA RACE\nRead at 0x00c0000a4060 by goroutine 9:\n"
    "--- FAIL: TestConcurrentAccess (0.01s)\nFAIL\tshelf/internal/cache\t0.034s"
)


def test_a_cause_after_a_label_is_kept_without_it_go() -> None:
    steps = [
        ("run", (GO, 1, GO_ERROR)),
        ("say", "Root cause: `Cache.Get` reads the map without holding the mutex. I took it."),
        ("edit", ("internal/cache/cache.go", "func (c *Cache) Get() {", "c.mu.RLock()")),
        ("run", (GO, 0, "ok  \tshelf/internal/cache\t1.1s")),
    ]
    (pitfall,) = _pitfalls(steps)
    assert "the assistant found: `Cache.Get` reads the map without holding the mutex;" in (
        pitfall.content
    )
    assert "Root cause" not in pitfall.content


GRADLE = "./gradlew test --tests TariffTest"
GRADLE_ERROR = (
    "TariffTest > night rate FAILED\n"
    "    org.opentest4j.AssertionFailedError: expected: <0.18> but was: <0.32>\nBUILD FAILED"
)


def test_the_real_reason_after_a_cause_taken_back_is_kept_kotlin() -> None:
    steps = [
        ("run", (GRADLE, 1, GRADLE_ERROR)),
        ("say", "This fails because the test clock runs in the machine's time zone."),
        ("edit", ("src/test/kotlin/TariffTest.kt", "systemDefaultZone()", "fixed(at, UTC)")),
        ("run", (GRADLE, 1, GRADLE_ERROR)),
        (
            "say",
            "The time zone was not the cause after all. The real reason: `Tariff.rate` compares "
            "`hour > 22`, so 22:30 counts as day rate.",
        ),
        ("edit", ("src/main/kotlin/Tariff.kt", "hour > 22", "hour >= 22")),
        ("run", (GRADLE, 0, "BUILD SUCCESSFUL in 8s")),
    ]
    (pitfall,) = _pitfalls(steps)
    assert "the assistant found: `Tariff.rate` compares `hour > 22`" in pitfall.content
    assert "time zone" not in pitfall.content


FLUTTER = "flutter test test/cart_page_test.dart"
FLUTTER_ERROR = (
    "00:03 +0 -1: keeps the count after navigating back [E]\n  Expected: '2'\n  Actual: '0'"
)
CARGO = "cargo test --test client"
CARGO_ERROR = (
    "error[E0433]: failed to resolve: use of undeclared crate or module `tokio`\n"
    ' --> tests/client.rs:3:3\nerror: could not compile `fetchq` (test "client")'
)


@pytest.mark.parametrize(
    ("command", "error", "reply", "kept"),
    [
        (
            FLUTTER,
            FLUTTER_ERROR,
            "The page lost its count because the cart provider was autoDispose: when the page "
            "is popped nothing listens to `cartProvider`, so it is disposed and built again from "
            "nothing on the way back, with every item the user added to the cart gone for good "
            "by then. keepAlive keeps it.",
            "the page lost its count because the cart provider was autoDispose;",
        ),
        (
            CARGO,
            CARGO_ERROR,
            "The tests fail to build because tokio is optional in this crate; it is only pulled "
            "in by the `async` feature, and `cargo test` builds the integration tests without "
            "that feature turned on, so `#[tokio::test]` names a crate the test target never "
            "sees at all.",
            "the tests fail to build because tokio is optional in this crate;",
        ),
    ],
)
def test_a_diagnosis_too_long_to_keep_keeps_its_first_clause(
    command: str, error: str, reply: str, kept: str
) -> None:
    steps = [
        ("run", (command, 1, error)),
        ("say", reply),
        ("edit", ("config.file", "old = 1", "new = 2")),
        ("run", (command, 0, "All tests passed!")),
    ]
    (pitfall,) = _pitfalls(steps)
    assert f"the assistant found: {kept}" in pitfall.content


def test_a_long_diagnosis_whose_cue_is_after_the_first_clause_is_not_cut() -> None:
    reply = (
        "The cart page keeps a count of the items the user added and shows it in the badge on "
        "the app bar: it drops to zero because the provider is autoDispose and nothing listens "
        "to it while the page is popped off the navigator stack, so it is disposed and built "
        "again."
    )
    steps = [
        ("run", (FLUTTER, 1, FLUTTER_ERROR)),
        ("say", reply),
        ("edit", ("config.file", "old = 1", "new = 2")),
        ("run", (FLUTTER, 0, "All tests passed!")),
    ]
    for pitfall in _pitfalls(steps):
        assert "keeps a count" not in pitfall.content
