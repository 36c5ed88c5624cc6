"""The checks the assistant wrote into a pull request's or a commit's description as passing.

A session that ends with a pull request often shows its checks only there: the runs happened
in an earlier part of the session (or in a cell whose output the transcript cut), and the
description the assistant writes says what it ran ("## Validation", "- `mise run lint-fix`
(passed)", "- [x] `go test ./...`"). What it lists as passing is how the project is checked,
as the agent that ran it said. The rule, the same in every ecosystem:

- the text is one the session's own assistant wrote for a description: the words of a command
  it ran (a heredoc, `gh pr create --body …`, `git commit -m …`) or of a file it wrote, in the
  project's folder (a command run in another checkout, or a file written there, says nothing);
- a section of it is headed as the checks ("Validation", "Verification", "Testing", "Tests",
  "Test plan", "Checks", "How it was tested"), and ends at the next heading or the end of the
  text;
- a line of that section holds a code span that is a whole command whose own words give a
  role through the command table (test, lint, format, type-check, build), and the line says it
  passed (passed, passes, green, clean, ✅) or is a ticked box (`- [x]`) and names no failure;
  an unticked box (`- [ ]`) is a plan, never a check that ran;
- a command the session ran itself says it better with its own runs (a recipe when it passed,
  nothing when it failed), and one naming a path of one machine, or a section naming a place
  outside the project, says nothing.

One recipe per session, the last description's checks: "The description the assistant wrote for
its change lists as passing: to run the tests, `mise run test:e2e e2e/cli/test_git_credential`;
to lint, `mise run lint-fix`."
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.delegated_commands import (
    FAILED,
    named_commands,
    names_elsewhere,
)
from squirrel_memory.extractors.elsewhere import outside_root
from squirrel_memory.models import StoredEvent

KEY = "recipe:described_checks"
#: Beside a subagent's report of a passing command (0.45): the assistant's own word that it
#: ran and passed, never seen to run in the transcript.
IMPORTANCE = 0.45
MAX_COMMANDS = 4
WORDING = {
    "test": "to run the tests",
    "lint": "to lint",
    "format": "to format",
    "typecheck": "to type-check",
    "build": "to build",
}
#: The order the checks are said in: the tests first.
ORDER = ("test", "lint", "format", "typecheck", "build")
#: A heading (markdown, or a line ending with a colon) that names the checks a change passed.
CHECKS_HEADING = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]+|\*\*)?(?:validation|verification|verified|testing|tests?|"
    r"test plan|checks?|checks run|how (?:it|this) was tested)\b[^\n]{0,20}?(?:\*\*)?:?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
#: Any other heading: the end of the checks' section.
HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+\S", re.MULTILINE)
#: A ticked box of a list: done. An unticked one is a plan.
_TICKED = re.compile(r"^[ \t]*[-*+][ \t]+\[[xX]\][ \t]+")
_UNTICKED = re.compile(r"^[ \t]*[-*+][ \t]+\[[ ]\]")
#: The end of a heredoc or a quoted argument inside a command: the description ends there.
_TEXT_END = re.compile(r"^(?:'''|\"\"\"|[A-Z_]{2,12}|['\"]\)?|\)['\"]?)[ \t]*$", re.MULTILINE)
#: Scratch folders a description is drafted in before it is posted.
_SCRATCH = re.compile(r"^/(?:(?:private/)?(?:var/)?tmp|var/folders)/")
#: The tools that write a file's text (Claude Code's `Write`, Gemini's `write_file`).
_WRITE_TOOLS = frozenset({"Write", "write_file", "create_file"})


@dataclass(frozen=True, slots=True)
class WrittenChecks:
    """The session's recipe from a description's checks: its key, statement and event."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _written_text(event: StoredEvent) -> str | None:
    """The text of a command the assistant ran, or of a file it wrote, in the project's folder."""
    content: dict[str, Any] = event.content
    if event.sidechain:
        return None
    if event.event_type == EventType.TOOL_CALL and content.get("tool") in _WRITE_TOOLS:
        tool_input = content.get("input")
        if not isinstance(tool_input, dict):
            return None
        path = tool_input.get("file_path") or tool_input.get("path")
        text = tool_input.get("content")
        if not isinstance(path, str) or not isinstance(text, str):
            return None
        if path.startswith("/") and outside_root(path, event.project_id):
            # a description drafted in a scratch file counts; a file of another checkout not
            return text if _SCRATCH.match(path) else None
        return text
    return None


def check_lines(text: str, project_id: str) -> list[tuple[str, str]]:
    """(purpose, command) for each command a checks section of `text` lists as passing."""
    found: list[tuple[str, str]] = []
    for heading in CHECKS_HEADING.finditer(text):
        rest = text[heading.end() :]
        ends = [m.start() for m in (HEADING.search(rest), _TEXT_END.search(rest)) if m]
        section = rest[: min(ends)] if ends else rest
        if names_elsewhere(section, project_id):
            continue
        for line in section.splitlines():
            if _UNTICKED.match(line) or FAILED.search(line):
                continue
            ticked = _TICKED.match(line)
            said = line[ticked.end() :] + " (passed)" if ticked else line
            found += named_commands(said, passed=True)
    return found


def checks_said(listed: list[tuple[str, str]]) -> str:
    """(purpose, command) pairs as one clause per role, the tests first: "to run the tests,
    `a` or `b`; to lint, `c`" (at most `MAX_COMMANDS` commands)."""
    by_purpose: dict[str, list[str]] = {}
    for purpose, command in list(dict.fromkeys(listed))[:MAX_COMMANDS]:
        by_purpose.setdefault(purpose, []).append(f"`{command}`")
    return "; ".join(
        f"{WORDING[p]}, {' or '.join(by_purpose[p])}" for p in ORDER if p in by_purpose
    )


def written_checks(events: list[StoredEvent]) -> WrittenChecks | None:
    """The checks the last description the session's assistant wrote lists as passing and the
    session never ran; None when there is none."""
    runs = commands(events)
    ran = {" ".join(run.command.split()) for run in runs}
    texts: dict[str, str] = {
        run.event_id: run.command
        for run in runs
        if not run.by_user and not (run.cwd and outside_root(run.cwd, events[0].project_id))
    }
    chosen: tuple[list[tuple[str, str]], str] | None = None
    for event in events:
        text = texts.get(event.id) or _written_text(event)
        if not text:
            continue
        listed = [(p, c) for p, c in check_lines(text, event.project_id) if c not in ran]
        if listed:
            chosen = (listed, event.id)
    if chosen is None:
        return None
    listed, event_id = chosen
    said = checks_said(listed)
    return WrittenChecks(
        KEY,
        f"The description the assistant wrote for its change lists as passing: {said}.",
        (event_id,),
    )
