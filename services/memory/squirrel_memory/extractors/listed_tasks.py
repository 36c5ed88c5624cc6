"""The project's tasks, as its task runner listed them in a log or an output the session saw.

A task runner asked for a task it does not know, or for its list, prints the project's tasks:
`Available tasks:` (pixi, Deno, go-task's `task --list`) or `Available recipes:` (`just
--list`), one indented name a line. Seen in a CI log the user pasted or in a command's output,
that list names the project's tasks even when no task file was read: one fact, "The project's
pixi tasks (as pixi listed them): `mkeon`, `setupeon`, `srvdocs`.", with the runner when the
text around the list names one. A list of fewer than two names, or lines that are not bare
task names, say nothing.
Only the user's own words and what commands printed in the project count: the session's tools,
and a command the user typed into the assistant (`!just --list`, whose output the host echoes in
`<bash-stdout>`). Not a parent agent's prompt to a subagent, a subagent's report or a
notification, nor the output of a command run in another folder, a read outside the project
root or a web page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_core.subagent_tools import SUBAGENT_TOOLS
from squirrel_memory.extractors.activity import typed_command
from squirrel_memory.extractors.elsewhere import ran_elsewhere, seen_elsewhere
from squirrel_memory.extractors.evidence.typed_runs import typed_output
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "tasks:listed"
#: Importance of the fact: the runner's own list, not a command seen to pass.
IMPORTANCE = 0.5
MIN_TASKS = 2
MAX_TASKS = 20
#: How far around the list a runner's name is looked for (characters).
_NEAR = 400

_HEADER = re.compile(
    r"^[ \t]*(?:task:[ \t]*)?Available (?P<what>tasks|recipes)(?: for this project)?:[ \t]*\r?$",
    re.MULTILINE,
)
#: One listed task: an indented or bulleted name, maybe its description after it (behind a
#: `#`, a colon or a wide gap: one space and more words is a sentence, not a task).
_ITEM = re.compile(
    r"^(?P<lead>\s+(?:[*-]\s*)?|[*-]\s+)(?P<name>[A-Za-z][\w.\-]*(?::[\w.\-]+)*)"
    r"(?:\s*#.*|:\s.*|:|\s{2,}\S.*)?\s*$"
)
#: Runners that print such a list, by the word that names them near it.
_RUNNERS = re.compile(r"\b(pixi|deno|just|mise|go-task)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ListedTasks:
    """The tasks a runner listed: key, sentence and the event whose text held the list."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _typed_outputs(events: list[StoredEvent]) -> dict[str, str]:
    """Event id → what a command the user typed printed, for the host's message echoing it (the
    next event of its session), unless the command worked in another folder."""
    found: dict[str, str] = {}
    last: dict[str | None, str] = {}  # session → the command typed in its latest event
    for event in events:
        command = last.pop(event.session_id, None)
        typed = typed_command(event)
        if typed is not None:
            last[event.session_id] = typed
            continue
        output = typed_output(event)
        if output and command is not None and not ran_elsewhere(command, event.project_id):
            found[event.id] = output
    return found


def _texts(event: StoredEvent, typed: dict[str, str]) -> list[str]:
    if event.id in typed:
        return [typed[event.id]]
    content = event.content
    if event.event_type == EventType.USER_MESSAGE:
        if event.sidechain or not is_user_voice(event.origin):
            return []  # a parent agent's prompt, a notification, the host's text
        keys: tuple[str, ...] = ("text",)
    elif event.event_type == EventType.TOOL_RESULT and content.get("tool") in SUBAGENT_TOOLS:
        return []
    elif event.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN, EventType.TOOL_RESULT):
        keys = ("output", "stdout", "stderr")
    else:
        return []
    return [content[k] for k in keys if isinstance(content.get(k), str)]


def _runner(text: str, start: int, end: int, what: str) -> str:
    if what == "recipes":
        return "just"
    if text[start:end].lstrip().startswith("task:"):
        return "task"
    near = list(_RUNNERS.finditer(text[max(0, start - _NEAR) : end + _NEAR]))
    if not near:
        return ""
    mid = min(start, _NEAR)
    closest = min(near, key=lambda m: abs(m.start() - mid))
    return closest.group(1).lower().replace("go-task", "task")


def listed_in(text: str) -> list[tuple[str, list[str]]]:
    """(runner or "", task names) for each task list a runner printed in `text`."""
    found: list[tuple[str, list[str]]] = []
    for header in _HEADER.finditer(text):
        names: list[str] = []
        end = header.end()
        bulleted: bool | None = None
        for line in text[header.end() + 1 :].splitlines():
            item = _ITEM.match(line)
            bullet = item is not None and item.group("lead").strip() in ("*", "-")
            if bulleted and not bullet and line.startswith((" ", "\t")):
                end += len(line) + 1  # a bulleted task's command, indented under it
                continue
            if item is None or (bulleted is not None and bullet != bulleted):
                break
            bulleted = bullet
            names.append(item.group("name"))
            end += len(line) + 1
        names = list(dict.fromkeys(n for n in names if not n.startswith("_")))
        if len(names) >= MIN_TASKS:
            found.append((_runner(text, header.start(), end, header.group("what")), names))
    return found


def listed_tasks(events: list[StoredEvent]) -> list[ListedTasks]:
    """One fact per runner whose task list the session saw (the last list wins)."""
    found: dict[str, ListedTasks] = {}
    elsewhere = seen_elsewhere(events)
    typed = _typed_outputs(events)
    for event in events:
        if event.id in elsewhere:
            continue
        for text in _texts(event, typed):
            for runner, names in listed_in(text):
                shown = ", ".join(f"`{n}`" for n in names[:MAX_TASKS])
                if runner:
                    content = f"The project's {runner} tasks (as {runner} listed them): {shown}."
                else:
                    content = f"The project's tasks (as its task runner listed them): {shown}."
                key = f"{KEY_PREFIX}:{runner or 'runner'}"
                found[key] = ListedTasks(key, content, (event.id,))
    return list(found.values())
