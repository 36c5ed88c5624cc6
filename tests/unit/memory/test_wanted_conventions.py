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
