"""A rule word about one spot of the task at hand ("always return 404 in this handler", "prefer
the cached value in this function", "for now") makes no habit; the same words about the whole
project, the team's way, or with a marker for all later work still do."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    "text",
    [
        "In this handler, always return 404 when the record is missing.",
        "Prefer the cached value in this function, the lookup is slow.",
        "Prefer the memoized value in this method.",
        "Always redirect to the dashboard from this action.",
        "Always throw IllegalStateException in this branch.",
        "Always show the alert on this screen when the fetch fails.",
        "Prefer the cached image in this cell.",
        "Always log at debug level in this worker for now.",
        "Always return None from this helper when the file is missing.",
        "Prefer the builder for this one.",
        "Always use the staging API this time.",
        "Just this once, never run the formatter.",
        "Always return None here when the key is missing.",
        "Use GenServer.call here, not cast.",
        "Use find_by here instead of where.first.",
        "Prefer user_id here over the email.",
        "Never cache this response, it's per-user.",
    ],
)
def test_a_rule_word_about_one_spot_of_the_task_is_no_habit(text: str) -> None:
    assert not stated_preferences(text, after_assistant_action=False)


@pytest.mark.parametrize(
    "text",
    [
        "Always indent Lua with 2 spaces in this repo.",
        "Prefer composition over inheritance for this project.",
        "We prefer early returns in this module.",  # the team's way
        "From now on, always run the linter in this folder.",  # a marker for later work
        "Never add a dependency to this crate without asking me first.",  # a gate
        "Always use tabs here",  # "here" names the project
        "Never use npm here, use pnpm.",
        "Run the linter. Always do this before committing.",  # how work is done
        "Never write code this way",
        "We use snake_case here, always.",  # the team's way
    ],
)
def test_the_whole_project_or_the_teams_way_is_still_a_habit(text: str) -> None:
    found = stated_preferences(text, after_assistant_action=False)
    assert [p for p in found if "standing" in p.tags], found
