"""A rule under a condition ("if a command fails, always show the full output"): the word
"always" or "never" makes the directive after it a rule whatever its verb, and nothing when a
statement follows it instead."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.firmness import STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "If a command fails, always show the full output.",
            "If a command fails, always show the full output.",
        ),
        (
            "if there is an error, always exit with code 1",
            "If there is an error, always exit with code 1.",
        ),
        (
            "when a migration fails, never retry it blindly",
            "When a migration fails, never retry it blindly.",
        ),
        # a condition met again and again makes a rule as "always" does
        (
            "Every time you change the schema, regenerate the client.",
            "Every time you change the schema, regenerate the client.",
        ),
    ],
)
def test_a_conditioned_rule_with_any_verb_is_standing(text: str, content: str) -> None:
    [found] = stated_preferences(text, after_assistant_action=False)

    assert found.content == content and STANDING_TAG in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "When the build breaks, always the same error appears.",  # a statement after "always"
        "If I run it, never works",  # a subject left out: what happened
        "if it breaks, always fails again",
        "when the cache was cold, always used the slow path",
        "If a command fails, should we always show the full output?",  # a question
        "every time I run it, tests fail",  # what happens, in the third person
        "whenever the build breaks, the cache is stale",
    ],
)
def test_a_statement_after_the_rule_word_is_no_rule(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []
