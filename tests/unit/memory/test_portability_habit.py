"""The works-for-anyone habit: said in many wordings, only as an instruction."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.portability import (
    PORTABLE_KEY,
    portability_habit,
    portable_clause,
)
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, Scope
from tests.unit.memory.test_rules_extractor import Stream


@pytest.mark.parametrize(
    "text",
    [
        "I have Node and Python, but I don't want to make it only work for me or make "
        "assumptions about people's env. Would there be a cross-platform solution?",
        "Please don't make any assumptions about the user's setup here.",
        "It has to work for everyone, on any platform.",
        "Let's keep it cross-platform.",
        "yes please, and let's make it cross-browser",
        "It should not just work on my machine.",
    ],
)
def test_each_wording_is_the_habit(text: str) -> None:
    found = portability_habit(text, after_assistant_action=False)
    assert found is not None
    assert found.key == PORTABLE_KEY and found.scope is Scope.USER
    assert found.content.startswith("The user wants solutions that work for anyone")
    assert "tentative" in found.tags


@pytest.mark.parametrize(
    "text",
    [
        # Questions ask, they do not instruct.
        "Does it work on Windows?",
        "Would there be a cross-platform solution?",
        "Could we make it cross-browser?",
        # Reports and facts about something else.
        "It only works for me after a restart.",
        "The library is cross-platform and well maintained.",
        "I assume the tests run on Linux.",
        "The user's env has Node 20.",
        # A plan line, a file listing, a progress line.
        "Next: add the Windows build to CI.",
        "src/platform.ts src/browser.ts",
        "Building for all platforms ...",
    ],
)
def test_no_habit_without_an_instruction(text: str) -> None:
    assert portable_clause(text) is None


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        # A web app that people deploy themselves, and its error tracker.
        (
            "since this is an open source app that people self host we need to make sure "
            "we're not forcing EVERYONE to move to one error tracker when we switch - it needs "
            "to be configurable if they use another one",
            "not forcing EVERYONE to move",
        ),
        # A command-line tool and its package registry.
        (
            "Don't force every install onto the public registry, it must stay optional per "
            "install.",
            "Don't force every install onto",
        ),
        # A library and the runtime its users pick.
        ("The async runtime has to be configurable for users of the crate.", "configurable for"),
    ],
)
def test_not_forcing_one_choice_on_everyone_is_the_habit(text: str, quoted: str) -> None:
    found = portability_habit(text, after_assistant_action=True)

    assert found is not None and found.key == PORTABLE_KEY
    assert quoted in found.content
    assert found.content.endswith("”.")


def test_a_long_sentence_is_quoted_around_the_wording() -> None:
    text = (
        "ok so the plan is fine and the tests pass and the docs were updated yesterday by the "
        "other team, but we shouldn't force users to install the desktop app just to read the "
        "report, since many of them only ever open it once a quarter from a shared machine"
    )
    clause = portable_clause(text)

    assert clause is not None and "shouldn't force users to install" in clause
    assert clause.startswith("… ") and len(clause) < len(text)


def test_capitals_on_the_people_it_is_for_stress_it() -> None:
    plain = portability_habit("We're not forcing everyone to use it.", after_assistant_action=False)
    loud = portability_habit("We're not forcing EVERYONE to use it.", after_assistant_action=False)

    assert plain is not None and loud is not None
    assert "emphasis" in loud.tags and "emphasis" not in plain.tags
    assert loud.importance > plain.importance


@pytest.mark.parametrize(
    "text",
    [
        # A question, a report, a plain fact: none is an instruction.
        "Should it be configurable for users?",
        "The new login flow forces everyone to sign in again.",
        "The timeout is configurable.",
        "The port must be configurable.",
        # Force as a git option, not a choice forced on people.
        "Don't force push to main.",
        "We shouldn't force the merge.",
    ],
)
def test_no_habit_where_nothing_is_kept_open_for_others(text: str) -> None:
    assert portable_clause(text) is None


def test_a_nudge_after_the_assistant_acted_counts_as_a_correction() -> None:
    found = portability_habit("No, make it cross-platform.", after_assistant_action=True)
    assert found is not None and found.correction and "correction" in found.tags


async def test_the_rules_extractor_keeps_it_as_a_style_note() -> None:
    stream = Stream()
    stream.user("Add a dev server. I don't want to make assumptions about people's env.")
    found = {c.key: c for c in await RulesExtractor().extract(stream.episode(), stream.events)}
    assert found[PORTABLE_KEY].type is MemoryType.USER_STYLE
