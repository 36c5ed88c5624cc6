"""What the user wants a new repository to become, quoted with the sentences that go on saying
what it will hold: where it is the project's description, and where it must say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.told_stack import told_stack
from squirrel_memory.extractors.user_about import (
    user_about,
    wanted_description,
    wanted_statement,
)
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/katas"
KICKOFF = (
    "I want this repository to become my kata practice folder for the winter. This project will "
    "primarily contain Kotlin source and tests built with Maven. I will mostly be solving "
    "Advent of Code puzzles and writing up the patterns. Since I work full time, I only have "
    "evenings. Let's plan the first week."
)


def _about(text: str) -> str | None:
    session = Session(ROOT, "s1", T0)
    session.user(text)
    found = user_about(session.events)
    return found.content if found else None


def test_the_wish_and_the_sentences_that_go_on_are_quoted_as_what_the_project_is() -> None:
    assert _about(KICKOFF) == (
        'What this project is, as the user put it: "I want this repository to become my kata '
        "practice folder for the winter. This project will primarily contain Kotlin source and "
        "tests built with Maven. I will mostly be solving Advent of Code puzzles and writing up "
        'the patterns".'
    )


def test_a_stack_sentence_quoted_with_the_wish_is_not_said_again_as_told() -> None:
    session = Session(ROOT, "s1", T0)
    session.user(KICKOFF)
    assert told_stack(session.events) == []
    # Without the wish, the same sentence is the user's description of the stack.
    alone = Session(ROOT, "s1", T0)
    alone.user("This project will primarily contain Kotlin source and tests built with Maven.")
    assert [t.content for t in told_stack(alone.events)] == [
        "The user describes the project: “This project will primarily contain Kotlin source and "
        "tests built with Maven”."
    ]


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        # The wish alone when the next sentence says something else.
        (
            "We would like this repo to be our team's wiki. Can you add a README?",
            ("We would like this repo to be our team's wiki",),
        ),
        # Two sentences at most go on.
        (
            "I want this project to become a CLI for renaming photos. It will use exiftool. "
            "It will also contain a config file. It will have a man page.",
            (
                "I want this project to become a CLI for renaming photos",
                "It will use exiftool",
                "It will also contain a config file",
            ),
        ),
        # A sentence that says nothing of what the repository holds ends the quote.
        (
            "I want this repo to become my notes vault. It will have to wait. It will hold notes.",
            ("I want this repo to become my notes vault",),
        ),
        (
            "I want this repo to become my notes vault. I'll keep you posted.",
            ("I want this repo to become my notes vault",),
        ),
        # A hedged or asking sentence ends the quote.
        (
            "I want this repo to become my dotfiles. It will maybe contain fish config.",
            ("I want this repo to become my dotfiles",),
        ),
    ],
)
def test_what_the_wish_quotes(text: str, quoted: tuple[str, ...]) -> None:
    assert wanted_description(text) == quoted


@pytest.mark.parametrize(
    "said",
    [
        "I think I want this repo to become my notes vault",  # hedged
        "Do I want this repo to become a library?",  # a question
        "I want this repo to become faster",  # no kind of project
        "I want this function to become a library",  # not the repository
        "I want this repo to become my problem",  # a word that is no kind of project
        "I don't want this repo to become a monorepo",  # negated
    ],
)
def test_no_wish_is_read_from_these(said: str) -> None:
    assert wanted_statement(said) == ""
    assert _about(said + ". It will contain Go code.") is None


def test_the_pronoun_keeps_its_capital_and_other_statements_are_lower_cased() -> None:
    assert _about("I want this repo to become my recipes site.") == (
        'What this project is, as the user put it: "I want this repo to become my recipes site".'
    )
    assert _about("This repo is my recipes site.") == (
        'What this project is, as the user put it: "this repo is my recipes site".'
    )
