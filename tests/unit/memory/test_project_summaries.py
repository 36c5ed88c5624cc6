"""What the project is, as the assistant summarised it in a session."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.summaries import SUMMARY_TAG, project_summary, summary_of
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (
            "I understand this is a Python CLI tool that converts transcript files into HTML.",
            "a Python CLI tool that converts transcript files into HTML",
        ),
        (
            "I can see this is a Next.js blog project with several blog posts and projects.",
            "a Next.js blog project with several blog posts and projects",
        ),
        (
            "This appears to be a Rails application for tracking household budgets.",
            "a Rails application for tracking household budgets",
        ),
        (
            "The project is a professional CLI tool for managing several coding agents",
            "a professional CLI tool for managing several coding agents",
        ),
        (
            "I understand this is a Go service that posts ledger entries, with features including:",
            "a Go service that posts ledger entries",
        ),
        (
            "This project is an Elixir library (a Phoenix plugin) that signs webhooks.",
            "an Elixir library (a Phoenix plugin) that signs webhooks",
        ),
        # Kinds of software beyond apps and libraries, in any ecosystem.
        (
            "This project is a small compiler that turns rule files into JSON schemas.",
            "a small compiler that turns rule files into JSON schemas",
        ),
        (
            "The repository is a desktop client for streaming playlists on every platform.",
            "a desktop client for streaming playlists on every platform",
        ),
        (
            "The codebase is an audio capture toolchain shared by a macOS app and its core.",
            "an audio capture toolchain shared by a macOS app and its core",
        ),
    ],
)
def test_a_summary_of_the_project_is_kept(text: str, what: str) -> None:
    assert summary_of(text) == what


@pytest.mark.parametrize(
    "text",
    [
        # What it is is not a kind of software: the noun phrase ends on something else.
        "This is a known issue with the library when the cache is cold.",
        "This is a good approach for the tool we are building.",
        "This is a breaking change to the public API.",
        "This project is a mess of half-finished branches right now.",
        "The project is a mix of old and new code paths.",
        # Its subject is not the project.
        "It is a library that parses dates in many formats.",
        "`chronic` is a Ruby library that parses natural dates.",
        "The test is a small script that posts one entry.",
        # A question, a negation, too few words.
        "Is this a Swift package that builds on Linux?",
        "This is not a web app that runs on a server.",
        "This is a CLI tool.",
        # Not a statement that it is something.
        "This uses a Java library for parsing CSV files.",
    ],
)
def test_other_sentences_are_no_summary(text: str) -> None:
    assert summary_of(text) == ""


def test_the_first_summary_of_a_session_is_kept_with_its_reply() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Have a look around.")
    session.say("Sure.\n\n- I understand this is a Swift package that renders maps offline.")
    session.say("I can see this is an iOS app that shows the maps.")
    found = project_summary(session.events)
    assert found is not None
    assert found.content == (
        "What this project is, as the assistant summarised it: "
        "a Swift package that renders maps offline."
    )
    assert found.event_ids == (session.events[1].id,)


@pytest.mark.parametrize(
    ("later", "by_user"),
    [
        ("it's not an app, it's our component library that the apps import", True),
        ("Correction: there are no entry points, so it is not a CLI. It's a library.", False),
        ("it's actually a library; cmd/ is just an example", True),
    ],
)
def test_a_summary_the_user_denied_or_the_assistant_took_back_is_not_kept(
    later: str, by_user: bool
) -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Have a look around.")
    session.run("ls", 0, "src\ntests\n")
    session.say("I can see this is a React web app with a Storybook setup.")
    if by_user:
        session.user(later)
    else:
        session.say(later)
    assert project_summary(session.events) is None


def test_a_later_denial_of_another_thing_keeps_the_summary() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Have a look around.")
    session.run("ls", 0, "src\ntests\n")
    session.say("I can see this is a Python CLI tool that converts HAR files.")
    session.user("that's not a bug, the date format is on purpose")
    found = project_summary(session.events)
    assert found is not None and "a Python CLI tool" in found.content


def test_a_summary_in_a_code_block_is_not_kept() -> None:
    session = Session(ROOT, "s1", T0)
    session.say("```\nThis is a Go service that posts ledger entries.\n```")
    assert project_summary(session.events) is None


async def _facts(session: Session) -> dict[str, MemoryCandidate]:
    (episode,) = segment_episodes(session.events, now=T0 + timedelta(days=1))
    return {c.key: c for c in await RulesExtractor().extract(episode, session.events)}


async def test_the_rules_extractor_keeps_the_summary_as_the_overview() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Read the notes and tell me what you see.")
    session.say("I understand this is an R package that fits survival models to trial data.")
    about = (await _facts(session))["about"]
    assert about.type is MemoryType.PROJECT_FACT
    assert about.content == (
        "What this project is, as the assistant summarised it: "
        "an R package that fits survival models to trial data."
    )
    assert "summary" in about.tags


async def test_a_readme_read_in_the_session_wins_over_the_summary() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Have a look at the project.")
    session.read("README.md", "Ledger\n======\n\nDouble-entry bookkeeping for small shops.\n")
    session.say("I understand this is a Java service that books payments for shops.")
    about = (await _facts(session))["about"]
    assert "README.md" in about.content
    assert "summarised" not in about.content


OVERVIEW = (
    "# Ledger - Repository Overview\n\nI've explored the repository.\n\n"
    "## 🏗️ **What is {name}?**\n\n"
    "A small, dependency-free Go service for posting ledger entries with:\n"
    "- **Books**: one per shop\n"
)


def test_the_answer_to_what_the_project_is_under_a_heading_is_kept() -> None:
    session = Session(ROOT, "s1", T0)
    session.say(OVERVIEW.format(name="Ledger CLI"))
    found = project_summary(session.events)
    assert found is not None
    assert found.content == (
        "What this project (Ledger CLI) is, as the assistant summarised it: "
        "a small, dependency-free Go service for posting ledger entries."
    )


@pytest.mark.parametrize("name", ["Turbo Streams", "this project", "it"])
def test_a_heading_asking_about_something_else_gives_no_summary(name: str) -> None:
    session = Session(ROOT, "s1", T0)
    session.say(OVERVIEW.format(name=name))
    assert project_summary(session.events) is None


def test_a_heading_answered_by_something_other_than_a_description_gives_no_summary() -> None:
    session = Session(ROOT, "s1", T0)
    session.say("## What is Ledger?\n\nIt posts entries.\n\nA fix for the rounding bug is next.")
    assert project_summary(session.events) is None


@pytest.mark.parametrize(
    ("reply", "kept"),
    [
        # A bare "This is …" speaks of the project once the reply has named it.
        ("I see the `ledger` project here. This is a Go service that posts entries.", True),
        ("I can see this is a Go service that posts entries.", True),
        # Without it, "this" is whatever was just read.
        ("I read `cmd/post/main.go`. This is a Go service that posts entries.", False),
        ("This is a helper script that the project runs nightly.", False),
        ("The project is a helper module that posts entries to the books.", False),
    ],
)
def test_a_bare_this_is_the_project_only_once_the_reply_names_it(reply: str, kept: bool) -> None:
    session = Session(ROOT, "s1", T0)
    session.say(reply)
    assert (project_summary(session.events) is not None) is kept


README_ABOUT = "What this project (ledger) is and does, per its README.md: Bookkeeping for shops."
SUMMARY = "What this project is, as the assistant summarised it: a Go service that posts entries."


def _stored(content: str, tags: tuple[str, ...], source: MemorySource) -> MemoryItem:
    return MemoryItem(
        id="m_about",
        project_id=ROOT,
        user_id=None,
        scope=Scope.PROJECT,
        type=MemoryType.PROJECT_FACT,
        key="about",
        content=content,
        tags=tags,
        importance=0.7,
        created_at=T0,
        updated_at=T0,
        source=source,
    )


def _candidate(content: str, tags: tuple[str, ...]) -> MemoryCandidate:
    return MemoryCandidate(MemoryType.PROJECT_FACT, "about", content, tags, 0.6)


def test_a_summary_is_not_added_beside_a_kept_overview() -> None:
    kept = _stored(README_ABOUT, ("overview", "about"), MemorySource.RULES)
    decision = decide_update(_candidate(SUMMARY, ("overview", "about", SUMMARY_TAG)), [kept])
    assert decision.action is UpdateAction.NOOP


def test_the_projects_own_description_replaces_a_summary() -> None:
    kept = _stored(SUMMARY, ("overview", "about", SUMMARY_TAG), MemorySource.RULES)
    decision = decide_update(_candidate(README_ABOUT, ("overview", "about")), [kept])
    assert decision.action is UpdateAction.UPDATE_EXISTING
    assert decision.target_id == "m_about"
    assert decision.merged_content == README_ABOUT
    assert decision.dropped_tags == (SUMMARY_TAG,)


async def test_the_description_that_replaces_a_summary_is_stored_without_the_summary_tag(
    store: SqliteStore,
) -> None:
    summary = _candidate(SUMMARY, ("overview", "about", SUMMARY_TAG))
    kept = await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, summary), user_id="u")
    assert kept is not None and SUMMARY_TAG in kept.tags
    decision = decide_update(_candidate(README_ABOUT, ("overview", "about")), [kept])

    described = await store.apply_decision(decision, user_id="u")

    assert described is not None and described.id == kept.id
    assert described.content == README_ABOUT
    assert SUMMARY_TAG not in described.tags
    assert {"overview", "about"} <= set(described.tags)


def test_a_manual_overview_is_left_to_the_usual_rules() -> None:
    kept = _stored(SUMMARY, ("overview", "about", SUMMARY_TAG), MemorySource.MANUAL)
    decision = decide_update(_candidate(README_ABOUT, ("overview", "about")), [kept])
    assert decision.action is not UpdateAction.UPDATE_EXISTING
