"""Where a custom slash command or skill puts what it produces, as its prompt says and the
session's run of it showed.

A project's own assistant commands often end by writing a document: a plan, a decision record,
a spec, a changelog entry. Their prompt names where, as a path with a slot to fill
(`.claude/plans/[slug].md`, `docs/adr/NNNN-<title>.md`, `specs/{feature}.md`), and a later
session that runs the command again, or looks for what an earlier run produced, needs that
place. The rule is the same for every project and host:

- the user ran a custom command (or the assistant launched a skill) whose text the host showed
  (`command_steps.ran_command`, `command_steps.launched_skill`): the host's own and a plugin's
  namespaced commands are not the project's;
- the text names a path inside the project whose file name holds a slot (`[slug]`, `<name>`,
  `{feature}`): a home, absolute or `../` path is not the project's;
- and the session, before the next command the user ran, wrote a file in that folder with that
  suffix (a write that failed is no write): a template the session did not follow, or a path
  only mentioned, says nothing.

The statement names the command, the path as its text gives it and the file this run wrote
("The command `/idea` saves what it produces as `.claude/plans/[slug].md` (a run wrote
`.claude/plans/weapons-hud-combat.md`).").
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.command_steps import command_runs
from squirrel_memory.extractors.elsewhere import outside_root
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

IMPORTANCE = 0.5
#: Commands kept per episode, at most.
MAX_COMMANDS = 4
#: A path whose file name holds a slot to fill: `dir/[slug].md`, `dir/NNNN-<title>.md`.
_TEMPLATE = re.compile(
    r"(?<![\w./~$-])(?P<folder>(?:\.?[\w@+-][\w.@+-]*/)+)"
    r"(?P<name>[\w.-]*(?:\[[\w -]{1,30}\]|<[\w -]{1,30}>|\{[\w -]{1,30}\})[\w.-]*?)"
    r"(?P<suffix>\.[A-Za-z][\w]{0,9})(?![\w/])"
)


@dataclass(frozen=True, slots=True)
class CommandOutput:
    """Where one command puts what it produces: key, statement and the events that show it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _templates(text: str, project_id: str) -> list[tuple[str, str, str]]:
    """(the path as written, its project folder, its suffix) for each slotted path of `text`."""
    found: list[tuple[str, str, str]] = []
    for match in _TEMPLATE.finditer(text):
        folder = posixpath.normpath(match.group("folder"))
        if folder.startswith("..") or outside_root(folder, project_id):
            continue
        found.append((match.group(0), folder, match.group("suffix")))
    return found


def _written(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(project-relative path, event id) of each file `events` wrote, until the user ran
    another command."""
    found: list[tuple[str, str]] = []
    for event in events:
        if event.event_type == EventType.USER_MESSAGE and event.origin == Origin.SLASH_COMMAND:
            break
        path = event.content.get("path")
        if event.event_type != EventType.CODE_CHANGE or not isinstance(path, str):
            continue
        rel = relative_path(path, event.project_id)
        if rel and not outside_root(path, event.project_id) and not rel.startswith("/"):
            found.append((posixpath.normpath(rel), event.id))
    return found


def command_outputs(events: list[StoredEvent]) -> list[CommandOutput]:
    """Where the custom commands run in `events` put what they produce (module docstring)."""
    found: dict[str, CommandOutput] = {}
    for run in command_runs(events):
        event, command = run.event, run.command
        if command in found:
            continue
        written = _written(events[run.index + 2 :])
        for shown, folder, suffix in _templates(run.text, event.project_id):
            wrote = next(
                (
                    (path, event_id)
                    for path, event_id in written
                    if posixpath.dirname(path) == folder and path.endswith(suffix)
                ),
                None,
            )
            if wrote is None:
                continue
            content = (
                f"The {run.what} `{run.name}` saves what it produces as `{shown}` (a run wrote"
                f" `{wrote[0]}`)."
            )
            key = f"command_output:{key_slug(command) or 'custom'}"
            found[command] = CommandOutput(key, content, wrote[0], (event.id, wrote[1]))
            break
        if len(found) >= MAX_COMMANDS:
            break
    return list(found.values())
