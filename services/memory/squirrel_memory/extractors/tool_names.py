"""Names of tools and runtimes a project could use: what tells a tool's version ("Gradle 8.8",
"Alpine 3.19") from a numbered part of a text ("Section 3.2", "Table 4.1", "Figure 5").

A name is known when the tables name it — a language, a runtime, a dependency, a container
image or a platform of the stack table, a program or tool of the command table (a program
named `<name>-<role>`, `golangci-lint`, names `<name>` too; a task runner or a program named
by a task's word, `just`, `task`, `build`, only when run) — or when the session ran it as a
command. A compound name is known by a known part (`ForgeGradle` by Gradle). Names are
compared by their letters and digits only, case aside (`Node.js`, `nodejs` and `Node` meet).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import PurePosixPath

from squirrel_core.command_table import command_table, task_purpose
from squirrel_memory.extractors.activity import commands
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.stack import stack_names

#: Shortest first part of a dashed program name that names the tool (`golangci` of
#: `golangci-lint`): shorter ones (`pre`, `pip`) are words of their own.
MIN_PREFIX_CHARS = 5
#: The capitalised parts of a compound name (`ForgeGradle` → Forge, Gradle).
_PARTS = re.compile(r"[A-Z][a-z0-9]+|[A-Z]+(?![a-z])")


def normalised(name: str) -> str:
    """`name` by its letters and digits, lower-cased, without a `.js`-style suffix."""
    flat = re.sub(r"[^a-z0-9]", "", name.lower())
    return flat[:-2] if flat.endswith("js") and len(flat) > 4 else flat


@cache
def _table_names() -> frozenset[str]:
    table = command_table()
    programs = {words[0] for words in table.patterns}
    programs |= {use.tool for use in table.patterns.values()}
    programs |= set(table.package_managers)
    # A program named by a plain word (`task`, `just`, `build`): as a capitalised word before
    # a number it is far more often a part of a text; known only when the session ran it.
    programs -= set(table.task_runners)
    programs = {p for p in programs if task_purpose(p) is None}
    found = {normalised(name) for name in (*programs, *stack_names())}
    for program in programs:
        head = program.split("-", 1)[0]
        if "-" in program and len(head) >= MIN_PREFIX_CHARS:
            found.add(normalised(head))
    return frozenset(n for n in found if n)


def ran_programs(events: Iterable[StoredEvent]) -> frozenset[str]:
    """The programs the session's commands ran, by name (`./gradlew` is gradlew)."""
    return frozenset(
        normalised(PurePosixPath(tokens[0]).name)
        for run in commands(list(events))
        for tokens in run.segments
        if tokens
    )


def known_tool(name: str, ran: frozenset[str] = frozenset()) -> bool:
    """Whether `name` names a tool or runtime the project could use (module docstring)."""
    known = _table_names() | ran
    if normalised(name) in known:
        return True
    parts = _PARTS.findall(name)
    return len(parts) > 1 and any(normalised(part) in known for part in parts)
