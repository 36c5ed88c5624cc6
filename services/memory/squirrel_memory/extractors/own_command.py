"""What the project is when its sessions show it is a command-line program of its own name.

A session of a command-line tool often names the tool's own commands without saying what the
project is: the user asks "should we reuse `mise token github`?", the assistant proposes "a
hidden `mise token github --git-credential` mode". Where the project's folder bears that name
and the project's own code has a command-line module, the project is that program, and the
overview says so with what shows it ("The project `mise` (its folder's name) is a
command-line program: its sessions show `mise token github`, and its code has a `src/cli/`
folder."). The rule, the same for every ecosystem:

- the command is quoted in a code span of the user's or the assistant's own words, or run as
  a shell command, and its first word is the project folder's name exactly, followed by a
  subcommand (a lower-case word, not an option): a tool that shares the folder's name but
  whose code the project does not hold (a `terraform` folder of configurations running
  `terraform plan`) has no command-line module in the project, and says nothing;
- the project's own code files the session read or listed include one in a folder named
  `cli`, `cmd` or `commands` (not an example's, a docs site's, a dependency's or vendored
  one);
- it is an overview of the last resort, as the folder-name one is (`named_stack`): anything
  that describes the project replaces it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import CommandRun, user_requests
from squirrel_memory.extractors.named_summary import assistant_texts
from squirrel_memory.extractors.stack_evidence import sample_folder
from squirrel_memory.extractors.touched_languages import touched_code
from squirrel_memory.models import StoredEvent

#: Folders that hold a program's command-line module.
_CLI_FOLDERS = frozenset({"cli", "cmd", "commands"})
_CODE_SPAN = re.compile(r"`([^`\n]{3,120})`")
_SUBCOMMAND = re.compile(r"^[a-z][a-z0-9-]*$")


def _commands_named(text: str, name: str) -> list[str]:
    """The code spans of `text` that run `name` with a subcommand."""
    found: list[str] = []
    for span in _CODE_SPAN.findall(text):
        words = span.split()
        if len(words) >= 2 and words[0] == name and _SUBCOMMAND.match(words[1]):
            found.append(span.strip())
    return found


def _shown_commands(
    events: list[StoredEvent], runs: list[CommandRun], name: str
) -> list[tuple[str, str]]:
    """(command, event id) of each command of the program `name` the session shows."""
    found: list[tuple[str, str]] = []
    texts = [(event, text) for event, text in user_requests(events)]
    texts += [
        (event, text)
        for event, text in assistant_texts(events)
        if event.event_type == EventType.ASSISTANT_RESPONSE
    ]
    for event, text in texts:
        found.extend((command, event.id) for command in _commands_named(text, name))
    for run in runs:
        for tokens in run.segments:
            if len(tokens) >= 2 and tokens[0] == name and _SUBCOMMAND.match(tokens[1]):
                found.append((" ".join(tokens[:4]), run.event_id))
    return found


def _cli_folder(seen: Iterable[str]) -> str | None:
    """The first folder named like a command-line module that holds the project's own code."""
    code = touched_code([(path, "") for path in seen], {})
    for path in sorted(p for paths in code.files.values() for p in paths):
        if sample_folder(path):
            continue
        parts = PurePosixPath(path).parts[:-1]
        for index, part in enumerate(parts):
            if part.lower() in _CLI_FOLDERS:
                return "/".join(parts[: index + 1])
    return None


def own_command(
    name: str, events: list[StoredEvent], runs: list[CommandRun], seen: Iterable[str]
) -> tuple[str, tuple[str, ...]] | None:
    """(overview, event ids) saying the project is the command-line program `name` (module
    docstring), or None."""
    folder = _cli_folder(seen)
    if folder is None:
        return None
    shown = _shown_commands(events, runs, name)
    if not shown:
        return None
    command, event_id = shown[0]
    text = (
        f"The project `{name}` (its folder's name) is a command-line program: its sessions show"
        f" `{command}`, and its code has a `{folder}/` folder."
    )
    return text, (event_id,)
