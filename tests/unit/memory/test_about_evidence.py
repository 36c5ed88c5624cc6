"""What the project is, without a README or manifest: an instruction file's overview, the
user's own words and the assistant's labelled overview after it read files — the same rules in
every ecosystem, with what must and must not be stated."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.user_about import (
    called_statement,
    named_statement,
    opening_statement,
    user_about,
    user_statement,
)
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 6, 3, tzinfo=UTC)
ROOT = "/home/dev/ledger"

#: (ecosystem, language, a code file of it): the rules name none of them.
ECOSYSTEMS = [
    ("python", "Python", "ledger/books.py"),
    ("node", "TypeScript", "src/books.ts"),
    ("go", "Go", "internal/books/post.go"),
    ("rust", "Rust", "src/books.rs"),
    ("ruby", "Ruby", "lib/books.rb"),
    ("elixir", "Elixir", "lib/books.ex"),
    ("jvm", "Kotlin", "src/main/kotlin/Books.kt"),
    ("dotnet", "C#", "src/Books.cs"),
    ("php", "PHP", "src/Books.php"),
    ("swift", "Swift", "Sources/Books.swift"),
    ("cpp", "C++", "src/books.cpp"),
    ("haskell", "Haskell", "src/Books.hs"),
    ("gleam", "Gleam", "src/books.gleam"),
    ("r", "R", "R/books.R"),
    ("emacs", "Emacs Lisp", "lisp/books.el"),
]
IDS = [e[0] for e in ECOSYSTEMS]


async def _about(session: Session) -> list[str]:
    found: list[MemoryCandidate] = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(await RulesExtractor().extract(episode, session.events))
    return [c.content for c in found if c.key == "about"]


def _session() -> Session:
    session = Session(ROOT, "s1", T0)
    return session


def _instructions(language: str) -> str:
    return (
        "# CLAUDE.md\n\nThis file provides guidance to Claude Code (claude.ai/code) when working"
        " with code in this repository.\n\n## Project Overview\n\n"
        f"Ledger is a {language} service that posts double-entry bookkeeping entries for small"
        " shops.\n\n## Commands\n\n- Always run the tests before committing.\n"
    )


@pytest.mark.parametrize(("name", "language", "code"), ECOSYSTEMS, ids=IDS)
async def test_an_instruction_files_overview_says_what_the_project_is(
    name: str, language: str, code: str
) -> None:
    session = _session()
    session.user("Fix the rounding of postings.")
    session.read("CLAUDE.md", _instructions(language))
    session.read(code, "code\n")

    assert await _about(session) == [
        "What this project (ledger) is and does, per its CLAUDE.md: Ledger is a"
        f" {language} service that posts double-entry bookkeeping entries for small shops."
    ]


@pytest.mark.parametrize(
    "file", ["AGENTS.md", "GEMINI.md", ".claude/CLAUDE.md", ".github/copilot-instructions.md"]
)
async def test_other_hosts_instruction_files_count_too(file: str) -> None:
    session = _session()
    session.read(file, "A bookkeeping service for small shops, posting entries nightly.\n")

    (about,) = await _about(session)

    assert about.endswith(
        f"per its {file}: A bookkeeping service for small shops, posting entries nightly."
    )


async def test_a_readme_wins_over_the_instruction_file() -> None:
    session = _session()
    session.read("CLAUDE.md", _instructions("Go"))
    session.read("README.md", "# Ledger\n\nDouble-entry bookkeeping for small shops.\n")

    (about,) = await _about(session)

    assert "per its README.md" in about


async def test_an_instruction_file_of_rules_only_or_in_a_sub_folder_says_nothing() -> None:
    session = _session()
    session.read(
        "CLAUDE.md",
        "# CLAUDE.md\n\nThis file provides guidance to Claude Code when working here.\n\n"
        "- Always run the tests before committing.\n- Never push to main.\n",
    )
    session.read("web/CLAUDE.md", "A React front end for the ledger service.\n")
    session.read("web/.claude/CLAUDE.md", "A React front end for the ledger service.\n")
    session.read("node_modules/x/AGENTS.md", "A dependency's own notes for its agents here.\n")

    assert await _about(session) == []


@pytest.mark.parametrize(("name", "language", "code"), ECOSYSTEMS, ids=IDS)
async def test_the_users_own_statement_of_what_the_repository_is(
    name: str, language: str, code: str
) -> None:
    session = _session()
    session.user(f"this repo is a {language} library for posting ledger entries. add a test")
    session.edit(code, "fixed\n")

    assert await _about(session) == [
        "What this project is, as the user put it: "
        f'"this repo is a {language} library for posting ledger entries".'
    ]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("this is my emacs config", "this is my emacs config"),
        ("This repository is our company website.", "This repository is our company website"),
        ("this is my dotfiles repo", "this is my dotfiles repo"),
        ("this is my test file", ""),
        ("this is my problem", ""),
        ("This is the config", ""),
        ("is this repo a library?", ""),
        ("I think this repo is a library", ""),
        ("if this repo is a monorepo, run the build", ""),
        ("the repo is not a library", ""),
        ("maybe this project is a framework", ""),
        ("this repo is a library I think", ""),
        ("this is my app if you ask me", ""),
        ("this is my config, I think", ""),
        ("this repo is a library, or maybe not", ""),
    ],
)
def test_only_a_plain_statement_about_the_repository_is_the_users_description(
    said: str, kept: str
) -> None:
    assert user_statement(said) == kept


@pytest.mark.parametrize(("name", "language", "code"), ECOSYSTEMS, ids=IDS)
async def test_the_user_naming_the_project_says_what_it_is(
    name: str, language: str, code: str
) -> None:
    session = _session()
    session.user(
        "since Ledger is an open source app that people can self host we need to make sure "
        "we're not forcing everyone onto one payment provider - it needs to be configurable"
    )
    session.edit(code, "fixed\n")

    assert await _about(session) == [
        'What this project is, as the user put it: "ledger is an open source app".'
    ]


@pytest.mark.parametrize(
    ("said", "name", "kept"),
    [
        (
            "forem is an open source project that people deploy",
            "forem",
            "forem is an open source project",
        ),
        (
            "Because my_tool is our internal CLI, keep it quiet",
            "my-tool",
            "my_tool is our internal CLI",
        ),
        ("ktn is a Rust server for newsletters", "ktn", "ktn is a Rust server"),
        ("since react is a library we use hooks", "forem", ""),  # another name
        ("if forem is a library, add docs", "forem", ""),  # a condition
        ("I think forem is a platform", "forem", ""),
        ("is forem a platform?", "forem", ""),
        ("forem is an open source project?", "forem", ""),
        ("forem is not a library", "forem", ""),
        ("forem is probably a library", "forem", ""),
        ("forem is a mess right now", "forem", ""),  # no kind of project
        ("forem is a maybe library", "forem", ""),
        ("ui is a library", "ui", ""),  # a name too short to tell
    ],
)
def test_only_a_plain_statement_naming_the_project_says_what_it_is(
    said: str, name: str, kept: str
) -> None:
    assert named_statement(said, name) == kept


@pytest.mark.parametrize(
    ("said", "name", "kept"),
    [
        (
            "I want to split the token exchange out of this \u201cledger\u201d service, so that "
            "other apps can use it",
            "ledger",
            (
                "service",
                "I want to split the token exchange out of this ledger service, so that other "
                "apps can use it",
            ),
        ),
        (
            "deploy this ledger app to staging.",
            "ledger",
            ("app", "deploy this ledger app to staging"),
        ),
        ("ship this `my_tool` CLI to users", "my-tool", ("cli", "ship this my_tool CLI to users")),
        ("make this ledger app print less", "ledger", None),  # the phrase may go on
        ("this ledger service layer is slow", "ledger", None),  # a part of it
        ("this ledger project needs tests", "ledger", None),  # a bare project
        ("this ledger repo is big", "ledger", None),
        ("is this ledger service down?", "ledger", None),
        ("I think this ledger service leaks", "ledger", None),
        ("if this ledger library grows, split it", "ledger", None),
        ("this other service is slow", "ledger", None),  # another name
        ("move it into the ledger service", "ledger", None),  # no "this"
        ("this ledger mess is slow", "ledger", None),  # no kind of software
        ("this ui library is slow", "ui", None),  # a name too short to tell
        ("this ledger service " + "and more " * 30, "ledger", None),  # too long to quote
    ],
)
def test_only_this_name_and_a_kind_says_what_the_project_is(
    said: str, name: str, kept: tuple[str, str] | None
) -> None:
    assert called_statement(said, name) == kept


@pytest.mark.parametrize(("name", "language", "code"), ECOSYSTEMS[:4], ids=IDS[:4])
async def test_the_user_calling_the_project_by_name_and_kind_says_what_it_is(
    name: str, language: str, code: str
) -> None:
    session = _session()
    session.user(
        "I\u2019m coming to the opinion that I want to split the payment export out of this "
        "\u201cledger\u201d service, so that I can use it for other apps"
    )
    session.edit(code, "fixed\n")

    assert await _about(session) == [
        'What this project is, as the user put it: a service ("I\u2019m coming to the opinion '
        "that I want to split the payment export out of this ledger service, so that I can use "
        'it for other apps").'
    ]


async def test_a_common_word_for_a_folder_is_not_the_projects_name() -> None:
    session = Session("/home/dev/app", "s1", T0)
    session.user("restart this app service, so that the new config loads")

    assert await _about(session) == []


async def test_a_plain_statement_wins_over_a_name_said_in_passing() -> None:
    session = _session()
    session.user("restart this ledger service, please")
    session.user("this is my bookkeeping app, fix the totals")

    assert await _about(session) == [
        'What this project is, as the user put it: "this is my bookkeeping app".'
    ]


async def test_a_readme_wins_over_the_users_words_and_the_user_over_the_assistant() -> None:
    session = _session()
    session.user("this is my bookkeeping app, fix the totals")
    session.read("src/a.py", "code\n")
    session.say("I understand this is a Python service that books payments.")

    assert await _about(session) == [
        'What this project is, as the user put it: "this is my bookkeeping app".'
    ]
    session.read("README.md", "# Ledger\n\nDouble-entry bookkeeping for small shops.\n")

    (about,) = await _about(session)

    assert "per its README.md" in about


@pytest.mark.parametrize(("name", "language", "code"), ECOSYSTEMS, ids=IDS)
async def test_a_labelled_overview_after_reading_files_is_kept(
    name: str, language: str, code: str
) -> None:
    headed = _session()
    headed.user("Explain this codebase to me.")
    headed.read(code, "code\n")
    headed.say(
        f"## Project overview\n\nA {language} service that posts ledger entries for shops.\n\n"
        "## Layout\n\n- `src/`: the code"
    )
    labelled = _session()
    labelled.user("Explain this codebase to me.")
    labelled.read(code, "code\n")
    labelled.say(f"**Purpose**: A {language} tool that reconciles bank statements.")

    assert await _about(headed) == [
        "What this project is, as the assistant summarised it: "
        f"a {language} service that posts ledger entries for shops."
    ]
    assert await _about(labelled) == [
        "What this project is, as the assistant summarised it: "
        f"a {language} tool that reconciles bank statements."
    ]


async def test_a_labelled_overview_before_any_read_or_of_a_plan_is_not_kept() -> None:
    unread = _session()
    unread.user("What could this be?")
    unread.say("**Purpose**: A Go tool that reconciles bank statements.")
    plan = _session()
    plan.read("src/a.go", "code\n")
    plan.say("## Overview\n\nThe plan is to split the parser into two passes.")
    proposal = _session()
    proposal.read("src/a.go", "code\n")
    proposal.say("**Purpose**: refactor the parser so that it streams.")

    assert await _about(unread) == []
    assert await _about(plan) == []
    assert await _about(proposal) == []


@pytest.mark.parametrize("heading", ["## Overview", "## Summary", "### What changed"])
async def test_a_bare_overview_heading_may_head_anything_and_is_not_kept(heading: str) -> None:
    session = _session()
    session.read("src/a.go", "code\n")
    session.say(f"{heading}\n\nA Go tool that the other repository ships for its releases.")

    assert await _about(session) == []


async def test_a_subagents_project_overview_is_not_kept() -> None:
    session = _session()
    session.read("src/a.go", "code\n")
    session.say("## Project overview\n\nA Python service that renders invoices for shops.")
    session.events[-1] = replace(session.events[-1], sidechain=True)

    assert await _about(session) == []


@pytest.mark.parametrize(("name", "language", "code"), ECOSYSTEMS[:3], ids=IDS[:3])
async def test_a_wrapped_line_naming_the_file_drops_its_sentence_not_a_fragment(
    name: str, language: str, code: str
) -> None:
    session = _session()
    session.read(
        "AGENTS.md",
        f"# AGENTS\n\nA bookkeeping toolkit for {language} shops. It ships ledger rules and\n"
        "AGENTS.md templates for new repositories. Entries post nightly and balance\n"
        "before close.\n",
    )

    (about,) = await _about(session)

    assert about == (
        f"What this project (ledger) is and does, per its AGENTS.md: A bookkeeping toolkit for "
        f"{language} shops. Entries post nightly and balance before close."
    )


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        (
            "This is a CLI tool for managing dotfiles across machines.",
            "This is a CLI tool for managing dotfiles across machines",
        ),
        (
            "We're building a Phoenix app for tracking invoices",
            "We're building a Phoenix app for tracking invoices",
        ),
        (
            "I'm working on a Django site for my chess club.",
            "I'm working on a Django site for my chess club",
        ),
        (
            "Context: this is a monorepo with a Next.js frontend in web/ and a Go API in api/.",
            "this is a monorepo with a Next.js frontend in web/ and a Go API in api/",
        ),
        # Not the work: a bug, a feature, a script, a question, a hedge.
        ("This is a bug in the parser.", ""),
        ("I'm working on a new feature for exports.", ""),
        ("I'm building a small script to test the API.", ""),
        ("Is this a Flask app?", ""),
        ("I think this is a Flask app.", ""),
    ],
)
def test_a_message_that_opens_on_what_the_work_is(sentence: str, said: str) -> None:
    assert opening_statement(sentence) == said


def test_only_the_first_sentence_of_a_message_opens_on_the_work() -> None:
    session = Session("/home/dev/shelf", "s1", T0)
    session.user("Fix the login redirect. This is a Flask app, by the way.")
    assert user_about(session.events) is None
    session.user("This is a Flask app for lending books. Fix the login redirect.")
    found = user_about(session.events)
    assert found is not None
    assert found.content == (
        'What this project is, as the user put it: "this is a Flask app for lending books".'
    )
