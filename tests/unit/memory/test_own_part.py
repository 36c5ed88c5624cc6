"""What the user keeps for themselves is what to leave to them, never a directive to do it."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.own_part import left_to_user
from squirrel_memory.extractors.working_habits import user_instructions


def _said(text: str) -> list[tuple[str, bool]]:
    return [(p.content, p.standing) for p in user_instructions(text, after_assistant_action=True)]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I always do the commits myself.", "Leave it to the user to do the commits."),
        ("I usually push to main myself", "Leave it to the user to push to main."),
        ("I always write the changelog by hand.", "Leave it to the user to write the changelog."),
        ("i always tag releases manually", "Leave it to the user to tag releases."),
    ],
)
def test_a_step_the_user_says_they_always_do_is_left_to_them_as_a_standing_habit(
    text: str, content: str
) -> None:
    assert _said(text) == [(content, True)]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I'll commit it myself.", "Leave it to the user to commit."),
        ("I'll push myself, thanks.", "Leave it to the user to push."),
        ("I'll open the PR myself", "Leave it to the user to open the PR."),
        ("Leave the git stuff to me, I'll do it myself.", "Leave the git stuff to the user."),
        ("Please leave the merging to me", "Leave the merging to the user."),
        ("I'll handle the commits myself.", "Leave the commits to the user."),
    ],
)
def test_a_step_the_user_keeps_this_time_is_tentative(text: str, content: str) -> None:
    assert _said(text) == [(content, False)]


@pytest.mark.parametrize(
    "text",
    [
        "I never merge myself.",  # what the user does not do: no directive either way
        "I'll fix the test myself.",  # the task at hand, not a step of getting work out
        "I'll write the tests myself later.",
        "I'll merge it myself after review.",  # a condition of the moment
        "Should I commit myself?",
        "I'll commit once the tests pass.",
        "I always lose my place in long diffs myself.",
    ],
)
def test_what_is_no_step_kept_by_the_user_reads_nothing(text: str) -> None:
    assert left_to_user(text) is None
    assert not any("myself" in content for content, _ in _said(text))


def test_the_users_own_practice_never_becomes_a_directive_to_do_it() -> None:
    # Before: "I always do the commits myself" was read as "Always do the commits myself."
    assert not any(c.startswith("Always") for c, _ in _said("I always do the commits myself."))
    assert _said("we always squash") == [("Always squash.", True)]  # "we" includes the assistant
