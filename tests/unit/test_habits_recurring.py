"""The habits-across-sessions bench (bench/habits_recurring.py): every made-up user has a
unique name, a known shape and sessions in one project; a habit user shows it in two sessions
or more; the table counts a habit found when one memory states all of it, in start when one
line of the start text does, and wrong when a memory states it wrong or keeps a one-off."""

from __future__ import annotations

from bench.habits_recurring import Outcome, report
from bench.habits_recurring_cases import SHAPES, USERS, Habit, User
from bench.habits_recurring_reworded import REWORDED
from bench.trap_transcripts import Ask, Session


def test_every_user_is_named_once_with_a_known_shape_and_one_project() -> None:
    users = USERS + REWORDED
    assert len({u.name for u in users}) == len(users)
    for user in users:
        assert user.shape in SHAPES, user.name
        assert len({s.cwd for s in user.sessions}) == 1, user.name
        if user.shape == "one-off":
            assert user.must_not and not user.habits, user.name
        else:
            assert user.habits and len(user.sessions) >= 2, user.name


def test_found_in_start_and_wrong_are_counted_from_the_memories() -> None:
    user = User(
        "u",
        "repeated",
        "Go",
        (Session("claude", "/p", (Ask("keep it short"),)),),
        habits=(Habit("short answers", (r"short",), (r"long",)),),
        must_not=(r"8081",),
    )
    outcome = Outcome(
        user,
        styles=[(0.7, "The user wants short replies."), (0.3, "Use port 8081."), (0.2, "long")],
        start_text="# Style\n- The user wants short replies.",
    )
    (habit,) = user.habits
    assert outcome.found(habit) == 0.7 and outcome.in_start(habit)
    assert outcome.wrong() == ["Use port 8081.", "long"]
    table = report([outcome])
    assert "| u | repeated | Go | 1 | 1 | 1 | 0.70 | 2 |" in table
    assert "total: habits 1: found 1, in start 1; wrong 2, tentative 0" in table


def test_a_tentative_one_off_is_counted_apart_from_the_wrong_ones() -> None:
    user = User(
        "u",
        "one-off",
        "Java",
        (Session("claude", "/p", (Ask("Não mexe no layout."),)),),
        must_not=(r"layout",),
    )
    outcome = Outcome(
        user,
        styles=[(0.7, "Never touch the layout."), (0.25, "Não mexe no layout.")],
        tentative={"Não mexe no layout."},
    )
    assert outcome.wrong() == ["Never touch the layout."]
    assert outcome.wrong(tentative=True) == ["Não mexe no layout."]
    assert "one-off: users 1; wrong 1, tentative 1" in report([outcome])
