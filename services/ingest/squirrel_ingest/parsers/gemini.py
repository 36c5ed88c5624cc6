"""Gemini CLI chat parser: append-only `.jsonl` chats, and the message decoding documents share."""

from __future__ import annotations

import json
import posixpath
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import structlog

from squirrel_core.events import Event, EventType, SourcePosition, SourceTool
from squirrel_core.host_tools import HOSTS
from squirrel_core.timestamps import parse_timestamp
from squirrel_ingest.parsers.base import (
    PendingTool,
    RecordContext,
    completion_events,
    partial_lines,
    relative_path,
    shell_folder,
    str_or_none,
    text_of,
)
from squirrel_ingest.parsers.classify import PATH_KEYS
from squirrel_ingest.parsers.kept_values import keep_input, keep_text
from squirrel_ingest.parsers.records import decode_record
from squirrel_ingest.parsers.shell_commands import READ_TOOL, read_paths, shell_read
from squirrel_ingest.parsers.shell_reports import gemini_exit_code, gemini_output
from squirrel_ingest.parsers.speaker import said_events, split_user_text

log = structlog.get_logger()

#: Most message/tool-call keys a JSONL parser or a document cursor remembers.
SEEN_LIMIT = 10_000
_SHELL_TOOLS = HOSTS["gemini_cli"].run
_SHELL_FOLDER_KEYS = ("dir_path", "directory")
_DONE_STATUSES = frozenset({"success", "error", "cancelled"})
_IGNORED_MESSAGE_TYPES = frozenset({"info", "error", "warning"})


@dataclass(frozen=True, slots=True)
class ChatSession:
    """Facts about the chat that every event carries."""

    session_id: str | None
    cwd: str | None
    sidechain: bool
    agent_id: str | None


def opens_transcript(record: dict[str, Any]) -> bool:
    """Whether `record` can open a `.jsonl` Gemini chat: its session line (a `sessionId`, no
    `type`) or a metadata patch (`$set`)."""
    session = isinstance(record.get("sessionId"), str) and "type" not in record
    return session or "$set" in record


class GeminiJsonlParser:
    """Turns the lines of one `.jsonl` Gemini chat (v0.39+) into events, last copy wins.

    A message is appended again each time it changes; its text is emitted the first time it is
    seen and each tool call once it has finished, so a re-appended message never repeats an
    event. `$set` metadata patches are skipped unless they carry a full `messages` checkpoint;
    `$rewindTo` cannot take back events already emitted and is counted.
    """

    def __init__(self, path: str, *, cwd: str | None = None) -> None:
        self.path = path
        self.skipped: Counter[str] = Counter()
        self._cwd = cwd
        self._session = ChatSession(session_id=None, cwd=cwd, sidechain=False, agent_id=None)
        self._seen = SeenKeys(())

    def feed(self, line: bytes, position: SourcePosition) -> list[Event]:
        """Events for one complete JSONL line; bad input is counted in `skipped`, never raised."""
        try:
            return self._feed(line, position)
        except Exception as error:  # a parser bug must not stop ingest of the rest of the file
            self.skipped["internal_error"] += 1
            log.warning("record_parse_failed", source="gemini_cli", error=type(error).__name__)
            return []

    def export_state(self) -> dict[str, Any]:
        """Session facts and the most recent seen keys, for a cursor's `extra`."""
        return {
            "session_id": self._session.session_id,
            "sidechain": self._session.sidechain,
            "agent_id": self._session.agent_id,
            "seen": sorted(self._seen.as_set()) if len(self._seen) < 64 else self._seen.recent(),
        }

    def restore_state(self, state: dict[str, Any]) -> None:
        """Take back what `export_state` returned (unknown shapes are ignored)."""
        self._session = ChatSession(
            session_id=str_or_none(state.get("session_id")),
            cwd=self._cwd,
            sidechain=state.get("sidechain") is True,
            agent_id=str_or_none(state.get("agent_id")),
        )
        seen = state.get("seen")
        if isinstance(seen, list):
            self._seen = SeenKeys(key for key in seen if isinstance(key, str))

    def _feed(self, line: bytes, position: SourcePosition) -> list[Event]:
        record = decode_record(line, self.skipped)
        if record is None:
            return []
        if "$rewindTo" in record:
            self.skipped["rewind"] += 1
            return []
        if "$set" in record:
            patch = record["$set"]
            checkpoint = patch.get("messages") if isinstance(patch, dict) else None
            if not isinstance(checkpoint, list):
                self.skipped["metadata_patch"] += 1
                return []
            events: list[Event] = []
            for message in checkpoint:
                events.extend(
                    message_events_of(message, self._session, position, self._seen, self.skipped)
                )
            return events
        if "id" in record and "type" in record:
            return message_events_of(record, self._session, position, self._seen, self.skipped)
        if isinstance(record.get("sessionId"), str):
            self._session = session_of(record, self.path, self._cwd)
            self.skipped["session_meta"] += 1
            return []
        self.skipped["unknown_record"] += 1
        return []


