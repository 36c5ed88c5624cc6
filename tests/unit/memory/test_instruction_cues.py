"""Cues in a user's message on how to read its instructions: a correction's lead, a gate on the
user's approval, emphasis, a rule of conduct, and what to do instead this time."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.instruction_cues import (
    CORRECTION_LEAD,
    EMPHASIS,
    GATE,
    NO_GATE,
    clause_head,
    instead_this_time,
    is_process_rule,
)


@pytest.mark.parametrize(
    ("text", "corrects"),
    [
        ("no, use the other branch", True),
        ("nope. run the linter first", True),
        ("that's not what I asked", True),
        ("no need to hurry", False),
        ("no problem, go on", False),
    ],
)
def test_a_correction_opens_on_a_no_that_waives_nothing(text: str, corrects: bool) -> None:
    assert bool(CORRECTION_LEAD.match(text)) is corrects


@pytest.mark.parametrize(
    "text",
    ["don't touch any file unless I approve it", "never deploy without asking me first"],
)
def test_a_change_gated_on_the_users_yes(text: str) -> None:
    assert GATE.search(text)


def test_a_thing_the_work_must_not_do_without_the_users_yes() -> None:
    gated = NO_GATE.match("no file changes without approval")

    assert gated is not None
    assert (gated.group("x"), gated.group("gate")) == ("file changes", "without approval")


@pytest.mark.parametrize(
    ("text", "stressed"),
    [
        ("NEVER push to main", True),
        ("run the tests!!", True),
        ("it's important to run the tests", True),
        ("never push to main", False),
    ],
)
def test_emphasis_is_capitals_doubled_marks_or_a_weight_word(text: str, stressed: bool) -> None:
    assert bool(EMPHASIS.search(text)) is stressed


@pytest.mark.parametrize(
    ("clause", "rule"),
    [
        ("keep going until every task is done", True),
        ("push when you are done", True),
        ("push the branch", False),
        ("add a test until it passes", False),
        ("", False),
    ],
)
def test_a_rule_of_conduct_is_a_way_of_working_with_its_condition(clause: str, rule: bool) -> None:
    assert is_process_rule(clause) is rule


def test_a_clause_head_is_its_words_up_to_the_first_comma() -> None:
    assert clause_head("don't fix anything, just validate it.") == "don't fix anything"
    assert clause_head("don't touch the code!") == "don't touch the code"


@pytest.mark.parametrize(
    ("message", "listed", "instead"),
    [
        # in the clause itself, after its comma
        (
            "don't fix anything, but just validate it works",
            ["don't fix anything, but just validate it works"],
            True,
        ),
        # in the next clause of the same sentence
        (
            "don't touch the code; just run the tests",
            ["don't touch the code", "just run the tests"],
            True,
        ),
        # in the next sentence: a rule, then another one
        (
            "don't touch the code. Just run the tests.",
            ["don't touch the code.", "Just run the tests."],
            False,
        ),
        # one means for another is no scope of the request
        ("don't use npm", ["don't use npm"], False),
    ],
)
def test_what_to_do_instead_this_time_follows_in_the_same_sentence(
    message: str, listed: list[str], instead: bool
) -> None:
    pairs = [(written, written) for written in listed]

    assert instead_this_time(message, pairs, 0) is instead
