"""Preferences said once, in wordings the rules did not read before: "I'd rather …", "it doesn't
make sense to …", "I did not say commit", "the overriding directive is …", "fix any … you
notice", "keep the <kinds> short", "write the test first"; a "don't …" that names what the
assistant just ran is a correction. Each fires in sessions of different ecosystems (a Go CLI,
a Python service, a TypeScript app) and stays quiet on its traps: the task at hand, a question,
a praise, a "don't" about something the assistant did not do.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import CORRECTION_TAG, STANDING_TAG, TENTATIVE_IMPORTANCE
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _said(text: str, *, after: bool = True) -> list[tuple[str, bool]]:
    """(statement, standing) of each preference `text` states."""
    return [
        (p.content, STANDING_TAG in p.tags)
        for p in stated_preferences(text, after_assistant_action=after)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a Node project and a Python one: a tool chosen over another is a standing choice
        ("I'd rather you use pnpm than npm", [("Prefers pnpm over npm.", True)]),
        ("I would rather go with uv over pip", [("Prefers uv over pip.", True)]),
        # a way of working, said once: kept, tentative
        ("I'd rather have small commits", [("Prefers small commits.", False)]),
        ("I'd rather you didn't add new dependencies", [("Don't add new dependencies.", False)]),
    ],
)
def test_what_the_user_would_rather_have_is_a_preference(
    text: str, expected: list[tuple[str, bool]]
) -> None:
    assert _said(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'd rather not",  # says nothing of what
        "I'd rather you fix this one",  # the task at hand
        "I'd rather see the diff first, then decide",  # (no tool, "the diff" of this task)
    ],
)
def test_would_rather_about_the_task_at_hand_is_not_kept(text: str) -> None:
    assert not [content for content, standing in _said(text) if standing]
    assert "Prefers not." not in [content for content, _ in _said(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "yeah it doesn't make sense to commit in a broken state",
            "Don't commit in a broken state.",
        ),
        (
            "it wouldn't make sense to push before the build is green",
            "Don't push before the build is green.",
        ),
        ("there's no point in running the linter twice", "Don't run the linter twice."),
    ],
)
def test_a_way_of_working_ruled_out_as_senseless_is_a_dont(text: str, expected: str) -> None:
    assert _said(text) == [(expected, False)]


@pytest.mark.parametrize(
    "text",
    [
        "it doesn't make sense to me",  # no way of working named
        "does it make sense to split the module?",  # a question
        "there's no point in this",  # nothing ruled out
    ],
)
def test_senseless_without_a_way_of_working_says_nothing(text: str) -> None:
    assert _said(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no, I did not say commit anything", "Don't commit unless the user asks for it."),
        ("I never asked you to push", "Don't push unless the user asks for it."),
        (
            "I didn't tell you to delete the fixtures",
            "Don't delete the fixtures unless the user asks for it.",
        ),
    ],
)
def test_doing_what_nobody_asked_for_is_corrected(text: str, expected: str) -> None:
    (found,) = stated_preferences(text, after_assistant_action=True)
    assert found.content == expected
    assert CORRECTION_TAG in found.tags and found.importance > TENTATIVE_IMPORTANCE


@pytest.mark.parametrize(
    "text",
    [
        "I didn't say that",  # no act named
        "I did not ask about the deadline",  # not a thing to do
        "I never asked you anything about the weather forecast for the whole of next week",
    ],
)
def test_not_asked_without_an_act_says_nothing(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []


def test_a_named_overriding_principle_is_standing() -> None:
    # said of the product's users, the directive is the product's design, no rule for the
    # assistant (test_user_text_misreadings.py)
    assert (
        stated_preferences(
            "yes. the overriding directive is to not get in the way of the user (in terms of "
            "stopping their flow), but I think we should signal and log",
            after_assistant_action=True,
        )
        == []
    )
    (golden,) = stated_preferences(
        "the golden rule is to keep the public API backwards compatible",
        after_assistant_action=False,
    )
    assert golden.content == "Keep the public API backwards compatible."
    assert STANDING_TAG in golden.tags


@pytest.mark.parametrize("text", ["the main goal is to ship", "the first rule is done"])
def test_a_short_goal_is_no_principle(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize(
    "text",
    [
        "please please fix up any code quality issues you notice and don't leave them by the "
        "wayside if they are small",
        "fix any typos you see in the docs",
        "clean up any lint warnings you come across",
    ],
)
def test_any_thing_you_notice_is_every_such_thing_later(text: str) -> None:
    (found,) = stated_preferences(text, after_assistant_action=True)
    assert STANDING_TAG in found.tags


def test_a_doubled_please_stresses_the_rule() -> None:
    (twice,) = stated_preferences(
        "please please fix any typos you see in the docs", after_assistant_action=True
    )
    (once,) = stated_preferences(
        "please fix any typos you see in the docs", after_assistant_action=True
    )
    assert twice.importance > once.importance


@pytest.mark.parametrize(
    "text",
    [
        "did you fix the issues you found?",  # a question about this task
        "fix the issue you noticed in the parser",  # one issue, already seen
    ],
)
def test_one_issue_of_this_task_is_not_every_issue(text: str) -> None:
    assert not [
        s for s in stated_preferences(text, after_assistant_action=True) if STANDING_TAG in s.tags
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("keep the commit messages short", "Keep the commit messages short."),
        ("keep the PR descriptions brief", "Keep the PR descriptions brief."),
        # ("let's fix it. write the test first": the order of this one fix, no habit;
        # test_user_text_misreadings.py)
        ("add a failing test first", "Add a failing test first."),
    ],
)
def test_habit_forms_with_an_article_or_without_a_then(text: str, expected: str) -> None:
    assert _said(text) == [(expected, True)]


@pytest.mark.parametrize(
    "text",
    [
        "keep the README short",  # one file, not a kind of thing
        "keep the test short",  # one test
        "fix the import first",  # an order of this task's steps
        "write the test first?",  # a question
    ],
)
def test_one_thing_kept_short_or_done_first_is_the_task(text: str) -> None:
    assert _said(text) == []


def _after(
    command: str, said: str, root: str = "/home/dev/app"
) -> list[tuple[str, tuple[str, ...]]]:
    session = Session(root, "s1", T0)
    session.add("user_message", {"text": "Tidy up the history of the branch."}, origin="typed")
    session.run(command)
    session.say("Done.")
    session.add("user_message", {"text": said}, origin="typed")
    return [
        (c.content, c.tags)
        for c in session.extracted()
        if c.type is MemoryType.USER_STYLE and c.key != "pref:reply_language"
    ]


@pytest.mark.parametrize(
    ("root", "command", "said"),
    [
        ("/home/dev/cli", "git commit --amend --no-edit", "oh, please don't amend commits"),
        ("/home/dev/shop", "npm install left-pad", "don't use npm here"),
        ("/home/dev/api", "git push --force origin feature", "never push with force"),
    ],
)
def test_a_dont_that_names_what_the_assistant_just_ran_is_a_correction(
    root: str, command: str, said: str
) -> None:
    ((content, tags),) = _after(command, said, root)
    assert CORRECTION_TAG in tags, (content, tags)


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("git add src/app.py", "don't add comments to the code"),  # a common verb, other object
        ("pytest -q", "don't amend commits"),  # the assistant amended nothing
    ],
)
def test_a_dont_about_something_not_done_is_no_correction(command: str, said: str) -> None:
    ((content, tags),) = _after(command, said)
    assert CORRECTION_TAG not in tags, (content, tags)


def _after_stop(root: str, said: str, *, interrupted: bool) -> list[tuple[str, tuple[str, ...]]]:
    session = Session(root, "s1", T0)
    session.add("user_message", {"text": "Set up the project's tooling."}, origin="typed")
    session.run("npm install --save-dev eslint", exit_code=None)
    if interrupted:
        marker = "[Request interrupted by user for tool use]"
        session.add("user_message", {"text": marker}, origin="harness")
    session.add("user_message", {"text": said}, origin="typed")
    return [
        (c.content, c.tags)
        for c in session.extracted()
        if c.type is MemoryType.USER_STYLE and c.key != "pref:reply_language"
    ]


@pytest.mark.parametrize(
    ("root", "said"),
    [
        ("/home/dev/shop", "use biome instead of eslint"),  # a TypeScript shop
        ("/home/dev/etl", "keep the commit messages short"),  # a Python pipeline
    ],
)
def test_an_instruction_right_after_stopping_the_assistant_is_a_correction(
    root: str, said: str
) -> None:
    ((_, tags),) = _after_stop(root, said, interrupted=True)
    assert CORRECTION_TAG in tags
    ((_, plain),) = _after_stop(root, said, interrupted=False)
    assert CORRECTION_TAG not in plain


@pytest.mark.parametrize(
    "said", ["why did you pick eslint?", "wait, what is this package for?", "ok go on"]
)
def test_a_question_after_stopping_the_assistant_is_no_instruction(said: str) -> None:
    assert _after_stop("/home/dev/shop", said, interrupted=True) == []
