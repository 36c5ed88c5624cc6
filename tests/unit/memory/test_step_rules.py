"""A rule tied to a recurring step (committing, pushing, releasing …) said with an obligation or
right after the user undid the assistant's step, told apart from requests about the task."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import CORRECTION_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.step_rules import step_rule, undoes_step
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

UNDONE = "reset the commit! we should run the formatter on the README before committing it"


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "reset the commit! we should run the formatter on the README before committing it. "
            "just the readme, not all md",
            "Run the formatter on the README before committing.",
        ),
        (
            "you should update the changelog before you open a PR",
            "Update the changelog before opening a PR.",
        ),
        ("we need to bump the version before tagging a release", None),
        ("revert that. regenerate the docs before pushing it", None),
        (
            "we should run the formatter before committing README changes",
            "Run the formatter before committing README changes.",
        ),
    ],
)
def test_a_rule_tied_to_a_recurring_step_is_a_preference(text: str, content: str | None) -> None:
    prefs = stated_preferences(text, after_assistant_action=True)

    assert len(prefs) == 1
    assert content is None or prefs[0].content == content
    assert not prefs[0].standing  # said once: recurrence makes it a standing rule


def test_a_step_rule_after_the_user_undid_the_assistants_step_is_a_correction() -> None:
    text = "reset the commit! we should run the formatter on the README before committing it"
    [undone] = stated_preferences(text, after_assistant_action=True)
    [plain] = stated_preferences(text.split("! ", 1)[1], after_assistant_action=True)

    assert CORRECTION_TAG in undone.tags and CORRECTION_TAG not in plain.tags
    assert undone.importance > plain.importance
    assert undone.key == plain.key


@pytest.mark.parametrize(
    "text",
    [
        "fix it before pushing it",
        "we should fix the login bug before pushing",
        "we should add the new endpoint before merging",
        "we should run it before committing",
        "you should check those files before committing",
        "should we run the formatter before committing?",
        "can you run the formatter before committing?",
        "let's run the formatter before committing",
        "I'll run the formatter before committing",
        "we should run the formatter on the README",
        "we should run the formatter before lunch",
        "run the formatter before committing it",
    ],
)
def test_a_request_about_the_task_a_question_or_a_plan_is_no_step_rule(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []


def test_a_plain_imperative_counts_only_when_the_user_undid_the_step() -> None:
    clause = "run the formatter on the README before committing it"

    assert step_rule(clause, correcting=False) is None
    found = step_rule(clause, correcting=True)
    assert found is not None and not found.stated
    assert found.found.content == "Run the formatter on the README before committing."


@pytest.mark.parametrize(
    ("message", "undoes"),
    [
        ("reset the commit!", True),
        ("undo the last commit, then …", True),
        ("revert that", True),
        ("no, not like that", True),
        ("no worries, the commit can stay", False),
        ("reset the counter to zero in the parser", False),
        ("the commit looks good", False),
    ],
)
def test_undoing_the_assistants_step(message: str, undoes: bool) -> None:
    assert undoes_step(message) is undoes


def test_quoted_lines_and_code_blocks_are_not_the_users_rule() -> None:
    text = (
        "> we should run the formatter on the README before committing it\n"
        "```\nwe should run the linter before pushing\n```\nthanks"
    )
    assert stated_preferences(text, after_assistant_action=True) == []


def _style(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.type == MemoryType.USER_STYLE]


def test_the_rule_in_the_users_own_message_after_the_assistant_committed_is_kept() -> None:
    session = Session("/home/dev/notes", "s1", datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    session.run("git commit -m 'docs: tidy the README'")
    session.user(UNDONE)

    assert _style(session) == ["Run the formatter on the README before committing."]


def test_the_same_words_in_a_commands_injected_context_are_not_the_users() -> None:
    session = Session("/home/dev/notes", "s1", datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    session.run("git commit -m 'docs: tidy the README'")
    session.add("user_message", {"text": UNDONE}, origin="harness")

    assert _style(session) == []
