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


STEPS = (
    "🛠️ From Idea to Demo — 3 Steps\n\n"
    "1️⃣ DATA — find open air-quality feeds for the city\n\n"
    "2️⃣ MODEL — train a forecaster, compare vs. a baseline on held-out days (no leakage!)\n\n"
    "3️⃣ DEMO — show a route with its warnings\n\n"
)


def _terms(session: Session) -> dict[str, str]:
    return {c.key: c.content for c in session.extracted() if c.key.startswith("brief:")}


def test_a_called_briefs_steps_and_submissions_are_quoted() -> None:
    session = Session("/home/dev/clean-air", "s1", T0)
    session.user(_brief() + STEPS + "this is the task. lets start with the data.")

    terms = _terms(session)

    assert terms["brief:steps"] == (
        'The brief the user called "the task" sets out its steps: '
        "1. DATA — find open air-quality feeds for the city; "
        "2. MODEL — train a forecaster, compare vs. a baseline on held-out days (no leakage!); "
        "3. DEMO — show a route with its warnings."
    )
    assert terms["brief:submit"] == (
        'The brief the user called "the task" asks them to submit: '
        "Working demo; Code + config; Short evaluation with a baseline."
    )


@pytest.mark.parametrize(
    "steps",
    [
        "Step 1: collect the feeds\nStep 2: train the model\nStep 3: ship the demo\n\n",
        "1. collect the feeds\n2. train the model\n3. ship the demo\n\n",
        "1) collect the feeds\n\n2) train the model\n\n3) ship the demo\n\n",
    ],
)
def test_steps_numbered_in_any_common_way_are_read(steps: str) -> None:
    session = Session("/home/dev/clean-air", "s1", T0)
    session.user(_brief() + steps + "here is the challenge.")

    assert _terms(session)["brief:steps"].endswith(
        "1. collect the feeds; 2. train the model; 3. ship the demo."
    )


@pytest.mark.parametrize(
    "steps",
    [
        # Two steps are no list of steps.
        "1. collect the feeds\n2. train the model\n\n",
        # Out of order, or interrupted by prose: not one run of steps.
        "1. collect the feeds\n3. train the model\n4. ship the demo\n\n",
        "1. collect the feeds\nThen think hard.\n2. train the model\n3. ship the demo\n\n",
        # A step too long to quote is not cut.
        "1. collect the feeds\n2. " + "train the model well " * 12 + "\n3. ship the demo\n\n",
    ],
)
def test_what_is_no_run_of_steps_is_not_kept(steps: str) -> None:
    session = Session("/home/dev/clean-air", "s1", T0)
    session.user(_brief() + steps + "this is the task.")

    assert "brief:steps" not in _terms(session)


def test_a_paste_not_called_the_work_gives_no_terms() -> None:
    session = Session("/home/dev/clean-air", "s1", T0)
    session.user(_brief() + STEPS + "what do you think of this?")

    assert _terms(session) == {}


def test_a_submission_heading_without_a_list_under_it_gives_nothing() -> None:
    brief = _brief().replace("📦 You Submit\n✅", "📦 You Submit\n\nWe will ask for a\n✅")
    session = Session("/home/dev/clean-air", "s1", T0)
    session.user(brief + "this is the task.")

    assert "brief:submit" not in _terms(session)
