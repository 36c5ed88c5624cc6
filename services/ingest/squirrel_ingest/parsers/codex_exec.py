"""Commands a Codex rollout runs outside its shell functions: the cells of its JavaScript `exec`
tool, and the user's own `!cmd`.

With code mode (the Codex desktop app, `codex exec` from 0.154), the model runs commands
through one custom tool, `exec`, whose input is JavaScript calling the shell tools:

    const r = await tools.exec_command({cmd: "pytest -q", workdir: "/repo"}); text(r);

The rollout records the cell (`custom_tool_call` named `exec`), what the host ran for it (an
`item_completed` event whose item is a `CommandExecution`: the argv, its exit code and output)
and the cell's answer (`custom_tool_call_output`: a `Script completed` header, then what the
script passed to `text(…)`, a JSON result with `exit_code` and `output` when it passed the
whole result). A command is read once: from the host's record of it when there is one, else
from the cell's source (a `cmd` given as a string literal; one built at run time is not a
command read here) with the exit code and output its answer holds when the cell ran one command.
A command record that belongs to no cell is the record of a shell function's call, read from
that call already.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

from squirrel_core.events import Event
from squirrel_ingest.parsers.base import RecordContext, command_event, shell_folder, text_of
from squirrel_ingest.parsers.shell_commands import command_text

#: The tool whose input is a JavaScript cell.
CELL_TOOL: Final = "exec"
#: Most cells awaiting their answer kept between records (and in a cursor).
OPEN_CELLS_LIMIT: Final = 64
_CALL = re.compile(r"\btools\s*\.\s*exec_command\s*\(\s*")
_KEY = re.compile(
    r"""\s*(?:(?P<name>[A-Za-z_$][\w$]*)|"(?P<dq>[^"\\]*)"|'(?P<sq>[^'\\]*)')\s*:\s*"""
)
_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_STATUS = re.compile(r"^Script (?:completed|failed|terminated)\b")
#: A command the user ran themselves in the Codex TUI (`!git status`), as Codex records it for
#: the model: the command, then its exit code, duration and output.
_USER_SHELL = re.compile(
    r"^<user_shell_command>\s*<command>\n?(?P<command>.*?)\n?</command>\s*"
    r"<result>\n?(?P<result>.*?)\n?</result>\s*</user_shell_command>$",
    re.DOTALL,
)
_SHELL_OUTPUT = re.compile(r"^Output:\n?", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class CellCommand:
    """One `tools.exec_command` call of a cell: the command line and the folder it names."""

    command: str
    workdir: str | None = None


@dataclass(frozen=True, slots=True)
class Ran:
    """A cell command with what its cell's answer says of it."""

    command: CellCommand
    output: str
    exit_code: int | None


def _literal(source: str, start: int) -> tuple[str, int] | None:
    """The JavaScript string literal at `start` ('…', "…" or a template without `${`) and the
    index after it; None when there is none."""
    quote = source[start : start + 1]
    if quote not in ("'", '"', "`"):
        return None
    out: list[str] = []
    index = start + 1
    while index < len(source):
        char = source[index]
        if char == quote:
            return "".join(out), index + 1
        if quote == "`" and source.startswith("${", index):
            return None  # built at run time
        if char == "\\" and index + 1 < len(source):
            escaped = source[index + 1]
            if escaped == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", source[index + 2 : index + 6]):
                out.append(chr(int(source[index + 2 : index + 6], 16)))
                index += 6
                continue
            if escaped == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", source[index + 2 : index + 4]):
                out.append(chr(int(source[index + 2 : index + 4], 16)))
                index += 4
                continue
            out.append(_ESCAPES.get(escaped, "" if escaped == "\n" else escaped))
            index += 2
            continue
        if char == "\n" and quote != "`":
            return None
        out.append(char)
        index += 1
    return None


def _skip_value(source: str, start: int) -> int:
    """The index of the `,` or `}` that ends the object value at `start`."""
    depth, index = 0, start
    while index < len(source):
        char = source[index]
        if char in "'\"`":
            found = _literal(source, index)
            index = found[1] if found else index + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return index
            depth -= 1
        elif char == "," and depth == 0:
            return index
        index += 1
    return index


def _object_strings(source: str, start: int) -> dict[str, str]:
    """The keys of the object literal opening at `start` whose values are string literals."""
    found: dict[str, str] = {}
    index = start + 1
    while index < len(source):
        key = _KEY.match(source, index)
        if key is None:
            break
        name = key.group("name") or key.group("dq") or key.group("sq") or ""
        value = _literal(source, key.end())
        if value is not None:
            found.setdefault(name, value[0])
        end = _skip_value(source, value[1] if value else key.end())
        if end >= len(source) or source[end] != ",":
            break
        index = end + 1
    return found


def cell_commands(source: str) -> list[CellCommand]:
    """The commands a cell's source runs through `tools.exec_command`, in order: its `cmd`
    (or its one argument) when a string literal, with the `workdir` it names."""
    found: list[CellCommand] = []
    for call in _CALL.finditer(source):
        start = call.end()
        if source.startswith("{", start):
            given = _object_strings(source, start)
            command, workdir = given.get("cmd"), given.get("workdir")
        else:
            literal = _literal(source, start)
            command, workdir = (literal[0] if literal else None), None
        if command and command.strip():
            found.append(CellCommand(command.strip(), workdir or None))
    return found


def command_item(item: object) -> tuple[str, str, int | None, str | None] | None:
    """(command, output, exit code, folder) of an `item_completed` `CommandExecution`; None for
    any other item."""
    if not isinstance(item, dict) or item.get("type") != "CommandExecution":
        return None
    command = command_text(item.get("command"))
    if command is None:
        return None
    code = item.get("exit_code")
    exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
    output = text_of(item.get("aggregated_output")) or text_of(item.get("formatted_output"))
    cwd = item.get("cwd")
    folder = cwd.removeprefix("file://") if isinstance(cwd, str) and cwd else None
    return command, output, exit_code, folder


def _answer(raw: object) -> tuple[str, int | None]:
    """What a cell's answer says of its one command: the `output` and `exit_code` of the JSON
    result the script passed to `text(…)`, else the text it printed (exit code unknown)."""
    parts = [text_of(part) for part in raw] if isinstance(raw, list) else [text_of(raw)]
    if parts and _STATUS.match(parts[0]):
        parts = parts[1:]
    for part in parts:
        if part.lstrip().startswith("{") and '"exit_code"' in part:
            try:
                result = json.loads(part)
            except (ValueError, RecursionError):
                continue
            code = result.get("exit_code") if isinstance(result, dict) else None
            if isinstance(code, int) and not isinstance(code, bool):
                return text_of(result.get("output")), code
    return "\n".join(part for part in parts if part.strip()), None


class CodeCells:
    """The `exec` cells awaiting their answer and the commands of theirs not yet recorded."""

    def __init__(self) -> None:
        self._open: dict[str, list[CellCommand]] = {}

    def opened(self, call_id: str, source: object) -> list[CellCommand]:
        """Remembers the commands of a cell (`source` its input); returns them."""
        commands = cell_commands(source) if isinstance(source, str) else []
        self._open.pop(call_id, None)
        self._open[call_id] = list(commands)
        while len(self._open) > OPEN_CELLS_LIMIT:
            del self._open[next(iter(self._open))]
        return commands

    def ran(self, command: str) -> str | None:
        """The call id of the open cell `command` is one of, recorded by the host (so it is
        not read again from the cell's answer); None when it is no open cell's."""
        for call_id, commands in self._open.items():
            for index, known in enumerate(commands):
                if known.command == command.strip():
                    del commands[index]
                    return call_id
        return None

    def closed(self, call_id: str, raw: object) -> list[Ran]:
        """The cell's commands the host did not record, with what its answer (`raw`) says: the
        output and exit code when it ran one command, nothing more when it ran several."""
        left = self._open.pop(call_id, [])
        if len(left) != 1:
            return [Ran(command, "", None) for command in left]
        output, exit_code = _answer(raw)
        return [Ran(left[0], output, exit_code)]

    def answered(
        self, ctx: RecordContext, call_id: str | None, raw: object, cwd: str | None
    ) -> list[Event]:
        """The command events of a cell's commands the host did not record, from its answer."""
        return [
            command_event(
                ctx,
                call_id,
                ran.command.command,
                ran.output,
                exit_code=ran.exit_code,
                shell_cwd=shell_folder(ran.command.workdir, cwd),
            )
            for ran in (self.closed(call_id, raw) if call_id else [])
        ]

    def recorded(self, item: object, ctx: RecordContext) -> list[Event] | None:
        """The command event of an `item_completed` `CommandExecution` of an open cell; [] for
        one of no cell (a shell function's call, the user's `!cmd`: read from their own
        records); None for any other item."""
        ran = command_item(item)
        if ran is None or not isinstance(item, dict):
            return None
        command, output, exit_code, folder = ran
        cell = self.ran(command)
        if cell is None:
            return []
        return [command_event(ctx, cell, command, output, exit_code=exit_code, shell_cwd=folder)]

    def state(self) -> dict[str, Any]:
        return {
            call_id: [[c.command, c.workdir] for c in commands]
            for call_id, commands in self._open.items()
        }

    def restore(self, state: object) -> None:
        if not isinstance(state, dict):
            return
        for call_id, commands in list(state.items())[-OPEN_CELLS_LIMIT:]:
            if isinstance(call_id, str) and isinstance(commands, list):
                self._open[call_id] = [
                    CellCommand(c[0], c[1] if isinstance(c[1], str) else None)
                    for c in commands
                    if isinstance(c, list) and len(c) == 2 and isinstance(c[0], str)
                ]


def user_shell(text: str) -> tuple[str, str] | None:
    """(command, what it printed) of a command the user ran themselves (Codex's
    `<user_shell_command>` block); None when `text` is not such a block."""
    found = _USER_SHELL.match(text.strip())
    if found is None or not found.group("command").strip():
        return None
    result = found.group("result")
    output = _SHELL_OUTPUT.search(result)
    printed = result[output.end() :].strip("\n") if output else ""
    return found.group("command").strip(), printed


def user_shell_end(payload: dict[str, Any]) -> bool:
    """Whether an `exec_command_end` is the end of the user's own `!cmd` (its own message,
    `<user_shell_command>`, says it)."""
    return payload.get("source") == "user_shell"
