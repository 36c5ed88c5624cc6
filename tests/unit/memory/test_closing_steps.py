"""How the user wants the work closed and reported ("when you finish, summarize what is left",
"commit after each milestone"): kept even in a request's own message, the first tentative and
the second standing; what merely happens at the end is not."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.firmness import STANDING_TAG, TENTATIVE_TAG
from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "When you finish, summarize what you did and what is left.",
            "When you finish, summarize what you did and what is left.",
        ),
        (
            "When you're done, give me a short summary of what changed.",
            "When you're done, give me a short summary of what changed.",
        ),
        ("once you're done, run the full test suite", "Once you're done, run the full test suite."),
    ],
)
def test_a_step_at_the_end_of_the_work_is_a_tentative_rule(text: str, content: str) -> None:
    [found] = stated_preferences(text, after_assistant_action=False)

    assert found.content == content and TENTATIVE_TAG in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "When you finish, I will review it.",  # what the user does
        "When you're done, it should be deployed.",  # what happens
        "When you're done, the tests should pass.",
        "when you finish, push it",  # "it": this change
        "Can you summarize what is left when you finish?",  # a question
    ],
)
def test_what_happens_at_the_end_is_no_rule(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


def test_a_step_after_each_unit_of_work_is_a_rule() -> None:
    [found] = stated_preferences(
        "Commit after each milestone with a conventional commit message.",
        after_assistant_action=False,
    )

    assert STANDING_TAG in found.tags
    assert stated_preferences("Add a test for each file.", after_assistant_action=False) == []
