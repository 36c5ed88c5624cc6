"""The command a prefix program runs: `<wrapper> ls -la` lists, `<wrapper> git status` looks.

A project may ask that every command go through a program of its own choosing (one that trims
output, a sandbox shim, a proxy), which no table knows. Such a prefix is seen by its shape: a
first word that is a bare name no table knows (not a program of `commands.toml`, not a task
runner, a package manager, a launcher or an interpreter, nor one of the caller's own programs),
directly followed by the name of a program that is known. The command is then what follows it.
A known program's own subcommand is its own (`npm ls`, `pnpm ls`, `make ls`, `cargo tree`, `git
ls-files`), and a script named by its path (`./scripts/run ls`) is the project's, not a prefix.

Readers that tell a look or a listing by its program use this, so that a session run behind
such a program is read as it would be without it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

from squirrel_core.command_table import command_table

#: A bare program name (no path, no option, no assignment, no shell syntax).
_BARE_NAME = re.compile(r"^[A-Za-z][\w.+-]*$")
#: Interpreters and shells: given a program's name, they run a script or a file of that name.
_INTERPRETERS = frozenset(
    {"python", "python3", "node", "ruby", "perl", "php", "bash", "sh", "zsh", "fish", "deno"}
    | {"bun", "lua", "Rscript", "elixir", "java", "dotnet", "swift", "go", "cargo"}
)


@cache
def known_programs() -> frozenset[str]:
    """Every program `commands.toml` names: its commands' programs, plain programs, task runners,
    package managers, launchers and loaders, and the interpreters."""
    table = command_table()
    names: set[str] = {pattern[0] for pattern in table.patterns}
    names |= table.plain_programs | table.loaders | table.environment_runners
    names |= set(table.task_runners) | set(table.package_managers) | set(table.wrappers)
    names |= {prefix[0] for prefix in table.runners} | set(table.syntax_checks)
    return frozenset(names | _INTERPRETERS)


def behind_prefix(words: Sequence[str], programs: Iterable[str] = ()) -> tuple[str, ...]:
    """The words of the command a prefix program runs (module docstring), or `words` as they
    are when the first word is no such prefix. `programs` are more programs the caller knows
    (a reader's own list of looks), both as first and as second word."""
    if len(words) < 2:
        return tuple(words)
    first, second = words[0], words[1]
    if not _BARE_NAME.match(first) or not _BARE_NAME.match(second):
        return tuple(words)
    known = known_programs() | frozenset(programs)
    if first in known or second not in known:
        return tuple(words)
    return tuple(words[1:])
