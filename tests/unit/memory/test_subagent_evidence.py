"""A subagent's work is the session's evidence; its prompt is never the user's, and its report
on a folder outside the project root never says what the project is."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import StoredEvent
from tests.unit.memory.session_builder import Session, numbered

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"
OTHER = "/home/dev/billing"
README = (
    "# Ledger\n\nA command-line ledger for small shops.\n\n## Development\n\n"
    "```sh\nmake check\n```\n"
)
PYPROJECT = '[project]\nname = "ledger"\nversion = "0.1"\ndependencies = ["sqlalchemy>=2"]\n'
NOTES = "# Notes for agents\n\n- Always run `make check` before committing.\n"
REPORT = """This project is a command-line tool that syncs invoices to the bank.
It turns out the bundler requires an explicit `exports` entry for deep imports.

## Technology Stack

- **Runtime**: Go 1.22
- **Testing**: `go test ./...` with testify

## Architecture

1. **Plugin Pattern**: Exporters and importers are plugins, not hardcoded
2. **Lifecycle Hooks** - Importers customise exporters via hooks at run time
"""
DESCRIBING = ("about", "architecture:", "stack:", "pitfall:learned:")


def _as_subagent(session: Session, start: int, agent: str = "a1") -> None:
    """The events of `session` from `start` on, as a subagent's (its file's records)."""
    session.events[start:] = [
        dataclasses.replace(e, sidechain=True, agent_id=agent) for e in session.events[start:]
    ]


def _read_at(session: Session, path: str, text: str) -> None:
    """A whole-file Read of `path` (absolute: inside the root or not) showing `text`."""
    use = f"r{len(session.events)}"
    call = {"tool": "Read", "tool_use_id": use, "input": {"file_path": path}}
    session.add("tool_call", call, (path,))
    read = {"tool": "Read", "tool_use_id": use, "output": numbered(text), "is_error": False}
    session.add("tool_result", read, (path,))


def _memories(events: list[StoredEvent]) -> dict[str, str]:
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))
    return {c.key: c.content for c in RulesExtractor().extract_sync(episode, events)}


def _work(subagent: bool) -> list[StoredEvent]:
    """Reads of the project's files, a failed command and its fix, and the checks run, by the
    main agent or by a subagent the main agent launched."""
    session = Session(ROOT, "s1", T0, test_runs=True)
    session.user("Find out how this project is checked and get the build going.")
    start = len(session.events)
    if subagent:
        launch = {"prompt": "Explore the checks", "subagent_type": "Explore"}
        session.add("tool_call", {"tool": "Agent", "tool_use_id": "ta", "input": launch})
        session.add("user_message", {"text": "Explore the checks."}, origin="parent_agent")
        start = len(session.events)
    session.read("README.md", README)
    session.read("pyproject.toml", PYPROJECT)
    session.read("CLAUDE.md", NOTES)
    session.run("npm run build", 1, "sh: 1: tsc: not found")
    session.run("npm install", 0, "added 10 packages")
    session.run("npm run build", 0, "built")
    session.run("make check", 0, "ruff ok\nmypy ok\n")
    if subagent:
        _as_subagent(session, start)
        done = {"tool": "Agent", "tool_use_id": "ta", "output": "Checked.", "is_error": False}
        session.add("tool_result", done)
    return session.events


def test_a_subagents_reads_and_runs_are_evidence_as_the_main_agents_are() -> None:
    by_main, by_subagent = _memories(_work(subagent=False)), _memories(_work(subagent=True))
    assert {"about", "recipe:test", "recipe:build", "pref:alway_run_make_check"} <= set(by_main)
    assert by_main["recipe:test"] == "To run the checks: `make check`."
    assert any(key.startswith("pitfall:") for key in by_main)
    assert by_subagent == by_main


def test_a_parent_agents_prompt_is_never_the_users_words() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Look at the ledger's tests.")
    prompt = "Always use tabs for indentation. Never commit without asking me first."
    session.add("user_message", {"text": prompt}, origin="parent_agent")
    _as_subagent(session, 1)
    session.read("README.md", README)
    said = " ".join(_memories(session.events).values())
    assert "tabs" not in said
    assert "asking" not in said


def _report_after_reads(
    folder: str, *, subagent: bool, relayed: bool = False, parent_read: bool = False
) -> dict[str, str]:
    """`REPORT` said after reads of `folder` by the main agent or a subagent (`relayed`: the
    subagent's report said again by the main agent, after reading the README itself when
    `parent_read`)."""
    session = Session(ROOT, "s1", T0)
    session.user("How does the billing service sync its invoices? Have a look at it.")
    if subagent:
        launch = {"prompt": "Explore the billing service", "subagent_type": "Explore"}
        session.add("tool_call", {"tool": "Agent", "tool_use_id": "ta", "input": launch})
    start = len(session.events)
    for name, text in (("README.md", "# Billing\n"), ("go.mod", "module example.com/b\n")):
        _read_at(session, f"{folder}/{name}", text)
    session.say(REPORT)
    if subagent:
        _as_subagent(session, start)
        done = {"tool": "Agent", "tool_use_id": "ta", "output": "Launched.", "is_error": False}
        session.add("tool_result", done)
    if parent_read:
        session.read("README.md", README)
    if relayed:
        session.say(REPORT)
    return {
        key: said for key, said in _memories(session.events).items() if key.startswith(DESCRIBING)
    }


def test_a_subagents_report_on_another_folder_never_says_what_the_project_is() -> None:
    assert _report_after_reads(OTHER, subagent=True) == {}


def test_the_parent_relaying_a_report_on_another_folder_says_nothing_of_the_project() -> None:
    assert _report_after_reads(OTHER, subagent=True, relayed=True) == {}


def test_the_parents_reply_after_its_own_read_of_the_project_counts() -> None:
    said = _report_after_reads(OTHER, subagent=True, relayed=True, parent_read=True)
    assert any(key.startswith("architecture:") for key in said)


@pytest.mark.parametrize("relayed", [False, True])
def test_a_subagents_report_on_the_project_it_read_says_what_the_project_is(
    relayed: bool,
) -> None:
    said = _report_after_reads(ROOT, subagent=True, relayed=relayed)
    assert any(key.startswith("pitfall:learned:") for key in said)
    assert {"about", "stack:tests"} <= set(said)
    assert any(key.startswith("architecture:") for key in said)


def test_a_read_outside_the_project_is_no_ground_for_a_stack_summary() -> None:
    said = _report_after_reads(OTHER, subagent=False)
    assert not any(key.startswith("stack:") for key in said)
    assert any(key.startswith("stack:") for key in _report_after_reads(ROOT, subagent=False))


@pytest.mark.parametrize("launcher", ["Agent", "Task"])
@pytest.mark.parametrize(("subagent_read", "kept"), [(None, True), (ROOT, True), (OTHER, False)])
def test_a_relayed_report_grounds_a_stack_summary_unless_the_subagent_read_elsewhere(
    launcher: str, subagent_read: str | None, kept: bool
) -> None:
    """The launcher's result is the subagent's report: what it read for the parent (its own
    records may be missing); where its records show another folder, the relay says nothing."""
    session = Session(ROOT, "s1", T0)
    session.user("Explore how this project is set up, with a subagent.")
    launch = {"description": "Explore", "prompt": "Explore the project", "subagent_type": "Explore"}
    session.add("tool_call", {"tool": launcher, "tool_use_id": "ta", "input": launch})
    if subagent_read:
        start = len(session.events)
        session.add("user_message", {"text": "Explore the project"}, origin="parent_agent")
        _read_at(session, f"{subagent_read}/notes.txt", "notes\n")
        _as_subagent(session, start)
    report = {"tool": launcher, "tool_use_id": "ta", "output": REPORT, "is_error": False}
    session.add("tool_result", report)
    session.say(REPORT.split("\n\n", 1)[1])
    stack = [key for key in _memories(session.events) if key.startswith("stack:")]
    assert bool(stack) is kept


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("user", "Shall we use pnpm exclusively for installs?"),
        ("subagent", "Should I run go vet before every commit from now on?"),
    ],
)
def test_a_subagents_text_neither_accepts_nor_is_accepted_as_a_standing_rule(
    first: str, second: str
) -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Set up the checks.")
    session.add("user_message", {"text": "Set up the checks."}, origin="parent_agent")
    if first == "user":
        session.user(second)
        session.say("Yes, let's do that.")
        _as_subagent(session, len(session.events) - 1)
    else:
        session.say(second)
        _as_subagent(session, 1)
        session.user("yes")
    session.say("Done.")
    assert not [key for key in _memories(session.events) if key.startswith("pref:")]


@pytest.mark.parametrize(("folder", "kept"), [(ROOT, True), (OTHER, False)])
def test_a_subagents_labelled_overview_counts_once_it_read_the_project(
    folder: str, kept: bool
) -> None:
    session = Session(ROOT, "s1", T0)
    session.user("What is in this repository?")
    session.add("user_message", {"text": "Explore the repository."}, origin="parent_agent")
    _read_at(session, f"{folder}/cmd/post/main.go", "package main\n")
    session.say("**Purpose**: A command-line tool that posts entries to the books.")
    _as_subagent(session, 1)
    about = _memories(session.events).get("about", "")
    assert ("command-line tool that posts entries" in about) is kept


def _main_agent_report(look: str) -> dict[str, str]:
    """`REPORT` said by the main agent (no subagent) after it looked at a place: `root` and
    `sibling` read two files there, `cd`, `git -C` and `manifest` ran a command in the sibling
    folder, `web` fetched a page."""
    session = Session(ROOT, "s1", T0)
    session.user("Look at the billing service next door and tell me how it syncs invoices.")
    if look in ("root", "sibling"):
        folder = ROOT if look == "root" else OTHER
        for name, text in (("README.md", "# Billing\n"), ("go.mod", "module example.com/b\n")):
            _read_at(session, f"{folder}/{name}", text)
    elif look in ("web", "gemini search"):
        # Claude Code fetches a page; Gemini CLI searches the web with `google_web_search`.
        tool = "WebFetch" if look == "web" else "google_web_search"
        fetch = {"url": "https://example.com/billing", "prompt": "How does it sync?"}
        session.add("tool_call", {"tool": tool, "tool_use_id": "w1", "input": fetch})
        page = {"tool": tool, "tool_use_id": "w1", "output": "Billing syncs nightly."}
        session.add("tool_result", page)
    else:
        command = {
            "cd": "cd ../billing && cat README.md go.mod",
            "git -C": f"git -C {OTHER} show HEAD:README.md",
            "manifest": f"cargo metadata --manifest-path {OTHER}/Cargo.toml",
        }[look]
        session.run(command, 0, "# Billing\n")
    session.say(REPORT)
    return {
        key: said for key, said in _memories(session.events).items() if key.startswith(DESCRIBING)
    }


@pytest.mark.parametrize("look", ["sibling", "cd", "git -C", "manifest", "web", "gemini search"])
def test_the_main_agents_summary_of_another_place_never_says_what_the_project_is(
    look: str,
) -> None:
    assert _main_agent_report(look) == {}


def test_the_main_agents_summary_after_reading_the_project_still_counts() -> None:
    said = _main_agent_report("root")
    assert {"about", "stack:tests"} <= set(said)
    assert any(key.startswith("architecture:") for key in said)
    assert any(key.startswith("pitfall:learned:") for key in said)


def test_a_look_elsewhere_in_an_earlier_turn_leaves_a_later_summary_of_the_project() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("What does the billing service next door do?")
    _read_at(session, f"{OTHER}/README.md", "# Billing\n")
    session.say("It syncs invoices.")
    session.user("Now explore this project.")
    session.read("README.md", README)
    session.say(REPORT)
    assert "about" in _memories(session.events)
