"""The packages of a monorepo, as the commands of a session address them.

A workspace tool names its members on the command line: `pnpm --filter @acme/web build`,
`npm run test -w api`, `yarn workspace @acme/ui add x`, `cargo test -p parser`, `uv run
--package worker pytest`. Those names, from the commands run in the session and the run lines
of files read whole (a CI workflow's `run:` steps), say the project is a monorepo and what its
members are called. Kept as one project fact when at least two distinct members are named;
a glob or path filter (`./packages/*`, `...[origin/main]`) is not a member's name, nor is the
package a subcommand of the whole dependency graph names (`cargo update -p serde`, `cargo tree
-p tokio`: a dependency as often as a member).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_headers import own_file
from squirrel_memory.extractors.file_reads import file_text, read_output
from squirrel_memory.extractors.wording import sentence
from squirrel_memory.models import StoredEvent

KEY = "workspace:members"
IMPORTANCE = 0.55
MIN_MEMBERS = 2
MAX_MEMBERS = 6
MAX_TEXT_CHARS = 200_000

#: (program, the options whose value names a member) per workspace tool.
_MEMBER_OPTIONS: dict[str, frozenset[str]] = {
    "pnpm": frozenset({"--filter", "-F"}),
    "bun": frozenset({"--filter"}),
    "turbo": frozenset({"--filter"}),
    "npm": frozenset({"--workspace", "-w"}),
    "cargo": frozenset({"--package", "-p"}),
    "uv": frozenset({"--package"}),
}
#: Subcommands whose package option may name any package of the dependency graph, a
#: dependency as well as a member (`cargo update -p serde`, `cargo tree -p tokio`).
_GRAPH_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "cargo": frozenset({"update", "tree", "doc", "clean", "pkgid", "info", "vendor"}),
    "uv": frozenset({"tree"}),
}
_NAME = re.compile(r"^@?[A-Za-z0-9][\w.-]*(?:/[A-Za-z0-9][\w.-]*)?$")
_LINE_COMMAND = re.compile(
    r"(?:^|\s|run:\s*|`)((?:pnpm|bun|turbo|npm|cargo|uv|yarn)\s[^`\n|;&]+)", re.M
)


@dataclass(frozen=True, slots=True)
class Members:
    """The members named, how they were addressed, and the events behind them."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def named_members(command: str) -> list[tuple[str, str]]:
    """(member, how it was addressed) for each workspace member one command line names."""
    found: list[tuple[str, str]] = []
    for match in _LINE_COMMAND.finditer(command):
        words = _words(match.group(1))
        if not words:
            continue
        program = words[0]
        if program == "yarn" and len(words) > 2 and words[1] == "workspace":
            if _NAME.match(words[2]):
                found.append((words[2], "yarn workspace <name>"))
            continue
        first = next((w for w in words[1:] if not w.startswith(("-", "+"))), "")
        if first in _GRAPH_SUBCOMMANDS.get(program, frozenset()):
            continue  # the package named may be a dependency: it says no member
        options = _MEMBER_OPTIONS.get(program, frozenset())
        for index, word in enumerate(words[1:-1], 1):
            option, _, inline = word.partition("=")
            if option not in options:
                continue
            value = inline or words[index + 1]
            if _NAME.match(value) and "*" not in value:
                found.append((value, f"{program} {option} <name>"))
    return found


def _texts(event: StoredEvent) -> list[str]:
    content: dict[str, Any] = event.content
    if event.event_type == EventType.COMMAND_RUN and isinstance(content.get("command"), str):
        return [content["command"]]
    output = read_output(event)
    if output is not None and any(
        own_file(relative_path(p, event.project_id)) for p in event.file_paths
    ):
        return file_text(output[:MAX_TEXT_CHARS]).splitlines()
    return []


def workspace_members(events: list[StoredEvent]) -> Members | None:
    """The monorepo's members the session's commands and read run lines name, or None."""
    members: dict[str, str] = {}
    ids: dict[str, None] = {}
    for event in events:
        for text in _texts(event):
            for name, how in named_members(text):
                members.setdefault(name, how)
                ids.setdefault(event.id, None)
    if len(members) < MIN_MEMBERS:
        return None
    shown = list(members)[:MAX_MEMBERS]
    ways = ", ".join(f"`{w}`" for w in dict.fromkeys(members[n] for n in shown))
    names = ", ".join(f"`{n}`" for n in shown)
    said = sentence(
        f"The project is a monorepo; its members named in sessions: {names} (addressed with {ways})"
    )
    return Members(KEY, said, tuple(ids)) if said else None
