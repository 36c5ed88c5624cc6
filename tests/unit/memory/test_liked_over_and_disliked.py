"""A liked thing over another ("I like AssertJ assertions better than the JUnit ones") and a
dislike the user asks the work to keep clear of ("I hate when functions use naked returns,
please don't"); a complaint about what happens ("I hate when the build is slow") is none."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


def _said(text: str) -> list[str]:
    return [p.content for p in stated_preferences(text, after_assistant_action=False)]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "I like AssertJ assertions better than the JUnit ones.",
            "Prefers AssertJ assertions over the JUnit ones.",
        ),
        (
            "I like pattern matching in function heads rather than case inside the body",
            "Prefers pattern matching in function heads over case inside the body.",
        ),
        (
            "I hate when functions use naked returns, please don't",
            "Dislikes it when functions use naked returns.",
        ),
        (
            "I hate model callbacks, put it in the service instead",
            "Dislikes model callbacks; put it in the service instead.",
        ),
        ("I hate magic numbers", "Avoid magic numbers."),
        (
            "I'd rather see iterator chains than manual index loops",
            "Prefers iterator chains over manual index loops.",
        ),
    ],
)
def test_a_liked_or_disliked_way_is_a_habit(text: str, content: str) -> None:
    assert _said(text) == [content]


@pytest.mark.parametrize(
    "text",
    [
        "I hate when the build is slow",  # a complaint about what happens
        "I hate when the build is slow, don't worry about it",
        "I hate this, stop",  # the work at hand
        "I like this better than that",
        "I hate when tests fail, fix it for now",  # the task at hand
    ],
)
def test_a_complaint_or_the_work_at_hand_is_no_habit(text: str) -> None:
    assert _said(text) == []
