"""The tools the user chooses for the project are kept in their words, in every ecosystem; a
wish about a thing of the task, a question, a refusal, code names and "for now" are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.stack_choices import CHOICE_TAG, stack_choices
from squirrel_memory.models import MemoryType, Scope
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("said", "quote"),
    [
        (
            "I want to use TestNG and Lombok and Log4J with Slf4J",
            "I want to use TestNG and Lombok and Log4J with Slf4J",
        ),
        ("Let's use pytest for the tests.", "Let's use pytest for the tests"),
        ("We'll go with Postgres and sqlc.", "We'll go with Postgres and sqlc"),
        ("I'd like to use FastAPI, because it is async.", "I'd like to use FastAPI"),
        ("ok so we're going to use Phoenix LiveView", "we're going to use Phoenix LiveView"),
        (
            "The plan is fine. I want to use Tailwind for styling.",
            "I want to use Tailwind for styling",
        ),
        (
            "we would like to use GitHub Actions/Fastlane",
            "we would like to use GitHub Actions/Fastlane",
        ),
    ],
)
def test_a_choice_of_named_tools_is_kept_in_the_users_words(said: str, quote: str) -> None:
    (found,) = stack_choices(said, after_assistant_action=False)
    assert found.content == f"The user chose the tools for this project, in their words: “{quote}”."
    assert found.scope is Scope.PROJECT
    assert found.standing and CHOICE_TAG in found.tags


@pytest.mark.parametrize(
    "said",
    [
        "I want to use the new endpoint",  # a thing of the task
        "Let's use a map here.",
        "Let's use Redis here.",  # one spot of the task
        "Let's use SQLite for now.",  # for now
        "I want to use userService for this",  # a code name
        "let's use load_config in main",
        "I want to use `make build`",  # a code span
        "Should we use Redis?",  # a question
        "I don't want to use Redux",  # a refusal: `wanted_ways`
        "Use TestNG instead of JUnit.",  # an imperative: `preferences`
        "I want to use it",  # a pronoun
        "we want to use what works",
        "I want to use something simple and fast",
        "Let's use tabs and spaces and semicolons and commas and brackets and quotes and dots",
        "I want to use my judgement",
    ],
)
def test_no_named_tool_no_choice(said: str) -> None:
    assert stack_choices(said, after_assistant_action=False) == []


def test_said_after_the_assistant_proposed_it_weighs_more() -> None:
    (plain,) = stack_choices("I want to use TestNG", after_assistant_action=False)
    (answer,) = stack_choices("I want to use TestNG", after_assistant_action=True)
    assert answer.importance > plain.importance


def test_a_choice_answering_a_proposal_is_a_standing_style_of_the_project() -> None:
    session = Session("/home/dev/prep", "s1", T0)
    session.user("Let's set up the repository for interview practice.")
    session.say("**Build stack**: Gradle with Java 21, JUnit 5 for tests. Does this look right?")
    session.user("I want to use TestNG and Lombok and Log4J with Slf4J")
    session.say("Good choices. Updated build stack: TestNG, Lombok, SLF4J with Log4J2.")
    (style,) = [c for c in session.extracted() if CHOICE_TAG in c.tags]
    assert style.type == MemoryType.USER_STYLE
    assert "TestNG" in style.content
    assert style.scope == Scope.PROJECT


def _chosen(*messages: str) -> list[str]:
    session = Session("/home/dev/prep", "s1", T0)
    for message in messages:
        session.user(message)
        session.say("Sure, the plan is updated.")
    return [c.content for c in session.extracted() if CHOICE_TAG in c.tags]


def test_a_choice_changed_later_in_the_episode_is_withdrawn() -> None:
    # which of the two stands is not for a rule to guess: only the last word is kept
    assert _chosen("I want to use Jest for the tests.", "Actually, let's use Vitest instead.") == [
        "The user chose the tools for this project, in their words: “let's use Vitest instead”."
    ]
    assert _chosen(
        "I want to use TestNG and Lombok.", "Hmm, let's switch to JUnit 5 instead of TestNG."
    ) == [
        "The user chose the tools for this project, in their words: "
        "“let's switch to JUnit 5 instead of TestNG”."
    ]
    assert _chosen("I want to use TestNG and Lombok.", "Actually, drop Lombok.") == []


def test_a_later_message_without_a_change_of_tools_keeps_the_choice() -> None:
    assert _chosen(
        "I want to use TestNG and Lombok.", "Don't add the insight comment yet, write Two Sum."
    ) == [
        "The user chose the tools for this project, in their words: “I want to use TestNG and Lombok”."
    ]


def test_choices_without_a_topic_share_one_key() -> None:
    (first,) = stack_choices("I want to use TestNG and Lombok", after_assistant_action=False)
    (second,) = stack_choices("let's go with Gradle", after_assistant_action=False)
    assert first.key == second.key
