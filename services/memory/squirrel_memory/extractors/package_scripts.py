"""What each package of a workspace runs for a task, as the task runner printed it.

A monorepo's task runner runs one task in every package and prefixes each line of output with
the package and the task; the package manager under it echoes the script it runs:

    @acme/core:build: $ tsc -p tsconfig.json
    @acme/docs:build: $ astro build
    @acme/docs:deploy: $ wrangler pages deploy dist --project-name=acme-docs
    packages/web build$ vite build

Those lines say, package by package, what a task is: the docs site builds with Astro, not the
project; the libraries build with `tsc`. The rule, the same whatever the packages' languages
(a package's script may run `go build` or `cargo build` as well as `tsc`):

- the lines come from the output of a command the session ran (never a file read or a message);
- the output names at least two packages this way (one package's own echo says nothing of a
  workspace);
- a script that only calls a task runner again (`turbo run build`, `nx run …`, `pnpm -r …`,
  `lerna run …`) says nothing of what the task does.

One project fact per task (three at most per episode), each command with the packages that run
it, so a tool is always scoped to the packages that use it ("`build` runs `astro build` in
`@acme/docs`; `tsc -p tsconfig.json` in `@acme/core`, `@acme/cli` and 3 more.").
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "package_scripts:"
IMPORTANCE = 0.45
MIN_PACKAGES = 2
MAX_TASKS = 3
#: Packages named per command before "and N more".
MAX_NAMED = 3
MAX_OUTPUT_CHARS = 400_000

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_PACKAGE = r"(?P<package>@?[A-Za-z0-9][\w.-]*(?:/[A-Za-z0-9][\w.-]*)*)"
#: "@acme/docs:build: $ astro build" (a prefix per package and task, then the script's echo).
_PREFIXED = re.compile(rf"^{_PACKAGE}:(?P<task>[\w.-]+(?::[\w.-]+)?): \$ (?P<command>\S.*)$")
#: "packages/web build$ vite build" (a recursive run's prefix).
_RECURSIVE = re.compile(rf"^{_PACKAGE} (?P<task>[\w:.-]+)\$ (?P<command>\S.*)$")
#: A script that only calls a task runner again.
_RUNNER = re.compile(
    r"^(?:npx |pnpm exec |bunx )?(?:turbo|nx|lerna|moon|rush|wireit)\b|"
    r"^(?:pnpm|npm|yarn|bun)\b.*(?:\s-r\b|--recursive|--workspaces?\b|\bworkspaces? )",
)


@dataclass(frozen=True, slots=True)
class PackageScripts:
    """What one task runs per package: key, the statement, and the runs it was read from."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _scripts(output: str) -> dict[tuple[str, str], str]:
    """(package, task) -> the command its script ran, as `output` prints them."""
    found: dict[tuple[str, str], str] = {}
    for line in _ANSI.sub("", output[:MAX_OUTPUT_CHARS]).splitlines():
        match = _PREFIXED.match(line.strip()) or _RECURSIVE.match(line.strip())
        if match is None:
            continue
        command = " ".join(match.group("command").split())
        if len(command) > 160 or "`" in command or _RUNNER.match(command):
            continue
        found.setdefault((match.group("package"), match.group("task")), command)
    return found


def _said(task: str, by_command: dict[str, list[str]]) -> str:
    parts = []
    for command, packages in sorted(by_command.items(), key=lambda item: (len(item[1]), item[0])):
        named = ", ".join(f"`{p}`" for p in packages[:MAX_NAMED])
        more = len(packages) - MAX_NAMED
        if more > 0:
            named = f"{named} and {more} more"
        elif len(packages) > 1:
            named = ", ".join(f"`{p}`" for p in packages[:-1]) + f" and `{packages[-1]}`"
        parts.append(f"`{command}` in {named}")
    return (
        f"What the workspace's `{task}` task runs, package by package (as the task runner "
        f"printed it): {'; '.join(parts)}."
    )


def package_scripts(events: list[StoredEvent]) -> list[PackageScripts]:
    """Per task (at most `MAX_TASKS`), the command each package's script ran, as the output of
    a command the session ran printed it with the package's and the task's names."""
    seen: dict[tuple[str, str], str] = {}
    sources: dict[str, list[str]] = defaultdict(list)
    for event in events:
        if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
            continue
        output = event.content.get("output")
        if not isinstance(output, str):
            continue
        found = _scripts(output)
        if len({package for package, _ in found}) < MIN_PACKAGES:
            continue
        for (package, task), command in found.items():
            seen.setdefault((package, task), command)
            if event.id not in sources[task]:
                sources[task].append(event.id)
    tasks: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for (package, task), command in seen.items():
        tasks[task][command].append(package)
    kept: list[PackageScripts] = []
    for task in sorted(tasks, key=lambda t: -sum(len(p) for p in tasks[t].values())):
        if len(kept) == MAX_TASKS:
            break
        key = f"{KEY_PREFIX}{key_slug(task, frozenset()) or 'task'}"
        kept.append(PackageScripts(key, _said(task, tasks[task]), tuple(sources[task])))
    return kept
