"""The phrasebook of habit wordings (bench/habits_phrasebook.py): the wordings the rules keep stay
kept, and no one-off request is ever read as a standing habit."""

from __future__ import annotations

import pytest

from bench.habits_book_eighth import HABITS_EIGHTH, ONE_OFFS_EIGHTH
from bench.habits_book_fifth import HABITS_FIFTH, ONE_OFFS_FIFTH
from bench.habits_book_first import HABITS, ONE_OFFS
from bench.habits_book_fourth import HABITS_FOURTH, ONE_OFFS_FOURTH
from bench.habits_book_ninth import (
    ASSISTANT_SAYS_NINTH,
    COMMAND_HABITS_NINTH,
    COMMAND_ONE_OFFS_NINTH,
    HABITS_NINTH,
    ONE_OFFS_NINTH,
)
from bench.habits_book_second import HABITS_SECOND, ONE_OFFS_SECOND
from bench.habits_book_seventh import HABITS_SEVENTH, ONE_OFFS_SEVENTH
from bench.habits_book_sixth import HABITS_SIXTH, ONE_OFFS_SIXTH
from bench.habits_book_tenth import (
    HABITS_TENTH,
    HELD_BACK_ONE_OFFS_TENTH,
    HELD_BACK_SECOND_ONE_OFFS_TENTH,
    HELD_BACK_SECOND_TENTH,
    HELD_BACK_TENTH,
    ONE_OFFS_TENTH,
)
from bench.habits_book_third import HABITS_THIRD, ONE_OFFS_THIRD
from bench.habits_phrasebook import (
    OPENING,
    REPLYING,
    assistant_verdict,
    command_verdict,
    second_verdict,
    session_verdict,
    verdict,
)
from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "please always run the linter before committing",
            "Always run the linter before committing.",
        ),
        ("from now on, put type hints on every function", "Put type hints on every function."),
        ("going forward, squash commits before merging", "Squash commits before merging."),
        (
            "whenever you add a dependency, pin its version",
            "Whenever you add a dependency, pin its version.",
        ),
        ("hi! please always answer in short sentences", "Always answer in short sentences."),
        ("ALWAYS run the tests before you commit!!", "Always run the tests before you commit."),
        ("prefer composition over inheritance", "Prefers composition over inheritance."),
    ],
)
def test_a_habit_is_kept_in_the_users_words_normalised(message: str, content: str) -> None:
    found = [p for p in stated_preferences(message, after_assistant_action=False) if p.standing]
    assert [p.content for p in found] == [content]


def test_a_bulleted_list_gives_one_habit_per_line() -> None:
    found = stated_preferences(
        "- always use early returns\n- never commit secrets", after_assistant_action=False
    )
    assert [p.content for p in found if p.standing] == [
        "Always use early returns.",
        "Never commit secrets.",
    ]


def test_emphasis_weighs_more_than_a_plain_habit() -> None:
    plain = stated_preferences(
        "always run the tests before you commit", after_assistant_action=False
    )
    loud = stated_preferences(
        "ALWAYS run the tests before you commit!!", after_assistant_action=False
    )
    assert loud[0].importance > plain[0].importance


@pytest.mark.parametrize("message", ONE_OFFS)
def test_a_one_off_is_never_a_standing_habit(message: str) -> None:
    assert verdict(message) != "kept"


def test_the_phrasebook_keeps_at_least_what_it_kept() -> None:
    kept = sum(verdict(m) == "kept" for m in HABITS)
    assert kept >= 27


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("I told you to use pnpm", "Use pnpm."),
        ("i said use yarn not npm", "Prefers yarn over npm."),
    ],
)
def test_a_means_said_again_is_a_habit(message: str, content: str) -> None:
    found = stated_preferences(message, after_assistant_action=True)
    assert [(p.content, p.standing) for p in found] == [(content, True)]


@pytest.mark.parametrize(
    "message",
    [
        "I told you to use the second option",
        "I asked you to use this file",
        "I said use it",
        "I told you to fix the login bug",
    ],
)
def test_a_task_said_again_is_no_habit(message: str) -> None:
    assert stated_preferences(message, after_assistant_action=True) == []


