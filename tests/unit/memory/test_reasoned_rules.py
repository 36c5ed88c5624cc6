"""A requirement the user grounds in what the project is (a library, an open source project a
user deploys, a public API, a crate) is a standing rule of the project, kept whole with its
reason, in any ecosystem; a reason that is no kind of software, a task, a question and a
reason with no obligation after it say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.reasoned_rules import reasoned_rule
from squirrel_memory.models import MemoryType, Scope
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "since shopfront is an open source app that people host themselves we need to make "
            "sure we're not forcing EVERYONE onto our error tracker - it needs to be "
            "configurable per install",
            "Since shopfront is an open source app that people host themselves, we need to make "
            "sure we're not forcing EVERYONE onto our error tracker - it needs to be "
            "configurable per install.",
        ),
        (
            "Because this is a library, we must never print to stdout or exit the process.",
            "Because this is a library, we must never print to stdout or exit the process.",
        ),
        (
            "as it's a crate other people embed, it needs to stay free of global state",
            "As it is a crate other people embed, it needs to stay free of global state.",
        ),
        (
            "Since the API is a public API, we have to keep old fields working for one release. "
            "Now add the endpoint.",
            "Since the API is a public API, we have to keep old fields working for one release.",
        ),
    ],
)
def test_a_requirement_grounded_in_what_the_project_is_is_kept_whole(
    message: str, content: str
) -> None:
    found = reasoned_rule(message)

    assert found is not None
    assert found.content == content


@pytest.mark.parametrize(
    "message",
    [
        "since the build is a mess we need to fix it first",
        "since it's a quick fix we should skip the tests",
        "since this is a bug we need to fix it",
        "since this is a library, should we pin versions?",
        "since this is a library it has no main function",
        "because the parser is a hot path we need to",
        "we need to make sure it's configurable since it is an app",
    ],
)
def test_a_task_a_state_a_question_or_no_obligation_says_nothing(message: str) -> None:
    assert reasoned_rule(message) is None


def test_it_is_a_standing_rule_of_the_project_said_once_not_twice() -> None:
    message = "Because this is a library, we must never print to stdout or exit the process."

    found = stated_preferences(message, after_assistant_action=True)

    assert [p.content for p in found] == [message]
    assert found[0].scope is Scope.PROJECT
    assert STANDING_TAG in found[0].tags
    assert found[0].importance == pytest.approx(0.7)


def test_the_rules_extractor_keeps_it_as_the_users_style_with_the_emphasis() -> None:
    session = Session("/home/dev/shopfront", "s1", T0)
    session.user("open the pr for me to review")
    session.run("gh pr create --draft --fill", 0, "https://example.org/pull/7\n")
    session.user(
        "since shopfront is an open source app that people host themselves we need to make "
        "sure we're not forcing EVERYONE onto our error tracker - it needs to be configurable"
    )

    kept = [c for c in session.extracted() if "reasoned" in c.tags]

    assert [c.type for c in kept] == [MemoryType.USER_STYLE]
    assert kept[0].importance == pytest.approx(0.8)


def test_a_rule_kept_whole_with_its_reason_is_not_said_again_as_a_habit() -> None:
    """The same message can read as the works-for-anyone habit too: one memory, the whole rule."""
    session = Session("/home/dev/shopfront", "s1", T0)
    session.user("open the pr for me to review")
    session.run("gh pr create --draft --fill", 0, "https://example.org/pull/7\n")
    session.user(
        "since shopfront is an open source app that people host themselves we need to make "
        "sure we're not forcing EVERYONE onto our error tracker - it needs to be configurable "
        "if they use another one"
    )

    style = [c for c in session.extracted() if c.type is MemoryType.USER_STYLE]

    assert len(style) == 1
    assert "reasoned" in style[0].tags


def test_the_habit_stays_where_no_rule_gives_its_reason() -> None:
    session = Session("/home/dev/shopfront", "s1", T0)
    session.user("open the pr for me to review")
    session.run("gh pr create --draft --fill", 0, "https://example.org/pull/7\n")
    session.user(
        "we're not forcing EVERYONE onto our error tracker - it needs to be configurable if "
        "they use another one"
    )

    style = [c for c in session.extracted() if c.type is MemoryType.USER_STYLE]

    assert [c for c in style if "reasoned" in c.tags] == []
    assert any("portability" in c.tags for c in style)
