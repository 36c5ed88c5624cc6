"""The commit convention a user asks the work to apply, in any wording: "enforce Conventional
Commits", "automatiser … en appliquant … 'conventional commit'"; not a question about it, nor
the convention turned down."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.wanted_conventions import CONTENT, wanted_convention
from squirrel_memory.extractors.working_habits import user_instructions


@pytest.mark.parametrize(
    "message",
    [
        "set up commitlint to enforce Conventional Commits",
        "Let's automate commit messages in this repo following conventional commits.",
        (
            "Liste moi plusieurs solutions pour automatiser la création de commit dans ce repo "
            "en appliquant les bonnes pratique 'conventional commit'."
        ),
        "Configura un hook para aplicar conventional commits en este repo",
    ],
)
def test_a_convention_the_work_is_to_apply_is_a_standing_instruction(message: str) -> None:
    found = wanted_convention(message)
    assert found is not None and found.standing and found.content == CONTENT
    assert CONTENT in [p.content for p in user_instructions(message, after_assistant_action=False)]


@pytest.mark.parametrize(
    "message",
    [
        "what are conventional commits?",
        "should we use conventional commits?",
        "we don't follow conventional commits here",
        "stop using conventional commits for the release branch",
        "> always use conventional commits",
        "the changelog tool reads conventional commits",
    ],
)
def test_a_question_a_refusal_or_a_mention_wants_no_convention(message: str) -> None:
    assert wanted_convention(message) is None


def test_a_convention_said_plainly_keeps_its_own_words() -> None:
    found = user_instructions("use conventional commits", after_assistant_action=False)
    assert [p.content for p in found] == ["Use conventional commits."]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("How can I automate conventional commits in this repo?", CONTENT),
        ("Set up a pre-commit hook that enforces PSR-12 on src/.", "PHP code follows PSR-12."),
        ("Bump the version following semver.", "Versions follow Semantic Versioning."),
        ("We use gitmoji for commit subjects here.", "Commit messages use gitmoji."),
        (
            "Configura el changelog siguiendo Keep a Changelog.",
            "The changelog follows Keep a Changelog.",
        ),
        ("Richte bitte commitlint ein, damit wir Conventional Commits befolgen.", CONTENT),
    ],
)
def test_other_conventions_a_how_to_question_and_a_verb_said_last(
    message: str, content: str
) -> None:
    found = wanted_convention(message)
    assert found is not None and found.standing and found.content == content


@pytest.mark.parametrize(
    "message",
    [
        "Is conventional commits or gitmoji better?",  # two compared
        "Should we use semver?",
        "Explain the difference between PEP 8 and Black.",
        "Stop following semver for the internal packages.",
        "Conventional Commits befolgen wir nicht.",  # turned down, the verb last
        "Conventional Commits are popular these days.",
    ],
)
def test_comparisons_doubts_and_refusals_of_other_conventions_want_none(message: str) -> None:
    assert wanted_convention(message) is None
