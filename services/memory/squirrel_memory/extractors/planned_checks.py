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
- it names no place outside the project (a plan for a sibling checkout), and the user does
  not drop it later in the session ("scrap this whole plan", "never mind");
- a section of it is headed as the checks and nothing more ("## Verification", "## Testing",
  "## Test plan", "## How to test"; not "## Tests to delete"), up to the next heading;
- a line of that section holds a code span that is a whole command whose own words give a
  role through the command table (test, lint, format, type-check, build), names no path of one
  machine and no failure;
- a command the session ran with a known outcome, as written or with more options
  (`dotnet test --nologo` for `dotnet test`), says it better (a recipe when it passed, nothing
  when it failed): only those never run, or run without a result, are kept.

One recipe per session, from the last such plan: "The approved plan verifies a change with: to
run the tests, `bun run test`; to lint, `bun run lint`."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, split_segments, user_requests
from squirrel_memory.extractors.delegated_commands import FAILED, named_commands, names_elsewhere
from squirrel_memory.extractors.user_plans import DROPPED_PLAN
from squirrel_memory.extractors.written_checks import HEADING, checks_said
from squirrel_memory.models import StoredEvent

KEY = "recipe:planned_checks"
#: A plan's heading that names how the change is verified, and nothing more ("## Verification",
#: "### Test plan", "## How to test"; not "## Tests to delete").
_PLAN_CHECKS = re.compile(
    r"^[ \t]*#{1,6}[ \t]+(?:\d+[.)][ \t]+)?(?:verification|verify|validation|testing|tests?|"
    r"test plan|checks?|how to (?:verify|test)|verification steps)[ \t]*:?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
#: The host's note under a handed-over plan, naming the planning session's transcript file
#: ("If you need specific details from before exiting plan mode …, read the full transcript
#: at: /Users/…/x.jsonl"): a path of the host's, no place the plan is about.
TRANSCRIPT_NOTE = re.compile(r"^.*\bread the full transcript at:.*$", re.IGNORECASE | re.MULTILINE)
_FENCED = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
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
    """(purpose, command) for each command a checks section of the plan `text` lists; none
    when the plan names a place outside the project (a sibling checkout's plan)."""
    found: list[tuple[str, str]] = []
    text = TRANSCRIPT_NOTE.sub("", text)
    if names_elsewhere(_FENCED.sub(" ", text), project_id):  # code's `//` is no place
        return found
    for heading in _PLAN_CHECKS.finditer(text):
        rest = text[heading.end() :]
        end = HEADING.search(rest)
        section = rest[: end.start()] if end else rest
        if names_elsewhere(section, project_id):
            continue
        for line in section.splitlines():
            if not FAILED.search(line):
                found += named_commands(line, passed=False)
    return found


def approved_plans(events: list[StoredEvent]) -> list[tuple[StoredEvent, str]]:
    """Each message of the session itself (not a subagent's) that hands over a plan the user
    approved (it opens with `HAND_OFF`), with its text, in order; not a plan the user drops
    later in the session ("scrap this whole plan", "never mind")."""
    requests = user_requests(events)
    found: list[tuple[StoredEvent, str]] = []
    for event in events:
        text = event.content.get("text")
        if event.event_type != EventType.USER_MESSAGE or event.sidechain:
            continue
        if not isinstance(text, str) or not text.lstrip().startswith(HAND_OFF):
            continue
        if any(e.timestamp > event.timestamp and DROPPED_PLAN.search(t) for e, t in requests):
            continue  # "scrap this whole plan"
        found.append((event, text))
    return found


def _settled(command: str, runs: list[str]) -> bool:
    """Whether a run with a result ran `command`, as written or with more options or
    arguments (`dotnet test --nologo` settles `dotnet test`)."""
    return any(ran == command or ran.startswith(command + " ") for ran in runs)


def planned_checks(events: list[StoredEvent]) -> PlannedChecks | None:
    """The checks the session's last approved plan lists and no run of the session settled;
    None when there is none, or when the user then dropped the plan."""
    ran = [
        " ".join(part.split())
        for run in commands(events)
        if run.ok is not None
        for part in split_segments(run.command)
    ]
    chosen: tuple[list[tuple[str, str]], str] | None = None
    for event, text in approved_plans(events):
        listed = [(p, c) for p, c in plan_checks(text, event.project_id) if not _settled(c, ran)]
        if listed:
            chosen = (listed, event.id)
    if chosen is None:
        return None
    listed, event_id = chosen
    said = checks_said(listed)
    return PlannedChecks(KEY, f"The approved plan verifies a change with: {said}.", (event_id,))
