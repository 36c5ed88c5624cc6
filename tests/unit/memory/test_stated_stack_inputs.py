"""Hostile and malformed messages for the rules that read the stack in the user's words
(`stack_choices`, `told_stack`): huge, unpunctuated, repeated and empty messages are read in
one pass and give nothing wrong."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.stack_choices import stack_choices
from tests.one_pass import finishes
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def test_a_huge_unpunctuated_choice_is_read_in_one_pass() -> None:
    printed = finishes(
        "from squirrel_memory.extractors.stack_choices import stack_choices\n"
        "text = 'I want to use ' + 'TestNG and ' * 40000 + 'Lombok'\n"
        "later = ['let us use ' + 'x ' * 50000]\n"
        "print(len(stack_choices(text, after_assistant_action=False, later=later)))\n"
    )
    assert printed.strip() == "0"  # one sentence far past what a choice is: not read


def test_a_huge_description_is_a_paste_and_read_in_one_pass() -> None:
    printed = finishes(
        "from squirrel_memory.extractors.told_stack import _DESCRIBED\n"
        "clause = 'This project is built with ' + 'Gradle and ' * 40000\n"
        "print(bool(_DESCRIBED.match(clause)))\n"
    )
    assert printed.strip() == "True"  # matched at once; `told_stack` skips such a paste


@pytest.mark.parametrize(
    "text", ["", "   ", "?", "I want to use", "let's use .", "we'll use , and"]
)
def test_empty_and_truncated_choices_give_nothing(text: str) -> None:
    assert stack_choices(text, after_assistant_action=False) == []


def test_a_pasted_wall_of_stack_words_is_no_description() -> None:
    session = Session("/home/dev/prep", "s1", T0)
    session.user("This project is built with Gradle. " + "Log line: Gradle daemon started. " * 80)
    session.say("Let me look.")
    assert [c for c in session.extracted() if c.key.startswith("stack:told:")] == []
