"""A convention known by its name the user asks to put in place is how the project's work is
done."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.asked_conventions import asked_convention, asked_conventions
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        (
            "Add commitlint so our commit messages follow Conventional Commits.",
            "Conventional Commits",
        ),
        ("How can I automate conventional commits in this repo?", "Conventional Commits"),
        ("Set up a pre-commit hook that enforces PSR-12 on src/.", "PSR-12"),
        ("Bump the version following semver.", "Semantic Versioning"),
        ("We use gitmoji for commit subjects here.", "gitmoji"),
        (
            "Liste moi plusieurs solutions pour automatiser la création de commit dans ce repo "
            "en appliquant les bonnes pratique 'conventional commit'.",
            "Conventional Commits",
        ),
        (
            "Richte bitte commitlint ein, damit wir Conventional Commits befolgen.",
            "Conventional Commits",
        ),
        ("Configura el changelog siguiendo Keep a Changelog.", "Keep a Changelog"),
    ],
)
def test_a_named_convention_asked_for_is_the_projects_way(sentence: str, name: str) -> None:
    assert asked_convention(sentence) == name


@pytest.mark.parametrize(
    "sentence",
    [
        "Should we use conventional commits?",  # a doubt
        "What is semver?",  # what it is
        "Is conventional commits or gitmoji better?",  # a comparison
        "Explain the difference between PEP 8 and Black.",
        "We don't use gitmoji anymore.",  # a negation: the instruction rules read it
        "Stop following semver for the internal packages.",
        "Set up a linter for the project.",  # no convention named
        "Conventional Commits are popular these days.",  # no putting in place
    ],
)
def test_doubts_questions_negations_and_other_sentences_name_no_convention(sentence: str) -> None:
    assert asked_convention(sentence) is None


def test_one_memory_per_convention_of_the_users_own_words() -> None:
    s = Session("/home/dev/app", "s1", T0)
    s.user("Add commitlint so our commit messages follow Conventional Commits.")
    s.say("I added commitlint with the conventional config.")
    s.user("And make the release script bump the version following Conventional Commits too.")
    (found,) = asked_conventions(s.events)
    assert found.content == (
        "The user wants the project to follow Conventional Commits (they asked: “Add commitlint "
        "so our commit messages follow Conventional Commits”)."
    )
    [memory] = [c for c in s.extracted() if c.key == found.key]
    assert memory.type is MemoryType.USER_STYLE


def test_a_convention_named_in_the_assistants_words_is_not_the_users() -> None:
    s = Session("/home/dev/app", "s1", T0)
    s.user("Tidy up the commit history before the release.")
    s.say("I could also set up commitlint to enforce Conventional Commits.")
    assert asked_conventions(s.events) == []
