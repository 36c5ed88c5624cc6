"""How every piece of work ends ("Finish each task by running the tests and committing") is a
standing rule; how this one task ends ("Finish the task by running the tests") is not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.standing_marks import standing_words
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("clause", "standing"),
    [
        ("Finish each task by running the tests and committing.", True),
        ("close out every ticket with a short summary", True),
        ("Finish the task by running the tests.", False),
        ("Finish each other's sentences.", False),
    ],
)
def test_how_every_piece_of_work_ends_is_standing(clause: str, standing: bool) -> None:
    assert standing_words(clause) is standing


def test_it_is_kept_as_the_users_rule() -> None:
    session = Session("/work/app", "s1", START)
    session.add(
        "user_message",
        {"text": "Finish each task by running the tests and committing."},
        origin="typed",
    )
    session.say("Understood.")
    kept = [c.content for c in session.extracted() if c.type is MemoryType.USER_STYLE]
    assert kept == ["Finish each task by running the tests and committing."]
