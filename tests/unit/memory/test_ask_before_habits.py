"""A step the user wants to be asked about first, and the commit convention, said with no rule
word: standing habits by their shape, and the one-offs of the same words that are not."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Ask before deleting files.", "pref:ask_delet_file"),
        ("Ask me first before you push.", "pref:ask_push"),
        ("Always ask before running migrations.", "pref:ask_run_migration"),
        ("Ask before committing.", "pref:ask_commit"),
        ("Use conventional commits.", "pref:commit_message_conventional"),
        ("Commit with conventional commit messages.", "pref:commit_message_conventional"),
    ],
)
def test_a_step_to_ask_about_or_the_commit_convention_is_a_standing_habit(
    text: str, key: str
) -> None:
    (found,) = stated_preferences(text, after_assistant_action=False)
    assert found.key == key
    assert "standing" in found.tags
    assert found.content.rstrip(".") == text.rstrip(".")  # as the user said it


@pytest.mark.parametrize(
    "text",
    [
        "Ask before deleting the old branch.",  # one thing at hand
        "Ask before you start.",  # this task's go-ahead
        "Use conventional commits for this one.",
        "Should I ask before deleting files?",  # a question
    ],
)
def test_the_same_words_about_the_moment_are_no_habit(text: str) -> None:
    found = stated_preferences(text, after_assistant_action=False)
    assert not [p for p in found if "standing" in p.tags], found
