"""The command table's data: `commands.toml` read once, the purposes it speaks of, and the
`CommandUse` it answers with (tool, purpose, ecosystem).

Reading a shell line against it is `squirrel_core.commands`; reading a program the table does
not know by its own words is `squirrel_core.command_roles`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

PURPOSES = (
    "test",
    "lint",
    "format",
    "typecheck",
    "build",
    "migrate",
    "run",
    "install",
    "docs",
    "release",
    "deploy",
)
#: Purpose → the habit category a tool with that purpose belongs to.
CATEGORIES = {
    "test": "test_runner",
    "lint": "linter",
    "format": "formatter",
    "typecheck": "type_checker",
    "build": "build_tool",
    "migrate": "migration_tool",
    "run": "server",
    "install": "package_manager",
}


@dataclass(frozen=True, slots=True)
class CommandUse:
    """What one simple command is: the tool, its purpose, and the ecosystem it belongs to.

    `task` is set when the command runs a project-defined task (`make test`, `npm run lint`,
    a mix alias); `tool` is then the task runner.
    """

    tool: str
    purpose: str
    ecosystem: str
    task: str | None = None

    @property
    def category(self) -> str:
        """The habit category (`test_runner`, `linter`, …) of this use."""
        return CATEGORIES.get(self.purpose, "tool")


@dataclass(frozen=True, slots=True)
class CommandTable:
    """`commands.toml` read: command patterns, task runners and names, launchers, options."""

    patterns: dict[tuple[str, ...], CommandUse]
    task_runners: dict[str, str]
    task_names: dict[str, str]
    plain_programs: frozenset[str]
    runners: tuple[tuple[str, ...], ...]
    wrappers: dict[str, int]
    #: Each wrapper's options whose value is the next word (`nice -n 10`).
    wrapper_options: dict[str, frozenset[str]]
    package_managers: dict[str, str]
    #: Interpreters' flags that only check a file's syntax (`php -l`), with their ecosystem.
    syntax_checks: dict[str, tuple[frozenset[str], str]] = field(default_factory=dict)
    #: Environment managers whose `run` starts a command in the project's environment (`uv`).
    environment_runners: frozenset[str] = frozenset()
    #: Options of such a `run` whose value comes next (`uv run --extra test pytest`).
    environment_options: frozenset[str] = frozenset()
    #: Programs that load variables and run the command after `--` (`dotenv -e .env --`).
    loaders: frozenset[str] = frozenset()
    #: Package managers' options whose value picks the package or folder (`pnpm --filter web`).
    package_options: dict[str, frozenset[str]] = field(default_factory=dict)
    #: Session runners' options naming the sessions to run (`nox -s lint`, `tox -e py312`).
    session_options: dict[str, frozenset[str]] = field(default_factory=dict)


@cache
def command_table() -> CommandTable:
    """The table shipped with this package, read once."""
    raw = tomllib.loads(resources.files("squirrel_core").joinpath("commands.toml").read_text())
    return parse_table(raw)


def parse_table(raw: dict[str, Any]) -> CommandTable:
    """The table from its TOML form; an unknown purpose is a ValueError."""
    patterns: dict[tuple[str, ...], CommandUse] = {}
    for ecosystem, entries in raw["commands"].items():
        for pattern, value in entries.items():
            spec = value if isinstance(value, dict) else {"purpose": value}
            purpose = spec["purpose"]
            if purpose not in PURPOSES:
                raise ValueError(f"commands.toml: unknown purpose {purpose!r} for {pattern!r}")
            words = tuple(pattern.split())
            patterns[words] = CommandUse(spec.get("tool", pattern), purpose, ecosystem)
    for name, purpose in raw["task_names"].items():
        if purpose not in PURPOSES:
            raise ValueError(f"commands.toml: unknown purpose {purpose!r} for task {name!r}")
    return CommandTable(
        patterns=patterns,
        task_runners=dict(raw["task_runners"]),
        task_names=dict(raw["task_names"]),
        plain_programs=frozenset(raw.get("plain_programs", {}).get("names", ())),
        runners=tuple(tuple(p.split()) for p in raw["runners"]["prefixes"]),
        wrappers={k: int(v) for k, v in raw["runners"]["wrappers"].items()},
        wrapper_options={
            k: frozenset(v) for k, v in raw["runners"].get("wrapper_options", {}).items()
        },
        package_managers=dict(raw["package_managers"]),
        syntax_checks={
            program: (frozenset(spec["flags"]), spec["ecosystem"])
            for program, spec in raw.get("syntax_checks", {}).items()
        },
        environment_runners=frozenset(raw["runners"].get("environments", ())),
        environment_options=frozenset(raw["runners"].get("environment_options", ())),
        loaders=frozenset(raw["runners"].get("loaders", ())),
        package_options=_option_sets(raw.get("package_options", {})),
        session_options=_option_sets(raw.get("session_options", {})),
    )


def _option_sets(raw: dict[str, list[str]]) -> dict[str, frozenset[str]]:
    return {program: frozenset(options) for program, options in raw.items()}


def ecosystems() -> list[str]:
    """Every ecosystem the table names, sorted."""
    return sorted({use.ecosystem for use in command_table().patterns.values()})


def known_tools() -> dict[str, str]:
    """Every tool name the table knows, lower-cased, mapped to its habit category."""
    names: dict[str, str] = {}
    for use in command_table().patterns.values():
        names.setdefault(use.tool.lower(), use.category)
    for name in command_table().package_managers:
        names.setdefault(name, "package_manager")
    return names


#: Purposes that publish, and the words of a task that only rehearses them (`deploy:dry`).
_PUBLISHING = frozenset({"release", "deploy"})
_REHEARSALS = frozenset({"dry", "dryrun", "dry-run", "preview", "snapshot", "rehearsal", "plan"})
#: Task-name heads that say what a task works on, not what it does (`db:…`): a longer name
#: says its own action, and has the head's purpose only when another part names it too
#: (`db:migrate`); `db:check:test`, `db:seed` or `db:studio` migrate nothing.
_OBJECT_HEADS = frozenset({"db"})
#: Heads of a task that checks something, and the things a check of the machine's setup names
#: (`check-prerequisites`, `check:env`, `check-deps`): such a check runs none of the tests.
_CHECK_HEADS = frozenset({"check", "verify"})
#: What a check names that no task is named alone (`check:ts`, `check-style`).
_CHECKED = {"ts": "typecheck", "type": "typecheck", "typescript": "typecheck", "style": "lint"}
_SETUP_OBJECTS = frozenset(
    {"prerequisites", "prereqs", "prereq", "env", "environment", "deps", "dependencies"}
    | {"requirements", "setup", "install", "installation", "tools", "toolchain", "versions"}
)


def task_purpose(name: str) -> str | None:
    """The purpose a task, script or target name usually has (`test:unit` → test)."""
    table = command_table()
    name = name.strip().lower()
    if name in table.task_names:
        return table.task_names[name]
    if name.startswith(":"):
        name = name.rsplit(":", 1)[-1]
        return table.task_names.get(name)
    head, *rest = re.split(r"[:._\-/]", name)
    purpose = table.task_names.get(head)
    said = {p for part in rest if (p := table.task_names.get(part)) is not None}
    every = said | ({purpose} if purpose is not None else set())
    if every & _PUBLISHING and ("test" in every or _REHEARSALS.intersection([*rest, head])):
        return None  # `release-check`, `check-release`, `deploy:dry`: checks, publishes nothing
    if purpose == "run" and rest and all(table.task_names.get(part) == "test" for part in rest):
        return "test"  # `run-tests`, `start:e2e`: the tests run (`start_test_server` starts)
    if head in _CHECK_HEADS and _SETUP_OBJECTS.intersection(rest):
        return None  # `check-prerequisites`, `check_env`: the setup is checked, not the code
    if head in _CHECK_HEADS:
        # `check-types`, `check:ts`, `check-format`: the part after the head says what is checked
        checked = [_CHECKED.get(part) or table.task_names.get(part) for part in rest]
        if named := next((p for p in checked if p is not None), None):
            return named
    if head in _OBJECT_HEADS and purpose is not None:
        return purpose if any(table.task_names.get(part) == purpose for part in rest) else None
    return purpose
