"""The checks an approved plan says verify a change, when the session shows no run of them.

A plan the user approved comes back as the session's first message ("Implement the following
plan:", then the plan written in plan mode), and such plans end with how the change is
verified ("## Verification", "1. `bun run test` — all tests pass", "2. `bun run lint`"). Those
commands are how this project checks a change, as the user agreed; a session cut short, a run
whose result the transcript lost or a later session that never runs them still needs them.
The rule, the same in every ecosystem:

- the message opens with the plan hand-off, "Implement the following plan:": the host writes
  it (so it is no message the user typed) from the plan the user approved, in the session
  itself (not a subagent's);
- a section of it is headed as the checks ("Verification", "Validation", "Testing", "Test
  plan", "Checks", `written_checks`' headings), up to the next heading;
- a line of that section holds a code span that is a whole command whose own words give a
  role through the command table (test, lint, format, type-check, build), names no path of one
  machine and no failure;
- a command the session ran with a known outcome says it better (a recipe when it passed,
  nothing when it failed): only those never run, or run without a result, are kept.

One recipe per session, from the last such plan: "The approved plan verifies a change with: to
run the tests, `bun run test`; to lint, `bun run lint`."
"""

from __future__ import annotations

from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.delegated_commands import FAILED, named_commands, names_elsewhere
from squirrel_memory.extractors.written_checks import (
    CHECKS_HEADING,
    HEADING,
    MAX_COMMANDS,
    ORDER,
    WORDING,
)
from squirrel_memory.models import StoredEvent

KEY = "recipe:planned_checks"
#: Below a check the session ran (a recipe) and beside a description's checks (0.45): the
#: plan says how to verify, no run shows it.
IMPORTANCE = 0.45
HAND_OFF = "Implement the following plan:"


@dataclass(frozen=True, slots=True)
class PlannedChecks:
    """The session's recipe from an approved plan's checks: its key, statement and event."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def plan_checks(text: str, project_id: str) -> list[tuple[str, str]]:
    """(purpose, command) for each command a checks section of the plan `text` lists."""
    found: list[tuple[str, str]] = []
    for heading in CHECKS_HEADING.finditer(text):
        rest = text[heading.end() :]
        end = HEADING.search(rest)
        section = rest[: end.start()] if end else rest
        if names_elsewhere(section, project_id):
            continue
        for line in section.splitlines():
            if not FAILED.search(line):
                found += named_commands(line, passed=False)
    return found


def planned_checks(events: list[StoredEvent]) -> PlannedChecks | None:
    """The checks the session's last approved plan lists and no run of the session settled;
    None when there is none."""
    settled = {" ".join(run.command.split()) for run in commands(events) if run.ok is not None}
    chosen: tuple[list[tuple[str, str]], str] | None = None
    for event in events:
        text = event.content.get("text")
        if event.event_type != EventType.USER_MESSAGE or event.sidechain:
            continue
        if not isinstance(text, str) or not text.lstrip().startswith(HAND_OFF):
            continue
        listed = [(p, c) for p, c in plan_checks(text, event.project_id) if c not in settled]
        if listed:
            chosen = (listed, event.id)
    if chosen is None:
        return None
    listed, event_id = chosen
    by_purpose: dict[str, list[str]] = {}
    for purpose, command in list(dict.fromkeys(listed))[:MAX_COMMANDS]:
        by_purpose.setdefault(purpose, []).append(f"`{command}`")
    said = "; ".join(
        f"{WORDING[p]}, {' or '.join(by_purpose[p])}" for p in ORDER if p in by_purpose
    )
    return PlannedChecks(KEY, f"The approved plan verifies a change with: {said}.", (event_id,))
