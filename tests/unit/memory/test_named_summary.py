"""What the project is, as the assistant said it calling the project by its name: in a reply,
in the prompt it gave a subagent, in a subagent's report; with what must not be kept."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.named_summary import named_summary, names_project
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/numwordify"
SAID = (
    "What this project (NumWordify) is, as the assistant summarised it: a .NET library that "
    "converts numbers to words across locales."
)


def _session(root: str = ROOT) -> Session:
    session = Session(root, "s1", T0)
    session.user("Get a review of the release branch.")
    return session


def _delegated(session: Session, prompt: str) -> None:
    session.add(
        "tool_call",
        {"tool": "Agent", "tool_use_id": "a1", "input": {"prompt": prompt, "description": "x"}},
    )


def _summary(session: Session) -> str | None:
    found = named_summary(session.events)
    return found.content if found else None


@pytest.mark.parametrize(
    ("name", "root", "named"),
    [
        ("NumWordify", "/home/dev/numwordify", True),
        ("CodeMie CLI", "/home/dev/codemie-code", True),
        ("claude-code-log", "/Users/dev/claude-code-log", True),
        ("Ledger API", "/home/dev/ledger-api", True),
        ("Ledger", "/home/dev/ledger-api", False),  # only part of the name: maybe another's
        ("Ledger Tools", "/home/dev/my-ledger", False),
        ("Claude Code", "/Users/dev/claude-code-log", False),  # the tool the project is about
        ("Django REST", "/home/dev/django-app", False),  # a framework, not this app
        ("Turbo", "/home/dev/ledger", False),
        ("App", "/home/dev/myapp", False),  # a short common word is no name
        ("The Ledger", "/home/dev/ledger", False),
    ],
)
def test_a_name_is_the_project_s_when_the_folder_carries_it(
    name: str, root: str, named: bool
) -> None:
    assert names_project(name, root) is named


@pytest.mark.parametrize(
    "prompt",
    [
        f"Repo: {ROOT} — NumWordify, a .NET library that converts numbers to words across "
        "locales.\n\nREVIEW SCOPE: the release branch.",
        "NumWordify is a .NET library that converts numbers to words across locales. Review it.",
        "Context:\n- **NumWordify** — a .NET library that converts numbers to words across "
        "locales.",
    ],
)
def test_the_project_described_by_name_to_a_subagent_is_kept(prompt: str) -> None:
    session = _session()
    _delegated(session, prompt)

    assert _summary(session) == SAID


def test_a_subagent_report_and_a_reply_that_name_the_project_are_kept() -> None:
    session = _session()
    session.add(
        "tool_result",
        {
            "tool": "Agent",
            "tool_use_id": "a1",
            "output": "## Summary\n\nNumWordify is a .NET library that converts numbers to "
            "words across locales. Its strength lies in:",
        },
    )
    assert _summary(session) == SAID

    replied = _session()
    replied.say("**NumWordify** is a .NET library that converts numbers to words across locales.")
    assert _summary(replied) == SAID


def test_a_dangling_list_opening_is_left_off() -> None:
    session = Session("/home/dev/codemie-code", "s1", T0)
    session.say("**CodeMie CLI** is a production-grade, enterprise-ready CLI tool with:")

    assert _summary(session) == (
        "What this project (CodeMie CLI) is, as the assistant summarised it: a production-grade, "
        "enterprise-ready CLI tool."
    )


@pytest.mark.parametrize(
    "text",
    [
        # Another project, a dependency or a tool: not this one.
        "Humanizer is a .NET library that converts numbers to words in many languages.",
        "Roslyn, a compiler platform for C#, analyses the code.",
        # A question, a hedge, a plan, a negation: not a statement of what it is.
        "Is NumWordify a .NET library that converts numbers to words?",
        "NumWordify might be a .NET library that converts numbers to words.",
        "NumWordify will be a .NET library that converts numbers to words.",
        "NumWordify is not a library for currencies alone.",
        # What it is is no kind of software.
        "NumWordify is a mess of branches right now.",
        "NumWordify, a known issue with the converter, needs a fix.",
    ],
)
def test_what_is_not_a_statement_of_this_project_is_not_kept(text: str) -> None:
    session = _session()
    _delegated(session, text)
    session.say(text)

    assert _summary(session) is None


def test_the_user_s_words_and_a_file_s_text_are_not_the_assistant_s() -> None:
    session = _session()
    session.user("NumWordify is a .NET library that converts numbers to words across locales.")
    session.add(
        "tool_result",
        {
            "tool": "Read",
            "tool_use_id": "r1",
            "output": "NumWordify is a .NET library that converts numbers to words.",
        },
        (f"{ROOT}/README.md",),
    )

    assert _summary(session) is None


def test_a_report_from_a_subagent_that_looked_elsewhere_is_not_kept() -> None:
    session = _session()
    session.add(
        "tool_call",
        {"tool": "Bash", "tool_use_id": "b1", "input": {"command": "cd /home/dev/other && ls"}},
    )
    session.add(
        "command_run",
        {"command": "cd /home/dev/other && ls", "tool_use_id": "b1", "exit_code": 0, "output": ""},
    )
    session.say("NumWordify is a .NET library that converts numbers to words across locales.")

    assert _summary(session) is None


def test_a_failed_launch_s_message_is_not_a_report() -> None:
    session = _session()
    session.add(
        "tool_result",
        {
            "tool": "Agent",
            "tool_use_id": "a1",
            "output": "NumWordify is a .NET library that converts numbers to words.",
            "is_error": True,
        },
    )

    assert _summary(session) is None


@pytest.mark.parametrize(
    ("root", "reply", "said"),
    [
        (  # behind a label, in the user's voice: the head phrase without it (Rust and Svelte)
            "/Users/sam/quill",
            "**Context**: Quill is a native desktop app (Tauri + Svelte) that opens when an agent "
            "writes a draft, lets me mark it up, then writes a bundle the agent reads.",
            "What this project (Quill) is, as the assistant summarised it: a native desktop app "
            "(Tauri + Svelte).",
        ),
        (  # behind a label, said of no one: kept whole (Elixir)
            "/srv/beacon",
            "Overview: Beacon is a Phoenix web application that schedules status checks.",
            "What this project (Beacon) is, as the assistant summarised it: a Phoenix web "
            "application that schedules status checks.",
        ),
    ],
)
def test_a_labelled_statement_by_name_is_kept(root: str, reply: str, said: str) -> None:
    session = Session(root, "s1", T0)
    session.say(reply)

    assert _summary(session) == said


@pytest.mark.parametrize(
    "reply",
    [
        "Context: Turbo is a build system that runs the tasks.",  # another name behind a label
        "Context: Quill might be a desktop app for drafts.",  # a hedge behind a label
        "Note that Quill is a desktop app for drafts.",  # no label: a sentence that mentions it
        "Context: Quill is a mess that lets me down.",  # no kind of software, cut or not
    ],
)
def test_a_label_does_not_make_other_sentences_a_summary(reply: str) -> None:
    session = Session("/Users/sam/quill", "s1", T0)
    session.say(reply)

    assert _summary(session) is None
