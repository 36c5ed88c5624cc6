"""A generator's committed output that is a CLI reference (pages under a documentation
`cli`/`commands` folder) says the project has a command-line interface; hand-edited pages, code
in a `cli/` folder, a failed generator and a README read first say nothing of it."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.cli_reference import cli_reference, reference_page
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 2, 14, 0, tzinfo=UTC)
RUST = "/home/dev/keyring"
PY = "/home/dev/tallyho"


def _said(session: Session) -> str | None:
    found = cli_reference(session.events)
    return found.content if found else None


def test_regenerated_cli_pages_committed_say_the_project_has_a_cli() -> None:
    session = Session(RUST, "s1", T0)
    session.user("why is CI failing on the usage bump?")
    session.run("task docs:render", 0, "rendered docs")
    session.run(
        "git add docs/cli/commands.json docs/cli/index.md docs/cli/unlock.md docs/cli/vault.md"
        " && git commit -m 'docs: regenerate cli docs'",
        0,
    )
    assert _said(session) == (
        "This project (keyring) has a command-line interface whose reference pages in"
        " `docs/cli/` are generated: `task docs:render` regenerates them (its commands include"
        " `unlock` and `vault`)."
    )


def test_it_is_the_projects_about_fact_when_nothing_else_says_what_it_is() -> None:
    session = Session(PY, "s1", T0)
    for command in (
        "make gen-docs",
        "git add doc/reference/cli/index.rst doc/reference/cli/export.rst && git commit -m docs",
    ):
        session.run(command)
    about = [c for c in session.extracted() if c.key == "about"]
    assert [c.content for c in about] == [
        "This project (tallyho) has a command-line interface whose reference pages in"
        " `doc/reference/cli/` are generated: `make gen-docs` regenerates them (its"
        " commands include `export`)."
    ]


def test_hand_edited_pages_code_in_a_cli_folder_or_a_failed_generator_say_nothing() -> None:
    edited = Session(RUST, "s1", T0)
    edited.edit_lines("docs/cli/unlock.md", "old", "new")
    edited.run("task docs:render", 0, "")
    edited.run("git add docs/cli/unlock.md && git commit -m docs", 0)
    assert _said(edited) is None
    code = Session(RUST, "s1", T0)
    code.run("cargo run --bin codegen", 0, "")
    code.run("git add src/cli/args.rs && git commit -m 'regen args'", 0)
    assert _said(code) is None
    failed = Session(RUST, "s1", T0)
    failed.run("task docs:render", 1, "error: usage spec not found")
    failed.run("git add docs/cli/unlock.md && git commit -m docs", 0)
    assert _said(failed) is None


def test_only_pages_of_a_documentation_cli_folder_are_reference_pages() -> None:
    assert reference_page("docs/cli/unlock.md") == ("docs/cli", "unlock")
    assert reference_page("website/docs/cli/commands/run.mdx") == (
        "website/docs/cli/commands",
        "run",
    )
    assert reference_page("docs/commands/ban.md") is None
    assert reference_page("src/cli/main.rs") is None
    assert reference_page("docs/cli/commands.json") is None
    assert reference_page("cli/docs/unlock.md") is None
