"""A correction asked as a question about what the assistant keeps doing ("why are you adding a
Co-Authored-By trailer?") or with the way the user wants beside it ("why are we writing docs
instead of using artifacts?"): read only right after the assistant acted, never when the
question is about one thing of the task or may only ask."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.firmness import CORRECTION_TAG
from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "why are we writing docs and committing them instead of using artifacts?",
            "Prefers using artifacts over writing docs and committing them.",
        ),
        ("Why are you using npm instead of pnpm?", "Prefers pnpm over npm."),
        (
            "Why not just use the existing helper instead of writing a new one?",
            "Use the existing helper instead of writing a new one.",
        ),
        ("why are you adding a Co-Authored-By trailer?", "Don't add a Co-Authored-By trailer."),
        # the older form still reads as before
        (
            "why did you use mocks instead of the real database?",
            "Don't use mocks instead of the real database.",
        ),
    ],
)
def test_a_correction_asked_as_a_question(text: str, content: str) -> None:
    [found] = stated_preferences(text, after_assistant_action=True)

    assert found.content == content and CORRECTION_TAG in found.tags


@pytest.mark.parametrize(
    "text",
    [
        "why are we running such an old version of node?",  # one value, no way beside it
        "why do we need a new dependency instead of the stdlib?",  # a value asked about
        "why are you changing it instead of the test?",  # one thing of the task
        "why are you adding this file?",
        "why are you running the tests?",  # may only ask
        "why are you reading the config instead of the environment?",  # no gerund of making
    ],
)
def test_a_question_about_the_task_is_no_correction(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []


def test_the_same_question_before_the_assistant_acted_is_not_read() -> None:
    text = "why are we writing docs and committing them instead of using artifacts?"
    assert stated_preferences(text, after_assistant_action=False) == []
