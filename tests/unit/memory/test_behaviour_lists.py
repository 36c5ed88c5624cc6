"""A list the user gives to say how the code being written must behave is the task's design, not
the user's standing rules; a list of the user's own ways of working stays a list of rules."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.behaviour_lists import without_behaviour_lists
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

DESIGNS = [
    (
        "what I'm trying to achieve is something like how git handles errors.\n"
        "Which in our case would be like:\n"
        "1. if the error is a silent one, do not print anything\n"
        "2. if there is an error, always exit with os.Exit(1)\n"
        "3. otherwise just print the error",
        "exit with",
    ),
    (
        "Add a retry wrapper around the client. It should behave like this:\n"
        "- if the request times out, always retry twice\n"
        "- never retry a 4xx response",
        "retry",
    ),
    (
        "Here's the logic I want for the quote cache:\n"
        "1. always look in the cache first\n"
        "2. never cache error responses",
        "cache",
    ),
    (
        "The parser should work as follows:\n"
        "* always skip blank lines\n"
        "* never panic on a malformed line,\n"
        "  return an error instead",
        "blank lines",
    ),
]


def _styles(message: str) -> list[str]:
    session = Session("/home/dev/tally", "s1", T0)
    session.user(message)
    return [c.content for c in session.extracted() if c.type is MemoryType.USER_STYLE]


@pytest.mark.parametrize(("message", "said"), DESIGNS, ids=["go", "retry", "cache", "parser"])
def test_a_list_of_how_the_code_must_behave_sets_no_habit(message: str, said: str) -> None:
    assert not [s for s in _styles(message) if said in s.lower()]


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (
            "Our conventions:\n1. always run the formatter before committing\n2. never push "
            "to main",
            "formatter",
        ),
        (
            "You should work like this:\n- always run the tests before you commit\n- never "
            "force push",
            "tests before",
        ),
        (
            "From now on it should go like this:\n- always run the linter before committing",
            "linter",
        ),
        ("always run the formatter before committing, never push to main", "formatter"),
    ],
    ids=["ways-lead", "speaks-to-the-assistant", "standing-marker", "no-list"],
)
def test_a_list_of_the_users_ways_stays_a_list_of_rules(message: str, rule: str) -> None:
    assert [s for s in _styles(message) if rule in s.lower()]


def test_only_the_list_under_the_lead_is_taken_out() -> None:
    text = (
        "The exporter should behave like this:\n- always write UTF-8\n- never overwrite a file\n"
        "\nAnd please always run the tests before committing."
    )

    kept = without_behaviour_lists(text)

    assert "UTF-8" not in kept and "overwrite" not in kept
    assert kept.endswith("please always run the tests before committing.")
    assert kept.startswith("The exporter should behave like this:")