class SeenKeys:
    """An insertion-ordered set of keys that forgets the oldest beyond `SEEN_LIMIT`."""

    def __init__(self, keys: Iterable[str]) -> None:
        self._keys: dict[str, None] = {}
        for key in keys:
            self.add(key)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, key: str) -> None:
        self._keys[key] = None
        while len(self._keys) > SEEN_LIMIT:
            del self._keys[next(iter(self._keys))]

    def as_set(self) -> set[str]:
        return set(self._keys)

    def recent(self) -> list[str]:
        return list(self._keys)


def load_document(data: bytes, counter: Counter[str]) -> dict[str, Any] | None:
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        counter["malformed_json"] += 1
        return None
    if not isinstance(document, dict):
        counter["not_an_object"] += 1
        return None
    return document


def session_of(metadata: dict[str, Any], path: str, cwd: str | None) -> ChatSession:
    session_id = str_or_none(metadata.get("sessionId"))
    directories = metadata.get("directories")
    if cwd is None and isinstance(directories, list) and directories:
        cwd = str_or_none(directories[0])
    if metadata.get("kind") == "subagent":
        parent = posixpath.basename(posixpath.dirname(path))
        owner = parent if parent and parent != "chats" else session_id
        return ChatSession(session_id=owner, cwd=cwd, sidechain=True, agent_id=session_id)
    return ChatSession(session_id=session_id, cwd=cwd, sidechain=False, agent_id=None)


def message_events_of(
    message: object,
    session: ChatSession,
    position: SourcePosition,
    seen: SeenKeys,
    skipped: Counter[str],
) -> list[Event]:
    try:
        return _message_events(message, session, position, seen, skipped)
    except Exception as error:  # one odd message must not hide the rest of the chat
        skipped["internal_error"] += 1
        log.warning("record_parse_failed", source="gemini_cli", error=type(error).__name__)
        return []


def _message_events(
    message: object,
    session: ChatSession,
    position: SourcePosition,
    seen: SeenKeys,
    skipped: Counter[str],
) -> list[Event]:
    if not isinstance(message, dict):
        skipped["not_an_object"] += 1
        return []
    message_id = str_or_none(message.get("id"))
    kind = message.get("type")
    if message_id is None or not isinstance(kind, str):
        skipped["malformed_message"] += 1
        return []
    kind = "gemini" if kind == "model" else kind
    if kind not in ("user", "gemini"):
        if f"m:{message_id}" not in seen:
            seen.add(f"m:{message_id}")
            reason = f"ignored_{kind}" if kind in _IGNORED_MESSAGE_TYPES else "unknown_message_type"
            skipped[reason] += 1
        return []
    timestamp = parse_timestamp(message.get("timestamp"))
    if timestamp is None:
        skipped["missing_timestamp"] += 1
        return []
    ctx = RecordContext(
        source_tool=SourceTool.GEMINI_CLI,
        timestamp=timestamp,
        position=position,
        session_id=session.session_id,
        cwd=session.cwd,
        sidechain=session.sidechain,
        agent_id=session.agent_id,
    )
    events: list[Event] = []
    key = f"m:{message_id}"
    if key in seen:
        skipped["repeated_message"] += 1
    else:
        seen.add(key)
        events.extend(_text_event(message, kind, ctx, skipped))
    calls = message.get("toolCalls") if kind == "gemini" else None
    if isinstance(calls, list):
        for index, call in enumerate(calls):
            if not isinstance(call, dict):
                skipped["malformed_tool_call"] += 1
                continue
            call_key = f"t:{call_id_of(message_id, index, call)}"
            if call_key in seen or not _finished(call):
                continue
            seen.add(call_key)
            events.extend(_tool_events(call, call_id_of(message_id, index, call), ctx))
    return events


def _text_event(
    message: dict[str, Any], kind: str, ctx: RecordContext, skipped: Counter[str]
) -> list[Event]:
    if kind == "user":
        shown = message.get("displayContent")
        text = text_of(shown) if shown is not None else text_of(message.get("content"))
        text = text or text_of(message.get("parts"))
        if not text.strip():
            skipped["empty_text"] += 1
            return []
        return said_events(ctx, split_user_text(text))
    text = text_of(message.get("content")) or text_of(message.get("parts"))
    event_type = EventType.ASSISTANT_RESPONSE
    content: dict[str, Any] = {
        "text": keep_text(text),
        "message_id": message.get("id"),
        "model": str_or_none(message.get("model")),
    }
    if not text.strip():
        skipped["empty_text"] += 1
        return []
    return [ctx.event(event_type, content, kept=True)]


