"""What a custom slash command the user ran does, from the steps its prompt lists.

A project's own assistant commands (`/q-status`, `/deploy-check` …) are workflows written
down once and run by name: the prompt the command expands to says, step by step, what it
does. When the user runs one and its expansion lists at least two numbered steps, the command
and its steps are kept as a recipe ("`/q-status` (Status Check) runs, in order: call
`quint_status` to get the current phase; …"). The assistant tool's own built-in commands are
not the project's and are skipped, as are expansions without numbered steps (a bare prompt
says nothing about the order of work).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.wording import key_slug, strip_markdown
from squirrel_memory.models import StoredEvent

#: Importance of a command's steps: a workflow of the project, run by name.
IMPORTANCE = 0.45
MIN_STEPS = 2
#: A statement longer than this is a prompt for the assistant, not a workflow to remember.
MAX_CHARS = 360
MAX_STEPS = 6
MAX_STEP_CHARS = 160
MAX_COMMANDS = 4

#: Commands of the assistant tools themselves, which expand to the tool's own prompts.
_BUILT_IN = frozenset(
    {"init", "review", "pr-comments", "security-review", "compact", "statusline", "memory"}
    | {"install-github-app", "clear", "help", "config", "cost", "doctor", "login", "logout"}
    | {"model", "permissions", "resume", "status", "terminal-setup", "vim", "exit", "agents"}
    | {"context", "export", "hooks", "ide", "mcp", "plugin", "rewind", "todos", "usage"}
)
_COMMAND = re.compile(r"^/[\w:.-]{2,60}$")
_STEP = re.compile(r"^(\d{1,2})[.)]\s+(\S.*)$")
_TITLE = re.compile(r"^#{1,3}\s+(.+?)\s*$")


@dataclass(frozen=True, slots=True)
class CommandSteps:
    """One command's steps: key, statement and the events that ran it."""

    key: str
    content: str
    command: str
    event_ids: tuple[str, ...]


def _steps(prompt: str) -> tuple[str, list[str]]:
    """(the prompt's title, its top-level numbered steps as clauses)."""
    title = ""
    steps: list[str] = []
    for line in prompt.splitlines():
        heading = _TITLE.match(line)
        if heading and not title:
            title = " ".join(strip_markdown(heading.group(1)).split())
            continue
        match = _STEP.match(line)
        if match is None or int(match.group(1)) != len(steps) + 1:
            continue
        text = " ".join(strip_markdown(match.group(2)).split()).rstrip(":;,. ")
        if not text or text.count("`") % 2 or len(text) > MAX_STEP_CHARS:
            return title, []  # a step cut or too long to state: the list is not kept
        steps.append(text[:1].lower() + text[1:] if text[1:2].islower() else text)
    return title, steps


def command_steps(events: list[StoredEvent]) -> list[CommandSteps]:
    """The custom commands the user ran in `events` whose prompts list their steps."""
    found: dict[str, CommandSteps] = {}
    for i, event in enumerate(events[:-1]):
        content = event.content
        command = str(content.get("command") or "").strip()
        if (
            event.event_type != EventType.USER_MESSAGE
            or event.origin != Origin.SLASH_COMMAND
            or not _COMMAND.match(command)
            or command.lstrip("/") in _BUILT_IN
            or command in found
        ):
            continue
        expansion = events[i + 1]
        text = expansion.content.get("text")
        if (
            expansion.event_type != EventType.USER_MESSAGE
            or expansion.origin != Origin.HARNESS
            or not isinstance(text, str)
        ):
            continue
        title, steps = _steps(text)
        if len(steps) < MIN_STEPS:
            continue
        named = f"`{command}` ({title})" if title else f"`{command}`"
        shown = "; ".join(steps[:MAX_STEPS])
        statement = f"The command {named} runs, in order: {shown}."
        if len(statement) > MAX_CHARS:
            continue
        key = f"command:{key_slug(command) or 'custom'}"
        found[command] = CommandSteps(key, statement, command, (event.id, expansion.id))
        if len(found) >= MAX_COMMANDS:
            break
    return list(found.values())
