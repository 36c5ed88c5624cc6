"""Registering Squirrel's stdio MCP server with hosts: Claude Code's project `.mcp.json`."""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from squirrel_cli.console import Console
from squirrel_core.errors import FailedPreconditionError
from squirrel_core.files import write_json_file
from squirrel_core.settings import HOME_ENV

SERVER_NAME: Final = "ctx-memory"
"""The name hosts list Squirrel's MCP server under."""

CLAUDE_PROJECT_FILE: Final = ".mcp.json"
MAX_CONFIG_BYTES: Final = 1024 * 1024
NEW_FILE_MODE: Final = 0o644
"""`.mcp.json` is meant to be committed and shared, so it is not private."""

Outcome = Literal["added", "updated", "unchanged"]


@dataclass(frozen=True, slots=True)
class McpCommand:
    """How a host launches `sqrl mcp`: the program, its arguments and extra environment."""

    command: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)

    def claude_entry(self) -> dict[str, Any]:
        """The server's entry under `mcpServers` in Claude Code's `.mcp.json`."""
        entry: dict[str, Any] = {"type": "stdio", "command": self.command, "args": self.args}
        if self.env:
            entry["env"] = dict(self.env)
        return entry


def mcp_command(
    home: Path, *, interpreter: Path | None = None, absolute: bool = False
) -> McpCommand:
    """`sqrl mcp` (the console script on PATH: works on every machine with Squirrel installed,
    so a committed `.mcp.json` works for the whole team), plus the home.

    With `absolute` (on request: this machine only), the absolute `sqrl` beside this interpreter,
    else `python -m squirrel_cli`. `SQRL_HOME` is passed only when `home` is not the default
    `~/.sqrl`, so the server a host launches uses the same home as the `sqrl` that registered it.
    """
    python = Path(sys.executable) if interpreter is None else interpreter
    script = python.parent / "sqrl"
    if not absolute:
        command = McpCommand("sqrl", ["mcp"])
    elif script.is_file() and os.access(script, os.X_OK):
        command = McpCommand(str(script.absolute()), ["mcp"])
    else:
        command = McpCommand(str(python.absolute()), ["-m", "squirrel_cli", "mcp"])
    if home.expanduser().absolute() != Path("~/.sqrl").expanduser().absolute():
        command.env[HOME_ENV] = str(home)
    return command


def register_claude_code(project_root: Path, command: McpCommand) -> Outcome:
    """Adds (or updates) `ctx-memory` in `<project_root>/.mcp.json`, keeping every other server.

    A file that is not a JSON object with an object `mcpServers` is left untouched and refused
    with `FailedPreconditionError`, so nothing of the user's is ever lost.
    """
    path = project_root / CLAUDE_PROJECT_FILE
    data = _read_config(path)
    servers = data.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise FailedPreconditionError(
            f"{path}: `mcpServers` is not an object; fix it, or add {SERVER_NAME} by hand"
            " (docs/hosts.md)"
        )
    entry = command.claude_entry()
    if servers.get(SERVER_NAME) == entry:
        return "unchanged"
    outcome: Outcome = "updated" if SERVER_NAME in servers else "added"
    servers[SERVER_NAME] = entry
    write_json_file(path, data, new_mode=NEW_FILE_MODE)
    return outcome


def registered_for_claude_code(project_root: Path) -> bool:
    """True when the project's `.mcp.json` already lists `ctx-memory` (in any form)."""
    try:
        servers = _read_config(project_root / CLAUDE_PROJECT_FILE).get("mcpServers")
    except FailedPreconditionError:
        return False
    return isinstance(servers, dict) and SERVER_NAME in servers


def _read_config(path: Path) -> dict[str, Any]:
    try:
        found = path.stat()
    except FileNotFoundError:
        return {}
    size = found.st_size
    if not stat.S_ISREG(found.st_mode):  # a FIFO would block the read forever
        raise FailedPreconditionError(
            f"{path} is not a regular file; add {SERVER_NAME} by hand (docs/hosts.md)"
        )
    if size > MAX_CONFIG_BYTES:
        raise FailedPreconditionError(
            f"{path} is over {MAX_CONFIG_BYTES:,} bytes; add {SERVER_NAME} by hand (docs/hosts.md)"
        )
    text = path.read_text(encoding="utf-8", errors="replace")
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FailedPreconditionError(
            f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}); fix it, or add"
            f" {SERVER_NAME} by hand (docs/hosts.md)"
        ) from None
    except RecursionError:  # nested past the parser's depth (a repository's file is anyone's)
        raise FailedPreconditionError(
            f"{path} is not valid JSON (nested too deep); fix it, or add {SERVER_NAME} by hand"
            " (docs/hosts.md)"
        ) from None
    if not isinstance(data, dict):
        raise FailedPreconditionError(
            f"{path} is not a JSON object; fix it, or add {SERVER_NAME} by hand (docs/hosts.md)"
        )
    return data


def _ask(console: Console) -> Callable[[str], bool]:
    def confirm(question: str) -> bool:
        from rich.prompt import Confirm  # noqa: PLC0415 - only when a person is asked

        return bool(Confirm.ask(question, console=console.out, default=True))

    return confirm


def offer_claude_code(
    project_root: Path,
    home: Path,
    console: Console,
    *,
    choice: bool | None,
    assume_yes: bool,
    interactive: bool | None = None,
    confirm: Callable[[str], bool] | None = None,
    absolute: bool = False,
) -> Outcome | None:
    """`sqrl init`'s offer to register `ctx-memory` for Claude Code in the project's `.mcp.json`.

    `choice` is `--mcp` (True) / `--no-mcp` (False) / neither (None). With neither, a project
    that already lists the server is left alone, `--yes` registers, a terminal is asked, and
    anything else (a script, a pipe) is skipped with a hint.
    Returns what was done to the file, or None when nothing was.
    """
    if choice is False:
        return None
    if choice is None and registered_for_claude_code(project_root):
        return None
    interactive = sys.stdin.isatty() if interactive is None else interactive
    if choice is None and not assume_yes:
        if not interactive:
            console.line(
                f"Tip: `sqrl init --mcp` registers the {SERVER_NAME} MCP server for Claude Code"
                f" in {CLAUDE_PROJECT_FILE}; docs/hosts.md shows Codex and Gemini."
            )
            return None
        ask = confirm or _ask(console)
        if not ask(
            f"Register the {SERVER_NAME} MCP server for Claude Code in {CLAUDE_PROJECT_FILE}?"
        ):
            console.line("Skipped; `sqrl init --mcp` registers it later.")
            return None
    command = mcp_command(home, absolute=absolute)
    outcome = register_claude_code(project_root, command)
    path = project_root / CLAUDE_PROJECT_FILE
    said = {"added": "Added", "updated": "Updated", "unchanged": "Already in"}[outcome]
    where = "to" if outcome == "added" else "in"
    if outcome == "unchanged":
        console.line(f"{said} {path}: {SERVER_NAME} ({command.command} {' '.join(command.args)})")
    else:
        console.line(
            f"{said} {SERVER_NAME} {where} {path} ({command.command} {' '.join(command.args)})"
        )
    if not absolute and shutil.which(command.command) is None:
        console.line(
            f"Note: hosts run `{command.command} mcp` from PATH, and `{command.command}` is not on"
            f" PATH here: add {Path(sys.executable).parent} to PATH, or run"
            " `sqrl init --mcp --mcp-absolute` to write this machine's path instead."
        )
    return outcome
