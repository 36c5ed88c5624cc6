"""Gemini CLI chat parser: legacy whole-file `session-*.json` documents and append-only `.jsonl`."""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import structlog

from squirrel_core.events import Event, EventType, SourcePosition, SourceTool
from squirrel_core.timestamps import parse_timestamp
from squirrel_ingest.parsers.base import (
    PendingTool,
    RecordContext,
    cap_text,
    cap_value,
    completion_events,
    decode_record,
    relative_path,
    shell_folder,
    str_or_none,
    text_of,
)
from squirrel_ingest.parsers.classify import PATH_KEYS
from squirrel_ingest.parsers.speaker import said_events, split_user_text

log = structlog.get_logger()

#: Most message/tool-call keys a JSONL parser or a document cursor remembers.
SEEN_LIMIT = 10_000
_SHELL_TOOLS = frozenset({"run_shell_command", "shell"})
_DONE_STATUSES = frozenset({"success", "error", "cancelled"})
_IGNORED_MESSAGE_TYPES = frozenset({"info", "error", "warning"})
_EXIT_CODE = re.compile(r"Exit Code: (-?\d{1,9})\b")
# The report `run_shell_command` wraps a command's output in: `Command:` and `Directory:` lines,
# the output (`Output:`, or `Stdout:` then `Stderr:`), then one line each of these.
_REPORT_TAIL = ("Error: ", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: ")
_REPORT_STREAMS = ("Output: ", "Stdout: ", "Stderr: ")
_NOTHING = frozenset({"(empty)", "(none)", ""})


@dataclass(frozen=True, slots=True)
class _Session:
    """Facts about the chat that every event carries."""

    session_id: str | None
    cwd: str | None
    sidechain: bool
    agent_id: str | None


def message_keys(message: dict[str, Any]) -> list[str]:
    """The seen-set keys of one message: `m:<id>` plus `t:<id>` for each of its tool calls."""
    message_id = message.get("id")
    if not isinstance(message_id, str):
        return []
    keys = [f"m:{message_id}"]
    calls = message.get("toolCalls")
    if isinstance(calls, list):
        keys.extend(f"t:{_call_id(message_id, index, call)}" for index, call in enumerate(calls))
    return keys


def parse_gemini_json_document(
    data: bytes,
    path: str,
    inode: int,
    already_seen_ids: set[str],
    *,
    cwd: str | None = None,
    skipped: Counter[str] | None = None,
) -> tuple[list[Event], set[str]]:
    """Events for the messages of a legacy `session-*.json` not seen in earlier reads of it.

    The file is rewritten in full on every update; `already_seen_ids` (from the previous call,
    or from `seen_ids_from_cursor`) holds `m:<message id>` and `t:<tool call id>` keys. A tool
    call is emitted once it has finished (success, error or cancelled). Returns the events and
    the new seen set. Never raises: an unreadable document yields no events and the old set.
    """
    counter = skipped if skipped is not None else Counter()
    document = _load_document(data, counter)
    if document is None:
        return [], set(already_seen_ids)
    messages = document.get("messages")
    if not isinstance(messages, list):
        counter["missing_messages"] += 1
        return [], set(already_seen_ids)
    session = _session_of(document, path, cwd)
    position = SourcePosition(path=path, inode=inode, end_offset=len(data))
    seen = _SeenKeys(already_seen_ids)
    events: list[Event] = []
    for message in messages:
        events.extend(_safe_message_events(message, session, position, seen, counter))
    return events, seen.as_set()


def cursor_extra_for_document(data: bytes, seen_ids: set[str]) -> dict[str, Any]:
    """A bounded form of `seen_ids` for `SourceCursor.extra`.

    Stores how many leading messages are fully done and the id of the last of them, plus the
    seen keys of the messages after that (usually only the last one or two).
    """
    document = _load_document(data, Counter())
    messages = document.get("messages") if document else None
    if not isinstance(messages, list):
        return {"gemini_done_count": 0, "gemini_done_last_id": None, "gemini_tail_seen": []}
    done = 0
    for message in messages:
        keys = message_keys(message) if isinstance(message, dict) else []
        if not keys or any(key not in seen_ids for key in keys):
            break
        done += 1
    last_id = messages[done - 1].get("id") if done else None
    tail = [
        key
        for message in messages[done:]
        if isinstance(message, dict)
        for key in message_keys(message)
    ]
    return {
        "gemini_done_count": done,
        "gemini_done_last_id": last_id,
        "gemini_tail_seen": [key for key in tail if key in seen_ids][-SEEN_LIMIT:],
    }


def seen_ids_from_cursor(data: bytes, extra: dict[str, Any]) -> set[str]:
    """Rebuild the seen set for the current document from `cursor_extra_for_document` output.

    If the done prefix no longer ends where it did (the chat was rewound or replaced), every
    message up to the last remembered id still counts as seen.
    """
    tail = extra.get("gemini_tail_seen")
    seen = {key for key in tail if isinstance(key, str)} if isinstance(tail, list) else set()
    document = _load_document(data, Counter())
    messages = document.get("messages") if document else None
    count = extra.get("gemini_done_count")
    last_id = extra.get("gemini_done_last_id")
    if not isinstance(messages, list) or not isinstance(count, int) or not isinstance(last_id, str):
        return seen
    ids = [message.get("id") if isinstance(message, dict) else None for message in messages]
    if 0 < count <= len(ids) and ids[count - 1] == last_id:
        upto = count
    elif last_id in ids:
        upto = ids.index(last_id) + 1
    else:
        return seen
    for message in messages[:upto]:
        if isinstance(message, dict):
            seen.update(message_keys(message))
    return seen


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
        self._session = _Session(session_id=None, cwd=cwd, sidechain=False, agent_id=None)
        self._seen = _SeenKeys(())

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
        self._session = _Session(
            session_id=str_or_none(state.get("session_id")),
            cwd=self._cwd,
            sidechain=state.get("sidechain") is True,
            agent_id=str_or_none(state.get("agent_id")),
        )
        seen = state.get("seen")
        if isinstance(seen, list):
            self._seen = _SeenKeys(key for key in seen if isinstance(key, str))

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
                    _safe_message_events(message, self._session, position, self._seen, self.skipped)
                )
            return events
        if "id" in record and "type" in record:
            return _safe_message_events(record, self._session, position, self._seen, self.skipped)
        if isinstance(record.get("sessionId"), str):
            self._session = _session_of(record, self.path, self._cwd)
            self.skipped["session_meta"] += 1
            return []
        self.skipped["unknown_record"] += 1
        return []


