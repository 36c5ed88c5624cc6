"""The parser contract and the event-making helpers every transcript parser shares.

Decoding a line into a record is `parsers.records`; how much of a text or value an event keeps
is `parsers.kept_values`."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PureWindowsPath
from typing import Any, Protocol

from squirrel_core.events import (
    Event,
    EventType,
    Origin,
    SourcePosition,
    SourceTool,
    default_origin,
)
from squirrel_core.kept_text import (
    INPUT_KEPT,
    KEPT_KEY,
    READING_TOOLS,
    TEXT_KEPT,
    first_content,
    marked,
)
from squirrel_core.subagent_tools import SUBAGENT_TOOLS
from squirrel_ingest.parsers.classify import CODE_CHANGE_TOOLS, command_event_type
from squirrel_ingest.parsers.kept_values import INPUT_ITEMS_LIMIT, cap_text, keep_text

#: Most tool calls remembered while waiting for their results.
PENDING_LIMIT = 256

_WINDOWS_ABSOLUTE = re.compile(r"^[A-Za-z]:[\\/]|^\\\\")


class Parser(Protocol):
    """A stateful reader of one transcript file, fed one complete line at a time."""

    skipped: Counter[str]

    def feed(self, line: bytes, position: SourcePosition) -> list[Event]:
        """Turn one line into zero or more events; never raises."""
        ...


@dataclass(slots=True)
class ParseResult:
    """Everything a parser made of a run of lines, with what it skipped and why."""

    events: list[Event] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    records: int = 0


@dataclass(frozen=True, slots=True)
class PendingTool:
    """What is remembered about a tool call until its result arrives."""

    name: str
    command: str | None = None
    paths: tuple[str, ...] = ()
    background: bool = False
    #: The folder the shell command runs in, when the call names one (else the session's).
    cwd: str | None = None
    #: The most lines a file read asked for from the file's first line (`head -n 40 f`).
    line_limit: int | None = None
    #: The background task the call started, reads or stops (Claude Code's task or shell id).
    task_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A plain dict for a cursor's `extra`."""
        return {
            "name": self.name,
            "command": self.command,
            "paths": list(self.paths),
            "background": self.background,
            "cwd": self.cwd,
            "line_limit": self.line_limit,
            "task_id": self.task_id,
        }

    @classmethod
    def from_json(cls, value: object) -> PendingTool | None:
        """Rebuild from `to_json` output; `None` if it is not in that shape."""
        if not isinstance(value, dict) or not isinstance(value.get("name"), str):
            return None
        command = value.get("command")
        paths = value.get("paths")
        cwd = value.get("cwd")
        limit = value.get("line_limit")
        task_id = value.get("task_id")
        return cls(
            name=value["name"],
            command=command if isinstance(command, str) else None,
            paths=tuple(p for p in paths if isinstance(p, str)) if isinstance(paths, list) else (),
            background=value.get("background") is True,
            cwd=cwd if isinstance(cwd, str) else None,
            line_limit=limit if isinstance(limit, int) and not isinstance(limit, bool) else None,
            task_id=task_id if isinstance(task_id, str) else None,
        )


@dataclass(frozen=True, slots=True)
class RecordContext:
    """The envelope facts of one record, stamped on every event made from it."""

    source_tool: SourceTool
    timestamp: datetime
    position: SourcePosition | None
    session_id: str | None = None
    cwd: str | None = None
    source_version: str | None = None
    sidechain: bool = False
    agent_id: str | None = None
    git_branch: str | None = None

    def event(
        self,
        event_type: EventType,
        content: dict[str, Any],
        file_paths: tuple[str, ...] = (),
        *,
        origin: Origin | None = None,
        kept: bool = False,
    ) -> Event:
        """An event of `event_type` carrying this record's envelope and its speaker (by default
        the usual one of its type: the assistant for calls, the tool for results). `kept` says
        its texts were kept to the second bounds (`keep_text`, `keep_input`): content holding a
        text past the first bound is marked so (`squirrel_core.kept_text`)."""
        if kept:
            content = marked(str(event_type), content)
        return Event(
            source_tool=self.source_tool,
            event_type=event_type,
            timestamp=self.timestamp,
            content=content,
            session_id=self.session_id,
            cwd=self.cwd,
            file_paths=file_paths,
            source_version=self.source_version,
            sidechain=self.sidechain,
            agent_id=self.agent_id,
            position=self.position,
            git_branch=self.git_branch,
            origin=origin or default_origin(event_type),
            first=(
                first_content(str(event_type), content, exact=True) if KEPT_KEY in content else None
            ),
        )


def completion_events(
    ctx: RecordContext,
    tool_use_id: str | None,
    pending: PendingTool | None,
    output: str,
    *,
    is_error: bool,
    exit_code: int | None,
    read_lines: tuple[int, int] | None = None,
) -> list[Event]:
    """What a finished tool call yields: its result, the command it ran, the files it changed.

    `read_lines` is the (first, last) line a file read returned when that may not be the whole
    file; the result then says `partial` and carries those `lines`."""
    name = pending.name if pending else None
    paths = pending.paths if pending else ()
    capped = cap_text(output)
    result: dict[str, Any] = {
        "tool": name,
        "tool_use_id": tool_use_id,
        "output": capped,
        "is_error": is_error,
    }
    if read_lines is not None:
        result.update(partial=True, lines=list(read_lines))
    kept = name in SUBAGENT_TOOLS or name in READING_TOOLS
    if name in SUBAGENT_TOOLS:  # a subagent's report: its conclusion is at its end
        result["output"] = keep_text(output)
    elif name in READING_TOOLS:  # a file's text: cut at the end, as a read cut short reads
        result["output"] = cap_text(output, TEXT_KEPT)
    events = [ctx.event(EventType.TOOL_RESULT, result, paths, kept=kept)]
    if pending is None:
        return events
    if pending.command is not None:
        events.append(
            command_event(
                ctx,
                tool_use_id,
                pending.command,
                capped,
                exit_code=exit_code,
                is_error=is_error,
                paths=paths,
                shell_cwd=pending.cwd,
            )
        )
    if pending.name in CODE_CHANGE_TOOLS and not is_error:
        events.extend(
            ctx.event(
                EventType.CODE_CHANGE,
                {
                    "tool": pending.name,
                    "tool_use_id": tool_use_id,
                    "path": path,
                    "summary": f"{pending.name} {path}",
                },
                (path,),
            )
            for path in paths
        )
    return events


