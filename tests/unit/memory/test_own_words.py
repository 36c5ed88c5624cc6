"""The user's own words: what the user pasted and said was someone else's is left out."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.own_words import own_words, paste_start
from squirrel_memory.extractors.preferences import stated_preferences

CRITIQUE = "\n".join(
    [
        "## Findings",
        "| Category | Assessment |",
        "|---|---|",
        "| Remaining defects | Three rules still need work. |",
        "Keep file scoping in consumer configuration instead of making rules generic.",
        "Never enable every convention across the app just because the rules exist.",
        "The engine is configurable, but its genericity is overstated by its documentation.",
        "Questionable exemptions: broad whole-file baselines and disabled return checking.",
    ]
)


@pytest.mark.parametrize(
    "lead",
    [
        "Harden the lint rules. following chat its the last critique from a dumber agent:",
        "Here is what the reviewer said:",
        "Their feedback on the draft:",
        "This is a colleague's review of the module:",
        "The errors from the build:",
    ],
)
def test_an_announced_paste_is_not_the_users(lead: str) -> None:
    message = f"{lead}\n{CRITIQUE}"

    assert own_words(message) == f"{lead}\n"
    assert stated_preferences(message, after_assistant_action=False) == []


@pytest.mark.parametrize(
    "lead",
    [
        # the user's own list under a heading of their own
        "Requirements:",
        "Feedback:",
        "Here are my notes on the draft:",
        "As I wrote before:",
        "Implement the following:",
    ],
)
def test_the_users_own_list_after_a_colon_stays(lead: str) -> None:
    message = f"{lead}\n{CRITIQUE}"

    assert paste_start(message) is None
    assert own_words(message) == message
    kept = stated_preferences(message, after_assistant_action=False)
    assert any("Never enable every convention" in p.content for p in kept)


def test_a_short_text_after_an_announcement_is_no_paste() -> None:
    message = "The reviewer said:\nNever push to main."

    assert paste_start(message) is None


def test_code_blocks_and_quoted_lines_are_left_out_as_before() -> None:
    message = "Fix it.\n```\nalways run make\n```\n> never push\nUse tabs."

    assert "always run make" not in own_words(message)
    assert "never push" not in own_words(message)
    assert "Use tabs." in own_words(message)
