"""What the project is for, from a brief the user pasted and called the task (pasted_brief)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.pasted_brief import brief_goal
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 6, 3, tzinfo=UTC)

GOAL = (
    "Use the city's open sensor feeds to build a model that warns cyclists of dangerous "
    "air quality along their route."
)


def _brief(heading: str = "🎯 The Mission", goal: str = GOAL) -> str:
    return (
        "Open Data Lab X City Council\n\n"
        "CLEAN AIR CHALLENGE - Give every cyclist a better route 🚲\n\n"
        "Cities measure the air every minute, and nobody on a bike ever sees it.\n\n"
        f"{heading}\n\n{goal}\n\n"
        "Think: a commuter, a courier, a child on the way to school.\n\n"
        "📦 You Submit\n✅ Working demo\n✅ Code + config\n✅ Short evaluation with a baseline\n\n"
    )


async def _about(session: Session) -> list[str]:
    found: list[MemoryCandidate] = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(await RulesExtractor().extract(episode, session.events))
    return [c.content for c in found if c.key == "about"]


@pytest.mark.parametrize(
    "called", ["this is the task", "here is the challenge", "The above is our brief"]
)
@pytest.mark.parametrize("root", ["/home/dev/clean-air", "/Users/ana/src/hack-2026"])
async def test_a_pasted_brief_called_the_task_says_what_the_project_is_for(
    called: str, root: str
) -> None:
    session = Session(root, "s1", T0)
    session.user(_brief() + f"{called}. lets go step by step and build a pipeline.")

    (about,) = await _about(session)

    what = called.lower().split(" is ")[-1]
    assert about == f'The user pasted a brief and called it "{what}"; its mission: {GOAL}'


@pytest.mark.parametrize(
    "text",
    [
        # a paste the user does not call the work (a log, another system's spec)
        _brief() + "why does the pipeline fail on this?",
        # called the task, but too short to be a pasted brief
        "🎯 Mission\n\nBuild a model that warns cyclists.\n\nthis is the task",
        # no heading that names the purpose
        _brief(heading="Some background") + "this is the task",
        # an issue pasted as the task: its problem or goal is one change's, not the project's
        _brief(heading="## Problem") + "this is the task",
        _brief(heading="**Goal**") + "here is the task",
        _brief(heading="### Task") + "this is the task",
        # the goal line is a question
        _brief(goal="Can you build a model that warns cyclists of dangerous air?")
        + "this is the task",
        # fenced code: a paste of a file, not a brief
        "```\n" + _brief() + "```\nthis is the task",
    ],
)
async def test_a_paste_that_is_not_a_brief_called_the_work_says_nothing(text: str) -> None:
    session = Session("/home/dev/clean-air", "s1", T0)
    session.user(text)

    assert await _about(session) == []


async def test_an_assistants_paste_is_not_the_users_brief() -> None:
    session = Session("/home/dev/clean-air", "s1", T0)
    session.user("what should we build?")
    session.say(_brief() + "this is the task")

    assert await _about(session) == []


def test_the_goal_is_the_first_sentence_under_the_heading() -> None:
    text = "## Objectives\n\n" + GOAL + " It should run on a phone. Judges like demos.\n"

    assert brief_goal(text) == ("objectives", GOAL)
    assert brief_goal("## Objective\n\n## Our Mission\n\n" + GOAL) is None  # no goal line
    assert brief_goal("The mission statement of our team is long.\n" + GOAL) is None


async def test_a_readme_wins_over_the_pasted_brief() -> None:
    session = Session("/home/dev/clean-air", "s1", T0)
    session.user(_brief() + "this is the task")
    session.read("README.md", "# Clean air\n\nRoute planner that avoids polluted streets.\n")

    (about,) = await _about(session)

    assert "per its README.md" in about
