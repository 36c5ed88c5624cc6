"""The command table applied to shell lines: what a developer command is for, in every
mainstream ecosystem, and the commands of a line as a user would type them.

The table itself is data (`commands.toml`, shipped with this package and read once). Two
functions answer everything the rest of the code asks about a shell line:

- `classify_command(text)`: the first recognised tool of a line as a `CommandUse`
  (tool, purpose, ecosystem), or None. `command_uses(text)` gives every recognised one.
- `typed_commands(line, cwd=..., project_root=...)`: the line as the commands a user would
  type, one `TypedCommand` per simple command, with the folder each ran in kept apart.

Purposes are `test`, `lint`, `format`, `typecheck`, `build`, `migrate`, `run` (start the app or
its dev server), `install` (dependencies), `docs` (build the documentation), `release` and
`deploy`. The parts live beside this module, and their public names are importable from here:

- `squirrel_core.command_table`: the table's data, its purposes and `CommandUse`;
- `squirrel_core.command_launchers`: what only launches a command (`uv run`, `timeout 60`,
  `dotenv --`, `python -m`), stripped by `core_tokens`;
- `squirrel_core.command_purposes`: one simple command read against the table
  (`classify_tokens`);
- `squirrel_core.command_roles`: a program the table does not know, read by its own words;
- `squirrel_core.typed_commands`: `typed_commands` and `TypedCommand`;
- `squirrel_core.shell_words`: a line split into simple commands, and `join_words` (words back
  into a line that pastes and runs).
"""

from __future__ import annotations

from squirrel_core.command_launchers import core_tokens, package_manager, runner_launch
from squirrel_core.command_purposes import classify_tokens, package_option, session_option
from squirrel_core.command_roles import ROLE_PURPOSES
from squirrel_core.command_table import (
    CATEGORIES,
    PURPOSES,
    CommandUse,
    ecosystems,
    known_tools,
    task_purpose,
)
from squirrel_core.shell_words import MAX_LINE_CHARS, join_words, simple_commands
from squirrel_core.typed_commands import TypedCommand, typed_commands


def command_uses(text: str) -> list[CommandUse]:
    """Every recognised tool in a shell line, in order (`ruff check . && mypy src` → two)."""
    return [use for tokens in simple_commands(text) if (use := classify_tokens(tokens))]


def classify_command(text: str) -> CommandUse | None:
    """The first recognised tool of a shell line: `cd a && MIX_ENV=test mix test` → mix test."""
    uses = command_uses(text)
    return uses[0] if uses else None


def is_test_command(text: str) -> bool:
    """Whether any part of a shell line runs a test suite."""
    return any(use.purpose == "test" for use in command_uses(text))


#: Names of a task that runs the project's checks as one gate (`make check`, `mix precommit`,
#: `just ci`, `npm run check`, `mvn verify`): it may run the tests, but it is more than them.
GATE_TASKS = frozenset({"precommit", "pre-commit", "pre_commit", "check", "checks", "ci", "verify"})


def runs_a_gate(command: str) -> bool:
    """Whether a command runs a gate task: its last word but for options is one of
    `GATE_TASKS`, after a program (`make check`; not `check` alone, nor `check.sh`)."""
    words = [w for w in command.split() if not w.startswith("-")]
    return len(words) >= 2 and words[-1].lower() in GATE_TASKS


__all__ = [
    "CATEGORIES",
    "GATE_TASKS",
    "MAX_LINE_CHARS",
    "PURPOSES",
    "ROLE_PURPOSES",
    "CommandUse",
    "TypedCommand",
    "classify_command",
    "classify_tokens",
    "command_uses",
    "core_tokens",
    "ecosystems",
    "is_test_command",
    "join_words",
    "known_tools",
    "package_manager",
    "package_option",
    "runner_launch",
    "runs_a_gate",
    "session_option",
    "task_purpose",
    "typed_commands",
]
