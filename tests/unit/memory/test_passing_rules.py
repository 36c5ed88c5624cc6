"""A rule the next sentence takes back, under a hypothetical future or bounded to the day sets
no habit (`extractors/passing_rules.py`); the rest of the message is read as before."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from session_builder import Session

from squirrel_memory.extractors.passing_rules import standing_text
from squirrel_memory.models import MemoryType

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _styles(said: str) -> list[str]:
    s = Session("/home/u/tariff", "s1", START)
    s.user(said)
    s.say("Done.")
    return [c.content for c in s.extracted() if c.type is MemoryType.USER_STYLE]


@pytest.mark.parametrize(
    ("said", "left"),
    [
        (
            "From now on always put the opening brace on its own line. Actually, scratch "
            "that, the formatter decides. Add a `discounted` method to PriceTable.",
            "the formatter decides. Add a `discounted` method to PriceTable.",
        ),
        ("Never use print in handlers. Forget that.", ""),
        ("Always squash before merging.\nWait, ignore what I just said. Merge it.", "Merge it."),
    ],
)
def test_a_rule_the_next_sentence_takes_back_is_left_out(said: str, left: str) -> None:
    assert standing_text(said) == left


def test_a_rule_taken_back_at_once_is_no_habit_and_makes_the_task_no_rule() -> None:
    said = (
        "From now on always put the opening brace on its own line. Actually, scratch that, "
        "scalafmt decides, don't fight it. Add a `discounted` method to PriceTable."
    )
    styles = _styles(said)
    assert not any("brace" in c or "discounted" in c for c in styles)


@pytest.mark.parametrize(
    "said",
    [
        "If we ever go public with this, always sign commits; for now just commit normally.",
        "Should we one day move to Postgres, never write raw SQL.",
        "Oh and once this is eventually open-sourced, always add a license header.",
    ],
)
def test_a_rule_under_a_hypothetical_future_is_no_habit(said: str) -> None:
    assert standing_text(f"Fix the timer leak. {said}") == "Fix the timer leak."
    assert _styles(f"Fix the timer leak. {said}") == []


@pytest.mark.parametrize(
    "said",
    [
        "Never touch config/routes.rb today, Priya is mid-refactor on it.",
        "Don't deploy this week, the freeze is on.",
        "Always ask before pushing until the release is out.",
    ],
)
def test_a_rule_bounded_to_the_day_is_no_habit(said: str) -> None:
    assert standing_text(f"Add the endpoint. {said}") == "Add the endpoint."
    assert _styles(f"Add the endpoint. {said}") == []


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        # the assistant's own situations ("if you ever …") are the work's
        ("If you ever need to add a dependency, always ask me first.", "ask me first"),
        # "never mind the …" puts a thing aside; "ignore that warning" ignores a thing
        ("Never mind the flaky test. Always run the linter before you commit.", "linter"),
        ("Always run the linter before you commit. Ignore that warning, it's harmless.", "linter"),
        # "ignore what I said yesterday" takes back an earlier session's words
        ("Always run the linter before you commit. Ignore what I said yesterday.", "linter"),
        # the day is the story's, in another clause than the rule
        ("Never push to main without a review, we got bitten today.", "push to main"),
        ("Never use wildcard imports in Kotlin files.", "wildcard"),
    ],
)
def test_a_rule_of_the_work_stays(said: str, kept: str) -> None:
    assert standing_text(said) == said
    assert any(kept in c for c in _styles(said))
