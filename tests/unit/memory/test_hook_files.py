"""Files a hook printed into the session: the text under a line naming each file, up to its last
blank line; the project's root instruction file or README printed that way says what the
project is, unless the session changed it after. A sub-folder's, the home folder's or another
checkout's file, a file cut inside its first paragraph, the hook's own sections and the same
lines typed by the user say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.hook_files import hook_file_texts
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_rules_extractor import Stream

T0 = datetime(2026, 6, 2, 14, 0, tzinfo=UTC)
ROOT = "/home/dev/pondlog"
CLAUDE = (
    "# CLAUDE.md\n\nThis file provides guidance to Claude Code (claude.ai/code) when working with"
    " code in this repository.\n\n## Project Overview\n\npondlog is a water-quality logger for"
    " garden ponds: a Raspberry Pi service in Python that reads sensors and charts them.\n\n"
)


def _printed(body: str, origin: str = "hook") -> list[tuple[str, str]]:
    stream = Stream()
    stream.add("user_message", {"text": body}, origin=origin)
    return hook_file_texts(stream.events[0])


def _about(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.key == "about"]


def _started(body: str, origin: str = "hook") -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": body}, origin=origin)
    session.user("Run the tests.")
    session.run("pytest -q", "3 passed in 0.10s\n")
    return session


def test_each_file_under_a_naming_line_is_its_text_up_to_the_last_blank_line() -> None:
    body = (
        "Session started at: 2026-06-02\n\n--- Content from CLAUDE.md ---\n# Notes\n\nFirst"
        " paragraph.\n\nSecond paragraph cut sho\n==> README.md <==\n# pondlog\n\nA logger.\n\n"
        "--- Recent commits ---\nabc123 fix sensor read\n"
    )
    assert _printed(body) == [
        ("CLAUDE.md", "# Notes\n\nFirst paragraph."),
        ("README.md", "# pondlog\n\nA logger."),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "--- Content from CLAUDE.md ---",
        "=== AGENTS.md ===",
        "==> README.md <==",
        "### Contents of `GEMINI.md` ###",
        "--- File: CLAUDE.md ---",
    ],
)
def test_lines_that_name_a_file_between_rules(line: str) -> None:
    (found,) = _printed(f"{line}\n# x\n\nSome text.\n\n")
    assert found == (line.split()[-2].strip("`"), "# x\n\nSome text.")


@pytest.mark.parametrize(
    ("body", "origin"),
    [
        ("--- Content from CLAUDE.md ---\n# x\n\nSome text.\n\n", "typed"),  # the user's paste
        ("--- Open issues ---\n#41 port it\n\n", "hook"),  # a section of the hook's own
        ("--- Content from CLAUDE.md\n# x\n\nSome text.\n\n", "hook"),  # no closing rule
        ("Content from CLAUDE.md:\n# x\n\nSome text.\n\n", "hook"),  # no rules at all
    ],
)
def test_no_file_is_printed_by_other_speakers_or_other_lines(body: str, origin: str) -> None:
    assert _printed(body, origin) == []


def test_a_root_instruction_file_a_start_hook_printed_says_what_the_project_is() -> None:
    session = _started(f"Git branch: main\n\n--- Content from CLAUDE.md ---\n{CLAUDE}## Arch")
    assert _about(session) == [
        "What this project (pondlog) is and does, per its CLAUDE.md: Pondlog is a water-quality"
        " logger for garden ponds: a Raspberry Pi service in Python that reads sensors and"
        " charts them."
    ]


@pytest.mark.parametrize(
    "body",
    [
        f"--- Content from CLAUDE.md ---\n{CLAUDE}",
        f"==> AGENTS.md <==\n{CLAUDE}",
    ],
)
def test_the_same_text_typed_by_the_user_is_no_read_of_the_file(body: str) -> None:
    # What the user says of the project is theirs (`user_about`), never the file's.
    assert not [s for s in _about(_started(body, origin="typed")) if "per its" in s]


@pytest.mark.parametrize(
    "path",
    ["~/.claude/CLAUDE.md", "services/api/CLAUDE.md", "/home/dev/other/CLAUDE.md", "TODO.md"],
)
def test_another_folders_file_or_a_note_says_nothing(path: str) -> None:
    assert _about(_started(f"--- Content from {path} ---\n{CLAUDE}")) == []


def test_an_overview_cut_inside_its_paragraph_says_nothing() -> None:
    cut = CLAUDE.rstrip()[:-20]
    assert _about(_started(f"--- Content from CLAUDE.md ---\n{cut}")) == []


def test_a_file_the_session_changed_after_the_hook_printed_it_says_nothing() -> None:
    session = _started(f"--- Content from CLAUDE.md ---\n{CLAUDE}")
    session.edit_lines(
        "CLAUDE.md",
        "a Raspberry Pi service in Python",
        "a Raspberry Pi service in Rust",
    )
    assert _about(session) == []


def test_a_file_changed_before_the_hook_printed_it_still_says_it() -> None:
    session = Session(ROOT, "s1", T0)
    session.edit_lines("CLAUDE.md", "old", "new")
    session.add(
        "user_message", {"text": f"--- Content from CLAUDE.md ---\n{CLAUDE}"}, origin="hook"
    )
    session.user("Run the tests.")
    assert len(_about(session)) == 1


def test_a_long_line_of_spaces_is_text_and_read_quickly() -> None:
    body = "--- Content from CLAUDE.md ---\n# x\n\nSome text.\n\n--- a" + " " * 50_000 + "x\n"
    assert _printed(body) == [("CLAUDE.md", "# x\n\nSome text.")]