def partial_lines(
    first: int, shown: int, *, total: int | None = None, limit: int | None = None
) -> tuple[int, int] | None:
    """The (first, last) lines of a file read that may not have returned the whole file, else
    `None`: it starts past line 1, stops before the file's `total` lines, or (total unknown)
    returned all the `limit` lines it asked for."""
    last = first + max(shown, 1) - 1
    cut = total is not None and last < total
    filled = total is None and limit is not None and shown >= limit
    return (first, last) if first > 1 or cut or filled else None


def command_event(
    ctx: RecordContext,
    tool_use_id: str | None,
    command: str,
    output: str,
    *,
    exit_code: int | None,
    is_error: bool | None = None,
    paths: tuple[str, ...] = (),
    shell_cwd: str | None = None,
    background: bool = False,
) -> Event:
    """A `command_run` or `test_run` event for a finished shell command; `shell_cwd` is the
    folder it ran in when the call named one (else the session's). `background` marks a
    command launched in the background: its result is not known yet (no `exit_code`,
    `is_error` or `output`), and the run its end makes later, with the same `tool_use_id`,
    takes its place."""
    content: dict[str, Any] = {
        "command": cap_text(command, INPUT_KEPT),
        "tool_use_id": tool_use_id,
        # The folder the shell was in: a recipe keeps it as its scope.
        "cwd": shell_cwd or ctx.cwd,
    }
    if background:
        content["background"] = True
    else:
        failed = is_error if is_error is not None else exit_code not in (None, 0)
        content.update(exit_code=exit_code, is_error=failed, output=cap_text(output))
    return ctx.event(command_event_type(command), content, paths, kept=True)


def shell_folder(named: object, cwd: str | None) -> str | None:
    """The absolute folder a shell call names (`workdir`, `directory`), read from the session's
    `cwd` when it is relative; `None` when the call names none or it cannot be placed."""
    if not isinstance(named, str) or not named.strip():
        return None
    if PureWindowsPath(named).is_absolute():
        return named
    if posixpath.isabs(named):
        return posixpath.normpath(named)
    return posixpath.normpath(posixpath.join(cwd, named)) if cwd else None


def remember(pending: dict[str, PendingTool], tool_use_id: str, tool: PendingTool) -> None:
    """Store a call awaiting its result, forgetting the oldest beyond `PENDING_LIMIT`."""
    pending.pop(tool_use_id, None)
    pending[tool_use_id] = tool
    while len(pending) > PENDING_LIMIT:
        del pending[next(iter(pending))]


def parse_bytes(parser: Parser, data: bytes, path: str, inode: int = 0) -> ParseResult:
    """Feed every complete line of `data` to `parser`, as a tail reader would.

    A trailing piece without a newline is left alone (it may still be being written).
    """
    result = ParseResult()
    offset = 0
    while True:
        end = data.find(b"\n", offset)
        if end < 0:
            break
        line = data[offset:end]
        offset = end + 1
        if not line.strip():
            continue
        result.records += 1
        result.events.extend(
            parser.feed(line, SourcePosition(path=path, inode=inode, end_offset=offset))
        )
    result.skipped = dict(parser.skipped)
    return result


def text_of(value: object) -> str:
    """Join the text of a string, a `{text}` block or a list of such blocks; drop the rest."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        text = value.get("text")
        return text if isinstance(text, str) else ""
    if isinstance(value, list):
        parts = [text_of(item) for item in value[: INPUT_ITEMS_LIMIT * 10]]
        return "\n".join(part for part in parts if part)
    return ""


def str_or_none(value: object) -> str | None:
    """Return `value` if it is a non-empty string."""
    return value if isinstance(value, str) and value else None


def relative_path(path: str, cwd: str | None) -> str:
    """Make `path` relative to `cwd` when it lies inside it; otherwise keep it as given."""
    if _WINDOWS_ABSOLUTE.match(path):
        return _relative_windows(path, cwd)
    if not path.startswith("/"):
        return posixpath.normpath(path) if path else path
    normalized = posixpath.normpath(path)
    if cwd and cwd.startswith("/"):
        root = posixpath.normpath(cwd)
        if normalized == root:
            return "."
        prefix = root if root.endswith("/") else root + "/"
        if normalized.startswith(prefix):
            return normalized[len(prefix) :]
    return normalized


def _relative_windows(path: str, cwd: str | None) -> str:
    target = PureWindowsPath(path)
    if cwd and _WINDOWS_ABSOLUTE.match(cwd):
        try:
            return target.relative_to(PureWindowsPath(cwd)).as_posix()
        except ValueError:
            return str(target)
    return str(target)
