"""A rule the user states once, behind a label that stresses it or after its condition."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import EMPHASIS_TAG, STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"


def _stated(text: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(p.content, p.tags) for p in stated_preferences(text, after_assistant_action=True)]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("IMPORTANT: never push directly to main.", "Never push directly to main."),
        ("Very important: always run `make check` first.", "Always run `make check` first."),
        ("Critical: never edit the generated files by hand.", "Never edit the generated files by hand."),
    ],
)  # fmt: skip
def test_a_label_that_stresses_a_rule_keeps_it_and_marks_the_emphasis(
    text: str, content: str
) -> None:
    [(said, tags)] = _stated(text)
    assert said == content
    assert STANDING_TAG in tags
    assert EMPHASIS_TAG in tags


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "To be clear: don't use ClMail for messages, use the built-in subagent teams.",
            "Don't use ClMail for messages, use the built-in subagent teams.",
        ),
        ("Just to be clear, never push directly to main.", "Never push directly to main."),
        ("To clarify: run `composer test` before each commit.", "Run `composer test` before each commit."),
    ],
)  # fmt: skip
def test_a_lead_that_insists_stresses_the_rule_after_it(text: str, content: str) -> None:
    [(said, tags)] = _stated(text)
    assert said == content
    assert EMPHASIS_TAG in tags


@pytest.mark.parametrize(
    "text",
    [
        "To be clear, the build is broken.",
        "Just to be clear: don't push yet.",
        "To be clear, you should never have pushed that.",  # a reproach about a past act
        "You should have run the tests first.",
        "We must have broken it yesterday.",
    ],
)
def test_a_lead_that_insists_before_no_rule_or_a_one_off_keeps_nothing(text: str) -> None:
    assert _stated(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Before committing, always run `just check`.",
        "When you open a pull request, never skip the changelog.",
    ],
)
def test_a_rule_said_after_its_condition_is_kept_whole(text: str) -> None:
    [(said, tags)] = _stated(text)
    assert said == text
    assert STANDING_TAG in tags


@pytest.mark.parametrize(
    "text",
    [
        "Important: what if we never pushed to main?",  # a question
        "If you want, you could always run make check.",  # hedged
        "Before you start, read the README.",  # a one-off step of this task
        "Note: it works now.",  # a label before no rule
    ],
)
def test_a_question_a_hedge_or_a_one_off_step_is_no_rule(text: str) -> None:
    assert _stated(text) == []


def test_a_stressed_rule_quoted_from_an_instruction_file_is_not_the_users() -> None:
    quoted = "Here is what CONTRIBUTING says:\n> IMPORTANT: never push directly to main.\n"
    assert _stated(quoted) == []
    block = "Look at this:\n```\nIMPORTANT: never push directly to main.\n```\n"
    assert _stated(block) == []


@pytest.mark.parametrize(
    "text",
    [
        "write a README that says IMPORTANT: never commit the .env file",
        "Write a README that says:\nIMPORTANT: never commit the .env file\n",
        "Add a note to CONTRIBUTING.md saying IMPORTANT: always run make lint before pushing.",
        "Create a docs page with the text 'IMPORTANT: never edit the generated files'",
        'Add a line to the README: "IMPORTANT: never commit secrets."',
    ],
)
def test_a_stressed_line_the_user_asks_to_have_written_is_content_not_a_rule(text: str) -> None:
    assert _stated(text) == []


def test_a_rule_beside_a_request_to_write_a_warning_is_still_kept() -> None:
    asked = "Add a comment saying NB: this loop is slow. Never use npm here, use pnpm."
    assert [said for said, _ in _stated(asked)] == ["Never use npm here, use pnpm."]
    below = "Write a README that says:\nIMPORTANT: never commit .env\n\nFrom now on, use pnpm."
    assert [said for said, _ in _stated(below)] == ["Use pnpm."]
    task = "Add the tests: IMPORTANT: never mock the database."
    [(said, _)] = _stated(task)  # a task and then the user's own stressed rule
    assert said.endswith("never mock the database.")


def test_only_the_users_own_words_make_the_rule() -> None:
    said = Session(ROOT, "s1", T0)
    said.say("Done.")
    said.user("IMPORTANT: never push directly to main.")
    styles = [c.content for c in said.extracted() if c.type == MemoryType.USER_STYLE]
    assert styles == ["Never push directly to main."]
    echoed = Session(ROOT, "s1", T0)
    echoed.user("What does the contributing guide say?")
    echoed.say("IMPORTANT: never push directly to main.")
    assert [c for c in echoed.extracted() if c.type == MemoryType.USER_STYLE] == []
