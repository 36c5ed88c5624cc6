"""`sqrl`: the command line. Parses arguments, runs one command, prints one clear line on error.

Only the module of the command being run is imported (a command answers at once; `sqrl --help`
imports none): `COMMANDS` names each command's module and its one-line help.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from squirrel_cli.argument_names import said_by_command
from squirrel_cli.exits import configured, exit_code, reader_gone
from squirrel_core.errors import SquirrelError
from squirrel_core.projects import checked_path
from squirrel_core.settings import load_settings

if TYPE_CHECKING:
    from squirrel_cli.console import Console

Handler = Callable[[argparse.Namespace, "Console"], int]

COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "init": ("commands.local", "set up Squirrel here: the home, this repo's .ctx/, registration"),
    "projects": (
        "commands.projects",
        "repositories with assistant history here; --register adds the chosen ones",
    ),
    "config": ("commands.local", "show or change settings (config.toml in the home)"),
    "token": ("commands.local", "print the path of the auth token file (or the token)"),
    "up": ("commands.services", "start memory, ingest and gateway and keep them running"),
    "down": ("commands.services", "stop the services started by `sqrl up`"),
    "status": ("commands.services", "services (pid, port, health, uptime, restarts) and projects"),
    "context": ("commands.retrieval", "the memories relevant to a coding task"),
    "search": ("commands.retrieval", "search this project's memory"),
    "view": ("commands.retrieval", "a view: your style, the project brief, or pitfalls"),
    "mcp": (
        "commands.retrieval",
        "run the stdio MCP server (what Claude Code, Codex or Gemini launch)",
    ),
    "remember": ("commands.memory", "save a memory by hand (never overwritten by extraction)"),
    "forget": ("commands.memory", "forget a memory (kept in its history)"),
    "memories": ("commands.memory", "list this project's memories"),
    "history": ("commands.memory", "every version of a memory and its source events"),
    "confirm": (
        "commands.memory",
        "vouch for a flagged memory so views and hooks may use it (binds to its content)",
    ),
    "ui": ("commands.ui", "open the memory browser (a local web page)"),
    "process": ("commands.memory", "process waiting events now instead of on the timer"),
    "import": ("commands.ingest", "ingest existing transcripts and git history now"),
    "doctor": (
        "commands.doctor",
        "check the home, projects, indexes and services; --repair fixes what is safe",
    ),
    "reindex": ("commands.doctor", "rebuild this project's vector index from SQLite"),
    "hook": (
        "commands.hooks",
        "answer a host's hook (what Claude Code, Codex or Gemini run; prints JSON or nothing)",
    ),
    "hooks": ("commands.hooks", "install, remove or inspect the hosts' Squirrel hooks"),
    "serve": (
        "commands.team",
        "run a team server: the memory service over TLS for laptops, and a gateway",
    ),
    "team": ("commands.team", "team tokens (on the server); join or leave a team server"),
}


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named in `argv` (the first word that is not an option), if it is one."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return word if word in COMMANDS else None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for `command` (only its module is imported), or, for None, every command's
    one-line help with no module imported. `build_parser("*")` loads every command."""
    parser = argparse.ArgumentParser(
        prog="sqrl",
        description="Squirrel: local-first memory for AI coding assistants.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    if command is None:
        for name, (_, text) in COMMANDS.items():
            sub.add_parser(name, help=text)
        return parser
    wanted = dict.fromkeys(m for n, (m, _) in COMMANDS.items() if command in ("*", n))
    for module in wanted:
        importlib.import_module(f"squirrel_cli.{module}").add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command_of(args_list))
    args = parser.parse_args(args_list)
    from squirrel_cli.console import Console  # noqa: PLC0415 - rich only once a command runs

    console = Console()
    handler: Handler = args.handler
    try:
        lenient = bool(getattr(args, "lenient_settings", False))
        args.settings = configured(lambda: load_settings(os.environ, lenient=lenient))
        project = getattr(args, "project", None)
        if isinstance(project, str):  # `--project ""` is no project, never the current folder
            checked_path(project)
        return handler(args, console)
    except SquirrelError as exc:
        console.error(said_by_command(getattr(args, "command", None), exc))
        return exit_code(exc)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return reader_gone()
    except OSError as exc:
        console.error(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
