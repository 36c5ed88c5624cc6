"""What the user says the project is built with is kept in their words, in every ecosystem;
a hedge, a question, a negation, a plan to move, a stackless remark and a taken-back sentence
are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _told(*messages: str) -> list[str]:
    session = Session("/home/dev/prep", "s1", T0)
    for message in messages:
        session.user(message)
        session.say("Understood, let me look at the repository.")
    return [
        c.content
        for c in session.extracted()
        if c.key.startswith("stack:told:") and c.type == MemoryType.PROJECT_FACT
    ]


@pytest.mark.parametrize(
    ("message", "clause"),
    [
        (
            "Let's set up the build. This project will primarily "
            "contain Java source and test directory built using latest Gradle. I have little time.",
            "This project will primarily contain Java source and test directory built using "
            "latest Gradle",
        ),
        (
            "The app is a Flutter app with a Go backend.",
            "The app is a Flutter app with a Go backend",
        ),
        ("Our service runs on Bun.", "Our service runs on Bun"),
        ("My firmware is built with PlatformIO", None),  # no stack name the table knows: nothing
        ("the backend uses Phoenix and Ecto", "the backend uses Phoenix and Ecto"),
    ],
)
def test_the_users_description_of_the_stack_is_quoted(message: str, clause: str | None) -> None:
    expected = [f"The user describes the project: “{clause}”."] if clause else []
    assert _told(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "This project doesn't use Django.",  # negated
        "Maybe the app should use Redis?",  # a question, hedged
        "This app is built with React but I think we should move to Svelte",  # hedged
        "The repo is a mess.",  # no stack named
        "The app was written in Python before the rewrite.",  # past
        "Fix the login test in the app, it uses React Testing Library",  # no project subject first
        "The app uses the new endpoint.",
    ],
)
def test_no_description_of_the_stack_no_fact(message: str) -> None:
    assert _told(message) == []


def test_a_description_taken_back_later_is_not_kept() -> None:
    assert _told("The app is a Flutter app with a Go backend.", "Scrap that, start over.") == []


def test_a_stack_the_users_statement_of_what_the_project_is_quotes_is_not_told_twice() -> None:
    # "What this project is, as the user put it" quotes the whole clause, Rust included.
    assert _told("The project is a Rust library for parsing GPX files.") == []
    # Cut at its comma, that statement leaves the stack out: the description keeps it.
    assert _told(
        "This repo is the backend for our banking app, written in Kotlin with Spring Boot."
    ) == [
        "The user describes the project: “This repo is the backend for our banking app, "
        "written in Kotlin with Spring Boot”."
    ]
