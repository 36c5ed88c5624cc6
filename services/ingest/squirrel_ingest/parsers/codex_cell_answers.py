"""What a Codex code-mode cell's commands did, as the host's records and the cell's answer say
it: an `item_completed` `CommandExecution` (the command line, exit code, output, folder and the
host's own reading of the line, `parsed_cmd`), and a cell's `custom_tool_call_output` (a `Script
completed` header, then what the script passed to `text(…)`)."""

from __future__ import annotations

import json
import re
from typing import Any

from squirrel_ingest.parsers.base import text_of
from squirrel_ingest.parsers.shell_commands import command_text

_STATUS = re.compile(r"^Script (?:completed|failed|terminated)\b")
_COMPLETED = re.compile(r"^Script completed\b")


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


def host_reads(item: dict[str, Any]) -> tuple[str, ...]:
    """The files the host's record of a command says it printed: the `path` of each `read` in
    its `parsed_cmd` (Codex's own reading of the line: `sed -n '1,200p' src/app.ts; rg -n TODO
    src` is a read of `src/app.ts` and a search); a read it names by file name only is left
    out (where the file is is not said)."""
    parsed = item.get("parsed_cmd")
    found = (
        part.get("path")
        for part in (parsed if isinstance(parsed, list) else [])
        if isinstance(part, dict) and part.get("type") == "read"
    )
    return tuple(dict.fromkeys(path for path in found if isinstance(path, str) and path))


def cell_answer(raw: object) -> tuple[str, int | None]:
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


def indexed_answers(raw: object, count: int) -> list[tuple[str, int]] | None:
    """What a cell's answer says of each of its `count` commands when its script passed one
    JSON result per command, numbered in the order the commands are written (`{"i": 0,
    "exit_code": 0, "output": "…"}`, as a script that awaits several commands at once prints
    them): (output, exit code) in that order; None when the answer is not exactly that."""
    parts = [text_of(part) for part in raw] if isinstance(raw, list) else [text_of(raw)]
    if parts and _STATUS.match(parts[0]):
        parts = parts[1:]
    found: dict[int, tuple[str, int]] = {}
    for part in parts:
        for line in part.splitlines():
            if not (line.lstrip().startswith("{") and '"exit_code"' in line):
                continue
            try:
                result = json.loads(line)
            except (ValueError, RecursionError):
                return None
            if not isinstance(result, dict):
                return None
            index, code = _whole(result.get("i")), _whole(result.get("exit_code"))
            if index is None or code is None or index in found:
                return None
            found[index] = (text_of(result.get("output")), code)
    if count < 2 or sorted(found) != list(range(count)):
        return None
    return [found[n] for n in range(count)]


def cell_result(raw: object, *, chained: bool = True) -> tuple[str, int | None, str | None] | None:
    """What a cell's answer says of the one shell call it awaited, when its script passed that
    call's whole JSON result to `text(…)` (and nothing else that looks like one): its `output`,
    its `exit_code` (once the command ended) and its `session_id` (while it still runs); None
    when the answer is not that (then nothing is known of the call).

    A script that runs a command and polls its session (`tools.write_stdin({session_id:
    r.session_id})`), printing each result, answers several: each but the last still running
    in one session, the last ended or still running in it. With `chained` they are read as
    that one command's, their outputs joined in the order printed (the stream, as it came),
    the last's exit code and session; results of two sessions are not one command's."""
    parts = [text_of(part) for part in raw] if isinstance(raw, list) else [text_of(raw)]
    if not parts or not _STATUS.match(parts[0]):
        return None
    found: list[dict[str, Any]] = []
    for part in parts[1:]:
        if not part.lstrip().startswith("{"):
            continue
        try:
            result = json.loads(part)
        except (ValueError, RecursionError):
            return None
        if isinstance(result, dict) and ("exit_code" in result or "session_id" in result):
            found.append(result)
    if not found or (len(found) > 1 and not chained):
        return None
    sessions = {_whole(r.get("session_id")) for r in found} - {None}
    if len(sessions) > 1 or any(
        _whole(r.get("session_id")) is None or _whole(r.get("exit_code")) is not None
        for r in found[:-1]
    ):
        return None
    last = found[-1]
    code, session = _whole(last.get("exit_code")), _whole(last.get("session_id"))
    output = "".join(text_of(r.get("output")) for r in found)
    return output, code, str(session) if session is not None else None


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def cell_completed(raw: object) -> bool:
    """Whether a cell's answer says its script completed (not failed or terminated)."""
    parts = raw if isinstance(raw, list) else [raw]
    return bool(parts) and _COMPLETED.match(text_of(parts[0])) is not None
