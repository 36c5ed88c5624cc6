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


def test_a_nudge_after_the_assistant_acted_counts_as_a_correction() -> None:
    found = portability_habit("No, make it cross-platform.", after_assistant_action=True)
    assert found is not None and found.correction and "correction" in found.tags


async def test_the_rules_extractor_keeps_it_as_a_style_note() -> None:
    stream = Stream()
    stream.user("Add a dev server. I don't want to make assumptions about people's env.")
    found = {c.key: c for c in await RulesExtractor().extract(stream.episode(), stream.events)}
    assert found[PORTABLE_KEY].type is MemoryType.USER_STYLE
