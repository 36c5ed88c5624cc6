"""What the user flags as information to keep ("FYI, the staging db is read-only") and what
they state of the project itself ("this repo uses 2-space indentation") are project facts,
quoted; a request, a remark of the moment, a doubt or a sentence about the user is not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.told_notes import noted
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("FYI the staging db is read-only", "the staging db is read-only"),
        (
            "heads up: the seed script wipes the local database",
            "the seed script wipes the local database",
        ),
        ("note that the CI runs on node 18, not 20", "the CI runs on node 18, not 20"),
        (
            "keep in mind the API allows 10 requests a second",
            "the API allows 10 requests a second",
        ),
        ("remember we use yarn", "we use yarn"),
        ("just so you know, we deploy with fly.", "we deploy with fly"),
        ("FYI you need sudo to run the installer", "you need sudo to run the installer"),
        ("Note that the tests take about 20 minutes", "the tests take about 20 minutes"),
        ("this project uses 2-space indentation", "this project uses 2-space indentation"),
        ("Our codebase has no default exports.", "Our codebase has no default exports"),
    ],
)
def test_a_flagged_statement_or_one_about_the_project_is_noted(sentence: str, said: str) -> None:
    assert noted(sentence) == said


@pytest.mark.parametrize(
    "sentence",
    [
        "btw can you also fix the header",  # a request
        "remember to run the linter",  # a habit: `preferences` reads it
        "FYI I pushed the fix",  # the user, and the past
        "heads up, this will take a while",  # the future
        "btw the login page is broken",  # a state a fix ends
        "FYI it runs on port 3000",  # a bare pronoun
        "btw thanks for the help",  # no statement
        "note that the build seems slow today",  # a doubt, the moment
        "FYI the API is rate-limited?",  # a question
        "the staging db is read-only",  # no flag, not the project itself
        "this project is a CLI for syncing calendars",  # what it is: `user_about`
        "this repo uses React",  # the stack: `told_stack`
        "the project has been migrated to Vite",  # the past
        "our codebase has no tests yet",  # the moment
        "FYI " + "the service " * 20 + "is slow",  # too long to be a note
    ],
)
def test_what_is_no_note_is_not_noted(sentence: str) -> None:
    assert noted(sentence) is None


def _facts(session: Session) -> list[str]:
    return [
        c.content
        for c in session.extracted()
        if c.type == MemoryType.PROJECT_FACT and c.key.startswith("told:note:")
    ]


def test_a_note_in_a_users_message_is_a_project_fact_quoting_it() -> None:
    session = Session("/home/dev/shop", "s1", T0)
    session.user("Add a retry to the upload client. FYI the staging db is read-only.")
    session.say("I'll add the retry in src/upload.ts.")

    assert _facts(session) == ["The user noted: “the staging db is read-only”."]


def test_a_note_the_user_took_back_or_pasted_or_the_assistant_said_is_not_kept() -> None:
    taken_back = Session("/home/dev/shop", "s1", T0)
    taken_back.user("FYI the staging db is read-only.")
    taken_back.user("actually, scrap that, it is writable again")
    pasted = Session("/home/dev/shop", "s2", T0)
    pasted.user("why does this fail?\n" + "FYI the staging db is read-only.\n" + "x = 1\n" * 400)
    said = Session("/home/dev/shop", "s3", T0)
    said.user("add a retry")
    said.say("FYI the staging db is read-only.")

    assert _facts(taken_back) == [] and _facts(pasted) == [] and _facts(said) == []
