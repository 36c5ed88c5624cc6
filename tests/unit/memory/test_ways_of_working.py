"""Ways of working the user sets for every later task, said once: a condition over the user's
later requests ("when I give you a list of tasks, …"), a step shown to the user before every
commit, a kind of write-up or name styled with no verb ("Commit messages in the imperative
mood", "variable names in snake_case"), and an instruction the user says they gave before
("I've said this before: …"); and the one-offs in the same shapes (one moment of the task, a
report of what this search finds, the write-up at hand, a statement said again)."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.firmness import SAID_BEFORE_TAG
from squirrel_memory.extractors.preferences import stated_preferences


def _standing(text: str) -> list[str]:
    return [p.content for p in stated_preferences(text, after_assistant_action=False) if p.standing]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "If I paste a stack trace, find the root cause before changing code.",
            "If I paste a stack trace, find the root cause before changing code.",
        ),
        (
            "when I send you screenshots, describe the layout problem first",
            "When I send you screenshots, describe the layout problem first.",
        ),
        ("Show me the diff before every commit.", "Show me the diff before every commit."),
    ],
)
def test_a_step_for_each_later_request_or_commit_is_standing(text: str, content: str) -> None:
    assert _standing(text) == [content]


@pytest.mark.parametrize(
    "text",
    [
        "When I give you the go-ahead, merge it.",
        "If I send you the logs, look for the timeout.",
        "when I give you a thumbs up, deploy to staging",
        "if I give you access, clone the repo",
        "show me every error you find in the log",
        "Show me the diff.",
    ],
)
def test_one_moment_of_the_task_or_its_report_is_no_standing_rule(text: str) -> None:
    assert _standing(text) == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            "Commit messages in the imperative mood, under 72 characters, no emojis.",
            "pref:commit_message_imperative",
        ),
        ("PR titles in the present tense.", "pref:pr_present"),
        ("Variable names in snake_case.", "pref:variable_name_snake_case"),
    ],
)
def test_a_kind_styled_with_no_verb_is_a_standing_habit(text: str, key: str) -> None:
    [found] = stated_preferences(text, after_assistant_action=False)
    assert found.key == key and found.standing


def test_a_kind_styled_under_its_label_is_said_once() -> None:
    assert _standing("Commit messages: imperative mood.") == ["Commit messages: imperative mood."]


@pytest.mark.parametrize(
    "text",
    [
        "the commit messages in this PR are in the past tense",
        "Commit messages in German this time.",
        "commit message in the imperative mood",
        "Variable names in the parser are confusing.",
    ],
)
def test_the_write_up_at_hand_or_a_remark_is_no_habit(text: str) -> None:
    assert _standing(text) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "I've said this before: DON'T commit without running the tests.",
            "Don't commit without running the tests.",
        ),
        ("i told you this already, never push to main", "Never push to main."),
        (
            "I've told you this a hundred times: no print statements in library code",
            "No print statements in library code.",
        ),
        ("I have said it a few times: keep the diffs small.", "Keep the diffs small."),
    ],
)
def test_a_rule_after_the_user_says_they_said_it_is_a_rule_said_before(
    text: str, content: str
) -> None:
    [found] = stated_preferences(text, after_assistant_action=True)
    assert found.content == content and found.standing and SAID_BEFORE_TAG in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "I said this before, the API is slow",
        "I mentioned this earlier: fix the login bug",
        "I've mentioned it already: the deadline is Friday",
    ],
)
def test_a_statement_or_a_task_said_before_is_no_rule(text: str) -> None:
    assert _standing(text) == []


def test_emphasis_in_a_rule_said_before_raises_it() -> None:
    [loud] = stated_preferences(
        "I've said this before: DON'T commit without running the tests.",
        after_assistant_action=False,
    )
    [plain] = stated_preferences(
        "I've said this before: don't commit without running the tests.",
        after_assistant_action=False,
    )
    assert loud.importance > plain.importance
