"""Habits said with no rule word, read from their shape (`habit_forms`, `way_forms`), and the
wordings `preferences` mends before reading (misspelt rule words, an "again," lead, imperatives
joined by commas); each beside the one-off it must not become."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


def _standing(message: str) -> list[str]:
    found = stated_preferences(message, after_assistant_action=False)
    return [p.content for p in found if p.standing]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("use tabs", "Use tabs for indentation."),
        ("keep using tabs for indentation", "Use tabs for indentation."),
        ("indent with 4 spaces", "Use 4 spaces for indentation."),
        ("keep using pnpm", "Keep using pnpm."),
        ("stop using print for logging", "Don't use print for logging."),
        (
            "for every PR, add a short summary of the changes",
            "For every PR, add a short summary of the changes.",
        ),
        ("write tests for every module", "Write tests for every module."),
        ("add a docstring to every function", "Add a docstring to every function."),
        (
            "make sure every commit message follows conventional commits",
            "Make sure every commit message follows conventional commits.",
        ),
        ("remember that all dates are stored in UTC", "All dates are stored in UTC."),
        ("don't forget to update the changelog", "Always update the changelog."),
        ("don't forget to bump the version", "Always bump the version."),
        ("we don't use ORMs here", "Don't use ORMs."),
        ("no emojis", "No emojis."),
        ("again, never use var in javascript", "Never use var in javascript."),
        (
            "alwasy run the formatter before commiting",
            "Always run the formatter before committing.",
        ),
    ],
)
def test_a_habit_without_a_rule_word_is_standing(message: str, content: str) -> None:
    assert _standing(message) == [content]


def test_imperatives_joined_by_a_comma_are_two_habits() -> None:
    assert _standing("respond in English, keep explanations brief") == [
        "Answer in English.",
        "Keep explanations brief.",
    ]


@pytest.mark.parametrize(
    "message",
    [
        "use tabs here",
        "keep going",
        "keep using it",
        "keep using the old branch",
        "stop using the old config for testing",
        "for this PR, add a summary",
        "write a test for this function",
        "add a test for each file",
        "for each file, add a license header",
        "fix the imports in every file",
        "make sure the build passes now",
        "make sure every test passes",
        "remember that the server is down",
        "remember that all the tests are failing",
        "don't forget the semicolon on line 3",
        "don't forget to update the readme",
        "we don't use that here",
        "we don't use ORMs",
        "no comments",
        "again, run the tests",
        "fix the bug, run the tests",
        "alwasy?",
    ],
)
def test_a_one_off_in_the_same_shape_is_no_standing_habit(message: str) -> None:
    assert _standing(message) == []
