"""The user complaining about what the assistant does again and again ("you keep adding
comments", "you always forget to update the changelog"): the way to avoid, or the step to
take, never the complaint's verb read as an order ("keep adding comments")."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("you keep adding comments everywhere", "Avoid adding comments everywhere."),
        (
            "You keep creating new files instead of editing the existing ones.",
            "Avoid creating new files instead of editing the existing ones.",
        ),
        ("you're always apologizing", "Avoid apologizing."),
        (
            "You keep forgetting to update the changelog.",
            "Update the changelog before calling a task done.",
        ),
        (
            "You always forget to update the changelog.",
            "Update the changelog before calling a task done.",
        ),
    ],
)
def test_a_complaint_about_a_repeated_act_is_the_way_to_avoid(text: str, content: str) -> None:
    assert [p.content for p in stated_preferences(text, after_assistant_action=True)] == [content]


@pytest.mark.parametrize(
    "text",
    [
        "you keep going until it's done, nice",  # carrying on, no habit
        "you keep changing it",  # one thing of the task
        "you keep track of the loose threads",  # no repeated act
        "if you keep adding comments the file gets long",  # a condition, not a complaint
    ],
)
def test_carrying_on_or_one_thing_is_no_complaint(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []
