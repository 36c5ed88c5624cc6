"""What the user sets out to build, and the plan they settle for it, in their own words: kept in
any project, and where it must not be kept."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.user_plans import user_plans
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import ROOT, T0


def _session(*messages: str, origin: str = "typed") -> Session:
    session = Session(ROOT, "s1", T0)
    for message in messages:
        session.add("user_message", {"text": message}, origin=origin)
        session.say("I'll start by looking at the code.")
    return session


def _said(session: Session) -> list[MemoryCandidate]:
    return [c for c in session.extracted() if c.key.startswith("plan:")]


@pytest.mark.parametrize(
    ("message", "what"),
    [
        (
            "I would like to start planning out an integration for the payment terminal to "
            "allow refunds from the till as well as show the day's totals on its screen.",
            "an integration for the payment terminal to allow refunds from the till as well "
            "as show the day's totals on its screen",
        ),
        (
            "ok, let's plan the move of the importers to the new queue service",
            "the move of the importers to the new queue service",
        ),
        (
            "I want to plan our migration from the old ORM to plain SQL queries.",
            "our migration from the old ORM to plain SQL queries",
        ),
    ],
)
def test_an_intent_to_plan_is_kept_in_the_users_words(message: str, what: str) -> None:
    [found] = _said(_session(message))

    assert found.content == f'The user set out to plan (their words): "{what}".'
    assert found.type.value == "project_fact"


@pytest.mark.parametrize(
    ("message", "steps"),
    [
        (
            "ok do that, also open a PR for the CSV export. I think what we should do is pick "
            "one existing exporter and add the new format to it, make sure that works, then "
            "move the others over",
            "pick one existing exporter and add the new format to it, make sure that works, "
            "then move the others over",
        ),
        (
            "The plan is to add the column first, backfill it, then drop the old table.",
            "add the column first, backfill it, then drop the old table",
        ),
        (
            "here's the plan: split the crate into a core and a CLI, after that publish both",
            "split the crate into a core and a CLI, after that publish both",
        ),
    ],
)
def test_a_settled_plan_of_steps_is_kept_in_the_users_words(message: str, steps: str) -> None:
    [found] = _said(_session(message))

    assert found.content == f'The user\'s plan for the work (their words): "{steps}".'


@pytest.mark.parametrize(
    "message",
    [
        # No plan: a request, a question, a short or vague object.
        "fix the failing login test",
        "should we plan the migration to the new queue service first?",
        "let's plan the next step",
        "I'm going to plan my day",
        # Hedged or negated.
        "I would like to plan a rewrite of the importer, maybe with a new parser in Rust",
        "I think what we should do is not touch the importer, then see",
        "the plan is to add the column, then maybe drop the old table",
        # A plan kept elsewhere is pointed at, not stated.
        "the plan is in PLAN.md, then we pick the next milestone",
        # A settled "plan" of one step is a request, not steps in order.
        "the plan is to add the column to the users table",
        # Quoted, not the user's own words.
        "> I would like to start planning out an integration for the payment terminal app",
    ],
)
def test_what_is_no_plan_of_the_users_is_not_kept(message: str) -> None:
    assert _said(_session(message)) == []


def test_a_plan_in_text_not_in_the_users_voice_is_not_kept() -> None:
    message = "I would like to start planning out an integration for the payment terminal app."

    assert _said(_session(message, origin="harness")) == []


def test_a_plan_the_user_dropped_later_is_not_kept() -> None:
    plan = "The plan is to add the column first, backfill it, then drop the old table."

    assert _said(_session(plan, "scratch that, we keep the old table for now")) == []
    # The words that drop an approved plan's checks drop a plan said in the user's words too.
    assert _said(_session(plan, "let's abandon this plan, the table stays")) == []
    assert len(_said(_session(plan, "go ahead"))) == 1


def test_a_plan_too_long_to_quote_is_not_cut() -> None:
    long = "The plan is to " + ", then ".join(f"update the module number {n}" for n in range(20))

    assert user_plans(_session(long).events) == []


@pytest.mark.parametrize(
    ("message", "words"),
    [
        (  # Python / Django: the change, what works elsewhere, then the request for a plan
            "I'd like us to consider moving the jobs off Celery. In another project I use RQ "
            "and it is much less hassle. I think we can drop Celery here. Think through a plan "
            "for the switch and share it.",
            "I'd like us to consider moving the jobs off Celery. In another project I use RQ "
            "and it is much less hassle. I think we can drop Celery here",
        ),
        (  # Go
            "We should get rid of the hand-written SQL layer and use sqlc. Come up with a plan "
            "and show me, no code yet.",
            "We should get rid of the hand-written SQL layer and use sqlc",
        ),
        (  # Rust: the change named in the request itself
            "Can you draft a plan to replace the TOML parsing with figment and share it.",
            "Can you draft a plan to replace the TOML parsing with figment and share it",
        ),
    ],
)
def test_a_change_wanted_with_its_plan_asked_for_is_kept_as_asked(message: str, words: str) -> None:
    [found] = _said(_session(message))

    assert found.content == (
        f'The user wants this change and asked for a plan of it first (their words): "{words}".'
    )
    assert found.type.value == "project_fact"


@pytest.mark.parametrize(
    "message",
    [
        # done already, then a plan of something else
        "I removed the dependency on Moment last week. Think through a plan for the timezone "
        "bugs and share it.",
        # a question that only weighs a change
        "Should we drop MongoDB for Postgres? What would a plan for that even look like?",
        # a plan asked for with no change named, or a change negated
        "Think through a plan for the next release and share it.",
        "I don't want to replace Express. Draft a plan for the rate limits instead.",
        # a change wanted with no plan asked for: a task, done now
        "I'd like to remove the dependency on lodash.",
        # a verb of change in a way of speaking, or too few words to name a change
        "Let's move on from the login page now. Draft a plan for the reports and share it.",
        "We should drop it. Draft a plan for the reports.",
        "I want to leave the API exactly as it is. Draft a plan for the UI and share it.",
    ],
)
def test_no_wanted_change_or_no_plan_asked_is_not_kept_as_one(message: str) -> None:
    assert not any("asked for a plan" in c.content for c in _said(_session(message)))


def test_a_wanted_change_whose_plan_was_dropped_is_not_kept() -> None:
    asked = "I think we can drop AutoMapper here. Think through a plan for that and share it."

    assert len(_said(_session(asked))) == 1
    assert _said(_session(asked, "never mind, forget the plan, just fix the null check")) == []
