"""A standing rule told from a limit of the task at hand by the sentence's shape alone: a ban
closed by "ever" ("no mocks in the integration tests, ever") is said for all later work; a plain
"don't" over every change at once ("Don't modify any files.") limits the request at hand, since
no one bans every change for good, and is kept not even tentatively; bounded or marked, it is a
rule again."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.user_wording import without_ever_tail


def _standing(message: str, *, replying: bool = False) -> list[str]:
    found = stated_preferences(message, after_assistant_action=replying)
    return [p.content for p in found if p.standing]


def _any(message: str, *, replying: bool = False) -> list[str]:
    return [p.content for p in stated_preferences(message, after_assistant_action=replying)]


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("no mocks in the integration tests, ever", "No mocks in the integration tests."),
        ("no print statements in library code, ever", "No print statements in library code."),
        ("No mocks, ever.", "No mocks."),
        ("no force pushes ever", "No force pushes."),
        ("Don't use unwrap in library code, ever.", "Don't use unwrap in library code."),
    ],
)
def test_a_ban_closed_by_ever_is_standing(message: str, said: str) -> None:
    assert [s.lower() for s in _standing(message)] == [said.lower()]
    # said right after the assistant acted, its "no" corrects nothing: still the rule
    assert [s.lower() for s in _standing(message, replying=True)] == [said.lower()]


@pytest.mark.parametrize(
    "clause",
    [
        "the tests pass, ever",  # no prohibition
        "no, ever",  # nothing banned
        "whatever",
        "no mocks in the integration tests",  # no "ever"
        "I don't think we ever did",
    ],
)
def test_no_ever_tail_without_a_prohibition_closed_by_it(clause: str) -> None:
    assert without_ever_tail(clause) is None


@pytest.mark.parametrize(
    "message",
    [
        "Don't modify any files.",
        "Do not change any code.",
        "Don't write anything to disk.",
        "Do not modify anything.",
        "don't make any edits",
        "Please don't touch the code.",
    ],
)
def test_a_ban_on_every_change_is_a_limit_of_the_task_at_hand(message: str) -> None:
    assert _any(message) == []
    assert _any(message, replying=True) == []


@pytest.mark.parametrize("message", ["dont touch anything yet", "Don't change any files for now."])
def test_a_ban_on_every_change_for_now_stays_unsaid(message: str) -> None:
    assert _any(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "From now on, don't modify any files.",
        "Never modify any files outside src/.",
        "Don't modify the generated files under gen/, ever.",
        "Don't ever touch the vendored code under third_party/.",
    ],
)
def test_a_marked_or_bounded_ban_on_changes_stays_a_rule(message: str) -> None:
    assert _standing(message)


@pytest.mark.parametrize(
    "message",
    [
        "Don't add any comments.",
        "don't use any globals",
        "Don't modify any files without asking.",
        "Important: don't touch the code in vendor/, it's generated.",
    ],
)
def test_a_ban_on_one_kind_of_change_is_not_the_whole_work(message: str) -> None:
    assert _any(message)  # kept as before, at least tentatively
