"""A check that kept its old output until one command ran, kept as a lesson.

Not every trouble fails. After a change, the session re-runs a check (a tool's `--help`, a
version, a listing) and it prints what it printed before, though every command succeeded;
another way of doing the same thing is tried, and only then the check shows the change. No
command failed, so no rule for failures sees it; the lesson is the command that did the job
where its look-alike did not. It becomes a pitfall when all of these hold, the same for every
ecosystem:

- the same check ran twice and succeeded both times, and its output differs between the two
  runs (numbers aside: a timing or a count is no difference);
- between the two runs exactly one other command ran (a call the user declined never ran), it
  succeeded, and no file was written or edited: that command is what changed the output;
- the last command before the first run of the check was its look-alike (the same program and
  subcommand, `uv tool install --force .` before `uv tool upgrade --reinstall …`), it
  succeeded and is another command: it was tried for the same purpose and did not do it.

The memory: "After `<look-alike>`, `<check>` still printed its old output; `<command>` changed
it." At most `MAX_LESSONS` per episode.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import CommandRun, commands, core_tokens
from squirrel_memory.extractors.file_writes import writes
from squirrel_memory.extractors.shown_commands import shown_command
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

MAX_LESSONS = 2
MAX_COMMAND_CHARS = 90
#: Leading words two commands share to be look-alikes (program and subcommand).
ALIKE_WORDS = 2

_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class StaleCheck:
    """A check that kept its output until one command ran: key, lesson, the three runs."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


def _steps(events: list[StoredEvent]) -> list[CommandRun | None]:
    """The main agent's commands whose outcome is known, in order (a declined call never ran);
    `None` for a file written or edited."""
    runs = {run.event_id: run for run in commands(events) if run.ok is not None}
    steps: list[CommandRun | None] = []
    for event in events:
        if event.sidechain:
            continue
        if event.event_type == EventType.CODE_CHANGE or writes(event):
            steps.append(None)
        elif (run := runs.get(event.id)) is not None and not run.by_user:
            steps.append(run)
    return steps


def _alike(first: str, second: str) -> bool:
    """Whether two different commands run the same program and subcommand."""
    head = tuple(core_tokens(first)[:ALIKE_WORDS])
    return (
        first != second
        and len(head) == ALIKE_WORDS
        and head == tuple(core_tokens(second)[:ALIKE_WORDS])
    )


def _same(first: str, second: str) -> bool:
    return " ".join(_NUMBER.sub("0", first).split()) == " ".join(_NUMBER.sub("0", second).split())


def stale_checks(events: list[StoredEvent]) -> list[StaleCheck]:
    """The checks of `events` (in order) that kept their output until one command ran."""
    steps = _steps(events)
    found: list[StaleCheck] = []
    for index in range(1, len(steps) - 2):
        tried, check, done, again = steps[index - 1 : index + 3]
        if tried is None or check is None or done is None or again is None:
            continue
        if again.command != check.command or not (check.ok and again.ok and done.ok):
            continue
        if done.command == check.command or _same(check.output, again.output):
            continue
        if not (tried.ok and _alike(tried.command, done.command)):
            continue
        shown = [shown_command(r.command, MAX_COMMAND_CHARS) for r in (tried, check, done)]
        content = (
            f"After `{shown[0]}`, `{shown[1]}` still printed its old output; `{shown[2]}` "
            "changed it."
        )
        key = f"pitfall:stale:{key_slug(done.command) or 'check'}"
        if any(f.key == key for f in found):
            continue
        ids = (tried.event_id, check.event_id, done.event_id, again.event_id)
        found.append(StaleCheck(key, content, ids))
        if len(found) == MAX_LESSONS:
            break
    return found
