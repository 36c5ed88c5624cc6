"""The style a change's write-up is written in (a commit message, a PR title, a changelog entry)
said as a habit with no rule word: one key whichever part of the write-up it names, and never
the one write-up of the change at hand."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            'Please keep commit messages in the imperative, like "Add parser".',
            "pref:commit_message_imperative",
        ),
        ("Keep the commit messages in the imperative.", "pref:commit_message_imperative"),
        ("Use the imperative mood in commit subjects.", "pref:commit_message_imperative"),
        ("Commit messages should be in the imperative.", "pref:commit_message_imperative"),
        ("Write commit messages in English.", "pref:commit_message_english"),
        ("Use conventional commits for PR titles.", "pref:pr_conventional"),
    ],
)
def test_a_write_up_style_is_a_standing_habit_under_one_key(text: str, key: str) -> None:
    (found,) = stated_preferences(text, after_assistant_action=False)
    assert found.key == key
    assert "standing" in found.tags


@pytest.mark.parametrize(
    "text",
    [
        # the write-up of the change at hand
        "Keep the commit message imperative.",
        "Keep the commit message in the imperative for this one.",
        "Write the commit message in the imperative and push.",
        # no write-up named
        "Keep the imperative.",
        "Use the imperative mood.",
    ],
)
def test_the_write_up_at_hand_or_none_named_is_no_habit(text: str) -> None:
    found = stated_preferences(text, after_assistant_action=False)
    assert not [p for p in found if "imperative" in p.key and "standing" in p.tags], found