class _SeenKeys:
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


def _load_document(data: bytes, counter: Counter[str]) -> dict[str, Any] | None:
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        counter["malformed_json"] += 1
        return None
    if not isinstance(document, dict):
        counter["not_an_object"] += 1
        return None
    return document


def _session_of(metadata: dict[str, Any], path: str, cwd: str | None) -> _Session:
    session_id = str_or_none(metadata.get("sessionId"))
    directories = metadata.get("directories")
    if cwd is None and isinstance(directories, list) and directories:
        cwd = str_or_none(directories[0])
    if metadata.get("kind") == "subagent":
        parent = posixpath.basename(posixpath.dirname(path))
        owner = parent if parent and parent != "chats" else session_id
        return _Session(session_id=owner, cwd=cwd, sidechain=True, agent_id=session_id)
    return _Session(session_id=session_id, cwd=cwd, sidechain=False, agent_id=None)


def _safe_message_events(
    message: object,
    session: _Session,
    position: SourcePosition,
    seen: _SeenKeys,
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
    session: _Session,
    position: SourcePosition,
    seen: _SeenKeys,
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
            call_key = f"t:{_call_id(message_id, index, call)}"
            if call_key in seen or not _finished(call):
                continue
            seen.add(call_key)
            events.extend(_tool_events(call, _call_id(message_id, index, call), ctx))
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
        "text": cap_text(text),
        "message_id": message.get("id"),
        "model": str_or_none(message.get("model")),
    }
    if not text.strip():
        skipped["empty_text"] += 1
        return []
    return [ctx.event(event_type, content)]


def _call_id(message_id: str, index: int, call: object) -> str:
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
    where = shell_folder(args.get("directory"), ctx.cwd) if shell is not None else None
    pending = PendingTool(name=name, command=shell, paths=paths, cwd=where)
    output = _result_text(call)
    status = call.get("status")
    exit_code: int | None = None
    if pending.command is not None:
        match = _EXIT_CODE.search(output)
        exit_code = int(match.group(1)) if match else (0 if status == "success" else None)
        output = shell_output(output)
    is_error = status in ("error", "cancelled") or exit_code not in (None, 0)
    tool_call = ctx.event(
        EventType.TOOL_CALL, {"tool": name, "tool_use_id": call_id, "input": cap_value(args)}, paths
    )
    return [
        tool_call,
        *completion_events(ctx, call_id, pending, output, is_error=is_error, exit_code=exit_code),
    ]


def shell_output(report: str) -> str:
    """What the command printed, out of the report `run_shell_command` answers with (as a
    shell tool's result reads elsewhere: the output itself, then an `Error:` that is not
    `(none)`); any other text is returned unchanged."""
    lines = report.split("\n")
    if not lines[0].startswith("Command: "):
        return report
    start = 2 if len(lines) > 1 and lines[1].startswith("Directory: ") else 1
    end = len(lines)
    while end > start and lines[end - 1].startswith(_REPORT_TAIL):
        end -= 1
    body = lines[start:end]
    if end == len(lines) or not body or not body[0].startswith(_REPORT_STREAMS):
        return report
    parts: list[list[str]] = []
    for line in body:
        label = next((name for name in _REPORT_STREAMS if line.startswith(name)), None)
        if label is not None and (not parts or label != "Output: "):
            parts.append([line[len(label) :]])
        else:
            parts[-1].append(line)
    texts = ["\n".join(part) for part in parts]
    errors = [line[len("Error: ") :] for line in lines[end:] if line.startswith("Error: ")]
    kept = [text for text in [*texts, *errors] if text.strip() not in _NOTHING]
    return "\n".join(kept)


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


class GeminiDocumentParser:
    """A legacy whole-file Gemini chat as the engine reads it: each read parses the whole
    document and yields only messages not seen before; the seen set travels in the cursor."""

    def __init__(self, *, cwd: str | None = None) -> None:
        self.skipped: Counter[str] = Counter()
        self._cwd = cwd
        self._seen: set[str] = set()
        self._restored: dict[str, Any] | None = None
        self._data = b""

    def parse_document(self, data: bytes, position: SourcePosition) -> list[Event]:
        if self._restored is not None:
            self._seen = seen_ids_from_cursor(data, self._restored)
            self._restored = None
        events, self._seen = parse_gemini_json_document(
            data, position.path, position.inode, self._seen, cwd=self._cwd, skipped=self.skipped
        )
        self._data = data
        return events

    def export_state(self) -> dict[str, Any]:
        return cursor_extra_for_document(self._data, self._seen)

    def restore_state(self, state: dict[str, Any]) -> None:
        self._restored = dict(state)
