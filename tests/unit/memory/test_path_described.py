"""What the project is, as described right beside its root path (a subagent's prompt, a reply,
the user's message), in made-up projects of several ecosystems; and where nothing is said."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.path_described import described, path_described
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
GO = "/home/dev/tally"
RAILS = "/Users/ana/src/ledger"
FORGE = "C:\\Users\\dan\\GitHub\\bloques"


def _delegated(session: Session, prompt: str) -> None:
    session.add(
        "tool_call",
        {"tool": "Agent", "tool_use_id": "a1", "input": {"prompt": prompt, "description": "x"}},
    )


def _said(root: str, prompt: str) -> str | None:
    session = Session(root, "s1", T0)
    session.user("Find out how the build packages the release.")
    _delegated(session, prompt)
    found = path_described(session.events)
    return found.content if found else None


@pytest.mark.parametrize(
    ("root", "prompt", "expected"),
    [
        (
            GO,
            f"Repo: {GO} (a Go CLI that reconciles bank exports). List the commands.",
            "What this project (tally) is, as described beside its path: a Go CLI that "
            "reconciles bank exports.",
        ),
        (
            RAILS,
            f"You work in `{RAILS}`, a Rails app for small-shop invoices. Read the routes.",
            "What this project (ledger) is, as described beside its path: a Rails app for "
            "small-shop invoices.",
        ),
        (
            FORGE,
            f"Repo: {FORGE} (mod Minecraft Forge, multi-módulo Gradle). Reporta los jars.",
            "What this project (bloques) is, as described beside its path: mod Minecraft "
            "Forge, multi-módulo Gradle.",
        ),
        (
            RAILS,
            f"Context: {RAILS} — invoicing service for small shops. Check the mailers.",
            "What this project (ledger) is, as described beside its path: invoicing service "
            "for small shops.",
        ),
        (
            GO,
            f"Repo: {GO} — Tally, a Go CLI that reconciles bank exports. Review the branch.",
            "What this project (tally) is, as described beside its path: a Go CLI that "
            "reconciles bank exports.",
        ),
    ],
)
def test_a_description_beside_the_project_s_root_path_is_kept(
    root: str, prompt: str, expected: str
) -> None:
    assert _said(root, prompt) == expected


@pytest.mark.parametrize(
    ("root", "prompt"),
    [
        # A dependency's folder, a docs site's, a file: inside the project but not it.
        (GO, f"Read {GO}/vendor/github.com/spf13/cobra (a CLI library) for the flag parsing."),
        (RAILS, f"The docs live in {RAILS}/docs (a Docusaurus site)."),
        (GO, f"See {GO}/cmd/tally/main.go (the CLI's entry point)."),
        # Another checkout whose name starts the same.
        (GO, f"Compare with {GO}-legacy (a Go CLI that reconciles bank exports)."),
        # The folder's state, not what it is.
        (RAILS, f"In {RAILS} (main branch), research the mailers. No code changes."),
        (GO, f"Repo: {GO} (read-only checkout)."),
        # A library the project uses, described after the path.
        (GO, f"Repo: {GO} (uses cobra, a CLI library)."),
        # A plan, a question, a negation.
        (GO, f"Repo: {GO} (will be a Go CLI for bank exports)."),
        (RAILS, f"Is {RAILS} (a Rails app?) the right place?"),
        (RAILS, f"Repo: {RAILS} (not a Rails app any more)."),
        # "the project" names no kind of software.
        (GO, f"Repo: {GO} (the project root)."),
    ],
)
def test_what_is_not_a_description_of_the_project_says_nothing(root: str, prompt: str) -> None:
    assert _said(root, prompt) is None


def test_the_user_s_own_words_beside_the_path_count() -> None:
    session = Session(RAILS, "s1", T0)
    session.user(f"I keep {RAILS} (a Rails app for small-shop invoices) on Ruby 3.3. Fix the CSV.")

    found = path_described(session.events)

    assert found is not None
    assert found.content.endswith("a Rails app for small-shop invoices.")


def test_the_description_is_the_project_s_overview_fact() -> None:
    session = Session(GO, "s1", T0)
    session.user("Find out how the build packages the release.")
    _delegated(session, f"Repo: {GO} (a Go CLI that reconciles bank exports). List the commands.")
    session.say("Done.")

    facts = [c for c in session.extracted() if "described beside its path" in c.content]

    assert [c.content for c in facts] == [
        "What this project (tally) is, as described beside its path: a Go CLI that reconciles "
        "bank exports."
    ]


def test_a_root_in_the_home_folder_may_be_written_from_tilde() -> None:
    assert described("Repo: ~/src/ledger (a Rails app for invoices).", RAILS) == (
        "a Rails app for invoices"
    )
    assert described("Repo: ~/src/ledger-old (a Rails app for invoices).", RAILS) == ""
    assert described("Repo: ~/ledger (a Rails app for invoices).", RAILS) == ""


def test_described_needs_the_root_itself() -> None:
    assert described(f"{GO}/ (a Go CLI)", GO) == ""
    assert described(f"{GO} (a Go CLI)", GO + "/") == "a Go CLI"


ELIXIR = "/home/mo/code/beacon"


@pytest.mark.parametrize(
    ("root", "prompt", "expected"),
    [
        (
            GO,
            "You sweep the `tally` repository — a Go CLI that reconciles bank exports.",
            "What this project (tally) is, as described beside its repository's name: a Go CLI "
            "that reconciles bank exports.",
        ),
        (
            RAILS,
            "Work in the ledger repo, a Rails app for small-shop invoices. Fix the CSV export.",
            "What this project (ledger) is, as described beside its repository's name: a Rails "
            "app for small-shop invoices.",
        ),
        (
            ELIXIR,
            "Review the Beacon project (an Elixir service that pages the on-call engineer).",
            "What this project (beacon) is, as described beside its repository's name: an "
            "Elixir service that pages the on-call engineer.",
        ),
    ],
)
def test_a_description_beside_the_repository_s_own_name_is_kept(
    root: str, prompt: str, expected: str
) -> None:
    assert _said(root, prompt) == expected


@pytest.mark.parametrize(
    ("root", "prompt"),
    [
        # Another repository: a library the project uses, a tool, a fork of another name.
        (GO, "Read the `cobra` repository — a Go library for CLI flags — for the parsing."),
        (ELIXIR, "Compare with the phoenix repo, an Elixir web framework."),
        (GO, "Port it from the tally-legacy repository — a Go CLI for bank exports."),
        # The name alone (no "repository") may be a package or a binary of that name.
        (GO, "Run tally — a Go CLI that reconciles bank exports — on the sample."),
        # The repository's state, a plan, a negation.
        (RAILS, "The ledger repo (main branch) has the fix."),
        (RAILS, "The ledger repo, not a Rails app any more, moved to Hanami."),
        (ELIXIR, "The beacon project — will be an Elixir service for paging."),
    ],
)
def test_a_name_that_is_not_the_repository_s_own_says_nothing(root: str, prompt: str) -> None:
    assert _said(root, prompt) is None
