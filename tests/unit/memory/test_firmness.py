"""How firm a stated instruction is: its tags and importance, from how it was said."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.firmness import (
    CHOICE_IMPORTANCE,
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    MAX_STATED_IMPORTANCE,
    REPEATED_IMPORTANCE,
    SAID_BEFORE_TAG,
    STANDING_IMPORTANCE,
    STANDING_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    preference,
)
from squirrel_memory.extractors.instruction_parts import Found

RULE = Found("Run the tests before committing.", "run the tests before committing")
CHOICE = Found("Prefers pnpm over npm.", "pnpm npm", choice=True)


def test_a_rule_outranks_a_one_off() -> None:
    rule = preference(RULE, "always run the tests before committing", True, False)
    once = preference(RULE, "run the tests before committing", False, False)

    assert (rule.standing, STANDING_TAG in rule.tags) == (True, True)
    assert (once.standing, TENTATIVE_TAG in once.tags) == (False, True)
    assert (rule.importance, once.importance) == (STANDING_IMPORTANCE, TENTATIVE_IMPORTANCE)
    assert rule.key == once.key


def test_a_correction_adds_its_step_to_a_one_off() -> None:
    said = preference(RULE, "no, run the tests before committing", False, True)

    assert said.correction and CORRECTION_TAG in said.tags
    assert said.importance == round(TENTATIVE_IMPORTANCE + CORRECTION_STEP, 3)


def test_a_choice_of_one_tool_over_another_weighs_more_than_a_rule() -> None:
    assert preference(CHOICE, "use pnpm, not npm", True, False).importance == CHOICE_IMPORTANCE


@pytest.mark.parametrize(
    ("found", "importance"),
    [
        (RULE, round(STANDING_IMPORTANCE + EMPHASIS_STEP, 3)),
        (CHOICE, min(MAX_STATED_IMPORTANCE, round(CHOICE_IMPORTANCE + EMPHASIS_STEP, 3))),
    ],
)
def test_emphasis_adds_its_step_up_to_the_most_a_stated_instruction_weighs(
    found: Found, importance: float
) -> None:
    said = preference(found, "ALWAYS do it", True, False, emphasis=True)

    assert EMPHASIS_TAG in said.tags
    assert said.importance == importance


def test_an_instruction_said_before_is_a_standing_one_said_again() -> None:
    said = preference(
        RULE, "as I said, run the tests before committing", False, False, said_before=True
    )

    assert said.standing and STANDING_TAG in said.tags and SAID_BEFORE_TAG in said.tags
    assert said.importance == REPEATED_IMPORTANCE