def call_id_of(message_id: str, index: int, call: object) -> str:
    call_id = call.get("id") if isinstance(call, dict) else None
    return call_id if isinstance(call_id, str) and call_id else f"{message_id}#{index}"


def _finished(call: dict[str, Any]) -> bool:
    status = call.get("status")
    if status is None:
        return call.get("result") is not None
    return isinstance(status, str) and status in _DONE_STATUSES


def _tool_events(call: dict[str, Any], call_id: str, message_ctx: RecordContext) -> list[Event]:
    name = str_or_none(call.get("name")) or "unknown"
    raw_args = call.get("args")
    args: dict[str, Any] = raw_args if isinstance(raw_args, dict) else {}
    timestamp = parse_timestamp(call.get("timestamp"))
    ctx = message_ctx if timestamp is None else replace(message_ctx, timestamp=timestamp)
    raw_paths = [value for key in PATH_KEYS if isinstance(value := args.get(key), str) and value]
    many = args.get("paths")
    if isinstance(many, list):
        raw_paths.extend(value for value in many[:50] if isinstance(value, str) and value)
    paths = tuple(relative_path(path, ctx.cwd) for path in raw_paths)
    command = args.get("command") if name in _SHELL_TOOLS else None
    shell = command if isinstance(command, str) else None
    # The folder it runs in: `dir_path` in later versions, `directory` before.
    folder = next((v for k in _SHELL_FOLDER_KEYS if isinstance(v := args.get(k), str) and v), None)
    where = shell_folder(folder, ctx.cwd) if shell is not None else None
    reported = shell is not None  # the answer is `run_shell_command`'s report
    read = shell_read(shell) if shell is not None else None
    if read is not None:  # only prints one file: that file's read, as Codex's are
        path = shell_folder(read.path, where or ctx.cwd) or read.path
        name, paths, shell, where = READ_TOOL, (relative_path(path, ctx.cwd),), None, None
        args = {"file_path": path, "command": command}
    pending = PendingTool(name=name, command=shell, paths=paths, cwd=where)
    output = _result_text(call)
    status = call.get("status")
    exit_code: int | None = None
    if reported:
        stated = gemini_exit_code(output)
        exit_code = stated if stated is not None else (0 if status == "success" else None)
        output = gemini_output(output)
    shown = len(output.splitlines())
    lines = partial_lines(1, shown, limit=read.line_limit) if read else _lines(name, args, shown)
    is_error = status in ("error", "cancelled") or exit_code not in (None, 0)
    content = {"tool": name, "tool_use_id": call_id, "input": keep_input(args)}
    reads = read_paths(shell, where or ctx.cwd, ctx.cwd) if shell is not None else ()
    if reads:  # `cat a; echo ---; cat b`: a read of each file, its output theirs together
        content["reads"] = list(reads)
    tool_call = ctx.event(EventType.TOOL_CALL, content, (*paths, *reads), kept=True)
    return [
        tool_call,
        *completion_events(
            ctx, call_id, pending, output, is_error=is_error, exit_code=exit_code, read_lines=lines
        ),
    ]


def _lines(name: str, args: dict[str, Any], shown: int) -> tuple[int, int] | None:
    """The lines a `read_file` with an `offset` (0-based) or a `limit` returned when that may
    not be the whole file (its text is not numbered, so only its arguments tell)."""
    if name != READ_TOOL:
        return None
    offset, limit = (args.get(key) for key in ("offset", "limit"))
    first = offset + 1 if isinstance(offset, int) and offset > 0 else 1
    asked = limit if isinstance(limit, int) and limit > 0 else None
    return partial_lines(first, shown, limit=asked)


def _result_text(call: dict[str, Any]) -> str:
    """The tool's answer: `functionResponse.response.output`/`error` parts, else `resultDisplay`."""
    parts: list[str] = []
    result = call.get("result")
    for part in result[:50] if isinstance(result, list) else []:
        function_response = part.get("functionResponse") if isinstance(part, dict) else None
        response = (
            function_response.get("response") if isinstance(function_response, dict) else None
        )
        if isinstance(response, dict):
            for key in ("output", "error"):
                value = response.get(key)
                if isinstance(value, str) and value:
                    parts.append(value)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            parts.append(part["text"])
    if parts:
        return "\n".join(parts)
    display = call.get("resultDisplay")
    return display if isinstance(display, str) else ""
