"""Claude Code tool calls and what their results report: the call a `tool_use` block makes (its
tool, paths and shell command, a shell command that only prints one file read as that file's
read), and a result's events with the exit status (`Exit code N`, `toolUseResult.exitCode`) and
the lines a Read returned. What the parser keeps between lines (the calls awaiting their
results, the background commands) stays the parser's (`claude`)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from squirrel_core.events import Event, EventType
from squirrel_core.host_tools import HOSTS
from squirrel_ingest.parsers.background import TASK_ID_KEYS
from squirrel_ingest.parsers.base import (
    PendingTool,
    RecordContext,
    completion_events,
    partial_lines,
    relative_path,
    shell_folder,
    str_or_none,
)
from squirrel_ingest.parsers.classify import PATH_KEYS
from squirrel_ingest.parsers.kept_values import keep_input
from squirrel_ingest.parsers.shell_commands import READ_TOOL, read_failed, read_paths, shell_read

_SHELL_TOOL = "Bash"
_SHELL_TOOLS = HOSTS["claude_code"].run
_EXIT_CODE = re.compile(r"^Exit code (-?\d{1,9})\b")


def tool_call(block: dict[str, Any], ctx: RecordContext) -> tuple[str, PendingTool, Event] | None:
    """A `tool_use` block's id, the call awaiting its result and the call's event; None when
    the block names no id or no tool."""
    tool_use_id = str_or_none(block.get("id"))
    name = str_or_none(block.get("name"))
    raw_input = block.get("input")
    tool_input: dict[str, Any] = raw_input if isinstance(raw_input, dict) else {}
    if tool_use_id is None or name is None:
        return None
    paths = tuple(
        relative_path(value, ctx.cwd)
        for key in PATH_KEYS
        if isinstance(value := tool_input.get(key), str) and value
    )
    command = tool_input.get("command") if name in _SHELL_TOOLS else None
    shell = command if isinstance(command, str) else None
    background = tool_input.get("run_in_background") is True
    read = shell_read(shell) if shell is not None and not background else None
    if read is not None:  # only prints one file: that file's read, as Codex's are
        path = shell_folder(read.path, ctx.cwd) or read.path
        name, paths = READ_TOOL, (relative_path(path, ctx.cwd),)
        tool_input = {"file_path": path, "command": shell}
    limit = read.line_limit if read is not None else None
    task = next((v for k in TASK_ID_KEYS if isinstance(v := tool_input.get(k), str)), None)
    pending = PendingTool(
        name, shell, paths, background=background, line_limit=limit, task_id=task or None
    )
    content = {"tool": name, "tool_use_id": tool_use_id, "input": keep_input(tool_input)}
    reads = read_paths(shell, ctx.cwd, ctx.cwd) if shell and not read and not background else ()
    if reads:  # `cat a; echo ---; cat b`: a read of each file, its output theirs together
        content["reads"] = list(reads)
    event = ctx.event(EventType.TOOL_CALL, content, (*paths, *reads), kept=True)
    return tool_use_id, pending, event


def result_events(
    ctx: RecordContext,
    tool_use_id: str | None,
    pending: PendingTool | None,
    output: str,
    structured: object,
    *,
    is_error: bool,
) -> list[Event]:
    """The events of a tool's result (`completion_events`), with the exit status and the lines
    read it reports; a shell command read as one file's read is a failed command when it
    failed, else the file's text."""
    exit_code = _exit_code(pending, output, structured, is_error=is_error)
    read = _read_lines(structured) if pending is not None and pending.name == "Read" else None
    if pending is not None and pending.name == READ_TOOL and pending.command is not None:
        if is_error or exit_code not in (None, 0) or read_failed(output):
            is_error, pending = True, replace(pending, name=_SHELL_TOOL)  # a failed command
        else:  # the file's text, as a Codex or Gemini shell read records it
            read = partial_lines(1, len(output.splitlines()), limit=pending.line_limit)
            pending = replace(pending, command=None)
    return completion_events(
        ctx,
        tool_use_id,
        pending,
        output,
        is_error=is_error,
        exit_code=exit_code,
        read_lines=read,
    )


def _read_lines(structured: object) -> tuple[int, int] | None:
    """The lines a Read returned when not the whole file, from its `toolUseResult.file`
    (`startLine`, `numLines`, `totalLines`); `None` when whole or not said."""
    file = structured.get("file") if isinstance(structured, dict) else None
    if not isinstance(file, dict):
        return None
    numbers = [file.get(key) for key in ("startLine", "numLines", "totalLines")]
    first, shown, total = [
        n if isinstance(n, int) and not isinstance(n, bool) else 0 for n in numbers
    ]
    return partial_lines(first, shown, total=total) if first > 0 and total > 0 else None


def _exit_code(
    pending: PendingTool | None, output: str, structured: object, *, is_error: bool
) -> int | None:
    """Bash's exit status: `Exit code N` on failures, 0 on a plain success, else unknown."""
    if pending is None or pending.command is None or pending.background:
        return None
    if isinstance(structured, dict):
        for key in ("exitCode", "exit_code"):
            value = structured.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        if structured.get("interrupted") is True or structured.get("backgroundTaskId"):
            return None
    match = _EXIT_CODE.match(output)
    if match:
        return int(match.group(1))
    return None if is_error else 0
