"""The user quoting an instruction they gave before ("I told you not to use mocks", "I already
asked you to run the linter before committing"): kept as a rule said before, in the
instruction's own words; a task asked again, a statement or a request of the moment is not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import SAID_BEFORE_TAG, STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.models import MemoryType
from squirrel_memory.views.core_style import said_again_first
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I told you not to use mocks.", "Don't use mocks."),
        ("I told you before not to use mocks.", "Don't use mocks."),
        ("I asked you not to touch the tests.", "Don't touch the tests."),
        (
            "I already told you to run the linter before committing.",
            "Run the linter before committing.",
        ),
        ("I mentioned never to force-push.", "Don't force-push."),
    ],
)
def test_an_instruction_the_user_says_they_gave_is_a_rule_said_before(
    text: str, content: str
) -> None:
    [found] = stated_preferences(text, after_assistant_action=True)

    assert found.content == content
    assert STANDING_TAG in found.tags and SAID_BEFORE_TAG in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "I asked you to fix the login bug",  # the task asked again
        "I told you to rename the handler",
        "I told you not to push yet",  # tied to the moment
        "I said don't touch that file",  # one file
        "I just asked you not to add comments",  # a request of the moment
        "I said that the API is slow",  # a statement
        "Did I tell you not to use mocks?",  # a question
    ],
)
def test_a_task_or_statement_said_again_is_no_rule(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []


def test_a_rule_said_before_leads_the_style_a_session_starts_with() -> None:
    session = Session("/home/dev/service", "s1", T0)
    session.add("user_message", {"text": "Always run the formatter before committing."})
    session.say("Added the handler and a test that mocks the store.")
    session.add("user_message", {"text": "I told you not to use mocks."}, origin="typed")
    styles = [c for c in session.extracted() if c.type is MemoryType.USER_STYLE]
    told = next(c for c in styles if c.content == "Don't use mocks.")
    rule = next(c for c in styles if "formatter" in c.content)

    assert SAID_BEFORE_TAG in told.tags and SAID_BEFORE_TAG not in rule.tags
    assert next(c.content for c in said_again_first([rule, told])) == "Don't use mocks."


def test_for_the_last_time_restates_the_instruction_without_its_lead() -> None:
    [found] = stated_preferences("For the last time, don't use var.", after_assistant_action=True)

    assert found.content == "Don't use var." and "restated" in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "as I said, fix the login bug",
        "As I said before, rename the handler.",
        "like I said, add a test for it",
    ],
)
def test_a_task_after_as_i_said_is_no_standing_rule(text: str) -> None:
    found = stated_preferences(text, after_assistant_action=True)

    assert all(STANDING_TAG not in f.tags for f in found)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("as I said, never push to main", "Never push to main."),
        (
            "like I said earlier, always run ruff before committing",
            "Always run ruff before committing.",
        ),
        ("like I said, use pnpm for everything", "Use pnpm for everything."),
    ],
)
def test_a_rule_after_as_i_said_stays_a_rule_said_before(text: str, content: str) -> None:
    [found] = stated_preferences(text, after_assistant_action=True)

    assert found.content == content
    assert STANDING_TAG in found.tags and SAID_BEFORE_TAG in found.tags