#: The books read as sessions, their one-offs, and the fewest habits each keeps.
_AS_SESSIONS = {
    "second": (HABITS_SECOND, ONE_OFFS_SECOND, 89),
    "third": (HABITS_THIRD, ONE_OFFS_THIRD, 46),
    "fourth": (HABITS_FOURTH, ONE_OFFS_FOURTH, 57),
    "fifth": (HABITS_FIFTH, ONE_OFFS_FIFTH, 36),
    "sixth": (HABITS_SIXTH, ONE_OFFS_SIXTH, 13),
    "seventh": (HABITS_SEVENTH, ONE_OFFS_SEVENTH, 12),
    "eighth": (HABITS_EIGHTH, ONE_OFFS_EIGHTH, 10),
    "ninth": (HABITS_NINTH, ONE_OFFS_NINTH, 8),
    "tenth": (HABITS_TENTH, ONE_OFFS_TENTH, 26),
    "tenth, held back": (HELD_BACK_TENTH, HELD_BACK_ONE_OFFS_TENTH, 10),
    "tenth, held back again": (HELD_BACK_SECOND_TENTH, HELD_BACK_SECOND_ONE_OFFS_TENTH, 9),
}


@pytest.mark.parametrize(("command", "text", "banned"), COMMAND_HABITS_NINTH)
def test_a_ban_written_in_a_commands_text_is_kept(command: str, text: str, banned: str) -> None:
    assert command_verdict(command, text, banned) == "kept"


@pytest.mark.parametrize(("command", "text"), COMMAND_ONE_OFFS_NINTH)
def test_a_commands_text_without_a_ban_gives_no_standing_habit(command: str, text: str) -> None:
    assert command_verdict(command, text) != "kept"


@pytest.mark.parametrize("words", ASSISTANT_SAYS_NINTH)
def test_the_assistants_words_are_never_the_users_habit(words: str) -> None:
    assert not assistant_verdict(words)


@pytest.mark.parametrize(
    "message", [m for _, one_offs, _ in _AS_SESSIONS.values() for m in one_offs]
)
def test_a_one_off_of_a_book_read_as_sessions_is_never_a_standing_habit(message: str) -> None:
    assert second_verdict(message, habit=False) != "kept"


@pytest.mark.parametrize("book", list(_AS_SESSIONS))
def test_each_book_read_as_sessions_keeps_at_least_what_it_kept(book: str) -> None:
    habits, _, floor = _AS_SESSIONS[book]
    assert sum(second_verdict(m, habit=True) == "kept" for m in habits) >= floor


def test_a_session_reading_tells_the_place_of_the_message() -> None:
    # "no, …" corrects only what the assistant just did
    assert session_verdict("no, I said use coroutines, not callbacks", REPLYING) == "kept"
    assert session_verdict("fix the login bug", OPENING) == "missed"


@pytest.mark.parametrize(
    "message",
    [
        "write a pre-commit hook that always runs the tests",
        "Add a test that the parser never crashes on empty input.",
        "delete the never-used helpers in utils",
        "turn on the always-on cache for staging",
    ],
)
def test_a_rule_word_about_one_thing_the_task_makes_is_no_habit(message: str) -> None:
    assert not any(p.standing for p in stated_preferences(message, after_assistant_action=False))


@pytest.mark.parametrize(
    "message",
    ["write functions that never mutate their arguments", "always write a test that fails first"],
)
def test_a_rule_word_over_a_kind_of_thing_stays_a_habit(message: str) -> None:
    assert any(p.standing for p in stated_preferences(message, after_assistant_action=False))


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("f-strings only, no % formatting", "Prefers f-strings over % formatting."),
        ("tabs only, no spaces", "Prefers tabs over spaces."),
    ],
)
def test_one_way_only_with_its_rival_ruled_out_is_a_habit(message: str, content: str) -> None:
    found = [p for p in stated_preferences(message, after_assistant_action=False) if p.standing]
    assert [p.content for p in found] == [content]


@pytest.mark.parametrize(
    "message", ["this file only, not the others", "run the unit tests only, not the e2e ones"]
)
def test_only_about_the_task_at_hand_is_no_habit(message: str) -> None:
    assert not any(p.standing for p in stated_preferences(message, after_assistant_action=False))


def test_a_list_under_a_line_naming_the_users_ways_gives_one_habit_per_item() -> None:
    found = stated_preferences(
        "## Coding guidelines for this repo:\n- snake_case for module names\n"
        "- no global state anywhere",
        after_assistant_action=False,
    )
    assert [p.content for p in found if p.standing] == [
        "Snake_case for module names.",
        "No global state anywhere.",
    ]


def test_a_list_under_a_title_naming_no_way_of_the_users_is_no_habit() -> None:
    found = stated_preferences(
        "The failing rules:\n- no-unused-vars in src/app.ts line 4\n- eqeqeq in src/util.ts line 9",
        after_assistant_action=False,
    )
    assert not any(p.standing for p in found)
