"""A report's change named with the failure it was causing ("Removed x, which was causing the
build error") answers an error the user pasted, even when the change itself was not seen; a
guess, a plan, a change elsewhere and a failure the user says is still there do not."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.extractors.causing_changes import causing_change
from squirrel_memory.extractors.reported import reported_pitfalls
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"
PASTED = (
    "npm run dev\n\n"
    "Error: Cannot find module '/home/dev/shop/src/money.js'\n"
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)\n"
)
REPORT = (
    "The server starts again. Summary of what was fixed:\n\n"
    "1. **Deleted the stale `src/boot/money.js` import**, which was causing the boot error\n"
    "2. Checked that `npm run dev` starts\n"
)


def _stream(*steps: tuple[str, dict[str, Any], str]) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{n:04d}",
            project_id=ROOT,
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=T0 + timedelta(seconds=20 * n),
            event_type=kind,
            content=content,
            file_paths=(),
            hash=f"h{n}",
            origin=origin,
        )
        for n, (kind, content, origin) in enumerate(steps)
    ]


def _user(text: str) -> tuple[str, dict[str, Any], str]:
    return ("user_message", {"text": text}, "typed")


def _says(text: str) -> tuple[str, dict[str, Any], str]:
    return ("assistant_response", {"text": text}, "assistant")


@pytest.mark.parametrize(
    ("text", "failure"),
    [
        (
            "Removed the dummy C extension from setup.py that was causing the build error",
            "the build error",
        ),
        ("Pinned `pg` to 1.5.6, which was behind these install failures", "these install failures"),
        (
            "Deleted the duplicate `conftest.py` that was the cause of the import errors",
            "the import errors",
        ),
    ],
)
def test_a_change_with_the_failure_it_was_causing_is_read(text: str, failure: str) -> None:
    assert causing_change(text) == (text, failure)


@pytest.mark.parametrize(
    "text",
    [
        # a guess
        "Cleared `tmp/cache`, which might have been causing the flaky failure",
        "Removed the lock file that was probably causing the install error",
        # a plan, not a change made
        "I'll remove the stale `go.work` that is causing the build error",
        "Remove the stale `go.work` that was causing the build error",
        # another checkout
        "Deleted the line in `~/src/fork/src/mod.rs`, which was causing the build error there",
        "Deleted the leftover line, which was causing the build error in the fork",
        # no failure named
        "Removed the old banner that was causing confusion",
    ],
)
def test_no_cause_read_from_a_guess_a_plan_elsewhere_or_no_failure(text: str) -> None:
    assert causing_change(text) is None


def test_a_pasted_error_answered_by_such_a_report_is_a_pitfall_without_a_seen_change() -> None:
    (found,) = reported_pitfalls(_stream(_user(PASTED), _says(REPORT)))

    assert found.content == (
        "`Error: Cannot find module 'src/money.js'` was reported from outside the "
        "session; the report's fix: deleted the stale `src/boot/money.js` import, which was "
        "causing the boot error."
    )
    assert found.event_ids == ("evt_0000", "evt_0001")


@pytest.mark.parametrize(
    "reply",
    [
        "still the same error",
        "no, it fails again",
        "Error: Cannot find module '/home/dev/shop/src/money.js' when I run it",
    ],
)
def test_the_user_saying_the_failure_is_still_there_takes_it_back(reply: str) -> None:
    assert reported_pitfalls(_stream(_user(PASTED), _says(REPORT), _user(reply))) == []


def test_the_user_moving_on_keeps_it() -> None:
    found = reported_pitfalls(_stream(_user(PASTED), _says(REPORT), _user("thanks, next task")))

    assert len(found) == 1


def test_a_report_with_no_such_clause_and_no_change_gives_nothing() -> None:
    report = REPORT.replace(", which was causing the boot error", "")

    assert reported_pitfalls(_stream(_user(PASTED), _says(report))) == []
