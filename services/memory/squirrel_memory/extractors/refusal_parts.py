"""What every rule of refusals for want of access (`denied_access`, `refused_pushes`,
`refused_keys`) reads and gives: the refusal as found, the output lines read for it, the failed
command as shown (an address's credentials left out), and a `git` command's subcommand."""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.lessons import clipped

MAX_COMMAND_CHARS = 120
MAX_LINE_CHARS = 160
#: How many lines of an output are read for a refusal's line.
MAX_LINES = 80
#: Credentials written into an address (`https://user:token@host/`): never shown.
_USERINFO = re.compile(r"\b(https?://)[^/\s@]+@")
#: A command that names a refusal's own words (a search for them) is not refused.
NAMES_WORDS = re.compile(r"permission denied|eacces|terminal is required|protected", re.I)


@dataclass(frozen=True, slots=True)
class DeniedAccess:
    """A refusal for want of access: key, statement and the failed run's event."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


def output_lines(output: str) -> list[str]:
    """The first `MAX_LINES` lines of an output, stripped."""
    return [line.strip() for line in output.splitlines()[:MAX_LINES]]


def git_verb(tokens: list[str]) -> str:
    """The subcommand of a `git` command (`git -C <dir> push` too), else ""."""
    if tokens[:1] != ["git"]:
        return ""
    rest = tokens[1:]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
    return rest[0] if rest else ""


def shown_command(run: CommandRun) -> str:
    """The command as run, on one line, without an address's credentials ("" when too long)."""
    return clipped(" ".join(_USERINFO.sub(r"\1", run.command).split()), MAX_COMMAND_CHARS)
