"""A rule put after the kind of work it holds for ("For UI changes, always take a screenshot")
is kept with that kind after it; a leading "for" that names the task's own things, a moment
or an example is no kind of work, and sets no rule."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.standing_marks import kind_last
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _style(message: str) -> list[str]:
    session = Session("/work/app", "s1", START)
    session.add("user_message", {"text": message}, origin="typed")
    session.say("Understood.")
    session.run("git status", 0, "On branch main")
    return [c.content for c in session.extracted() if c.type is MemoryType.USER_STYLE]


@pytest.mark.parametrize(
    ("clause", "moved"),
    [
        ("For UI changes, always take a screenshot.", "always take a screenshot for UI changes."),
        (
            "for database migrations, never edit an old one",
            "never edit an old one for database migrations",
        ),
        ("For now, skip the flaky tests.", "For now, skip the flaky tests."),
        ("For these tests, always use mocks.", "For these tests, always use mocks."),
        ("For example, run the tests.", "For example, run the tests."),
        ("Always take a screenshot.", "Always take a screenshot."),
    ],
)
def test_a_leading_kind_of_work_moves_after_the_rule(clause: str, moved: str) -> None:
    assert kind_last(clause) == moved


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("For UI changes, always take a screenshot.", "Always take a screenshot for UI changes."),
        (
            "For Ecto migrations, never edit one that has shipped.",
            "Never edit one that has shipped for Ecto migrations.",
        ),
    ],
)
def test_a_rule_after_its_kind_of_work_is_kept(message: str, kept: str) -> None:
    assert _style(message) == [kept]


@pytest.mark.parametrize(
    "message",
    [
        "For these tests, always use mocks.",
        "For now, skip the flaky tests.",
        "For commits, see above.",
    ],
)
def test_no_rule_from_a_leading_for_of_the_task(message: str) -> None:
    assert _style(message) == []
