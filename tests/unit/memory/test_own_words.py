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


_ROLE_PROMPT = (
    "# Triage manager\n\nYou manage incoming issues through labels and assignees.\n\n"
    "## Role\n\nDelegate technical work to workers.\nNever close an issue without a linked fix.\n"
)


@pytest.mark.parametrize("opening", ["", "trellis-message:a626cfa6\n"])
def test_an_agents_role_prompt_is_not_the_users(opening: str) -> None:
    assert own_words(opening + _ROLE_PROMPT) == ""


@pytest.mark.parametrize(
    "text",
    [
        # the user's own notes under a heading: no role given to an agent
        "# Notes\n\n- always run cargo fmt before committing\n- never push to main\n- small PRs\n",
        # a role given with no heading: the user speaking to the assistant
        "You are an expert Rust developer.\nNever use unwrap.\nKeep PRs small.\nUse cargo nextest.\n",
        # a heading and a role, but a title with one line under it
        "# Reviewer\n\nYou are a code reviewer.\n",
        # the role line further down than the heading's first lines
        "# Plan\n\nfix the parser\nthen the lexer\nYou are the one who knows the code.\nok?\n",
    ],
)
def test_the_users_own_text_with_a_heading_or_a_role_stays(text: str) -> None:
    assert own_words(text) == text
