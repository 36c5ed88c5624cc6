"""Protobuf ⇄ core events and cursors: the wire form every service shares."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from typing import Any

from google.protobuf import struct_pb2, timestamp_pb2

from squirrel.v1 import events_pb2
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.events import Event, EventType, Origin, SourceCursor, SourceTool
from squirrel_core.lone_surrogates import whole_value

SOURCE_TOOLS = {
    events_pb2.SOURCE_TOOL_CLAUDE_CODE: SourceTool.CLAUDE_CODE,
    events_pb2.SOURCE_TOOL_CODEX: SourceTool.CODEX,
    events_pb2.SOURCE_TOOL_GEMINI_CLI: SourceTool.GEMINI_CLI,
    events_pb2.SOURCE_TOOL_GIT: SourceTool.GIT,
    events_pb2.SOURCE_TOOL_MANUAL: SourceTool.MANUAL,
    events_pb2.SOURCE_TOOL_CURSOR: SourceTool.CURSOR,
}
SOURCE_TOOLS_PB = {v: k for k, v in SOURCE_TOOLS.items()}

EVENT_TYPES = {
    events_pb2.EVENT_TYPE_USER_MESSAGE: EventType.USER_MESSAGE,
    events_pb2.EVENT_TYPE_ASSISTANT_RESPONSE: EventType.ASSISTANT_RESPONSE,
    events_pb2.EVENT_TYPE_TOOL_CALL: EventType.TOOL_CALL,
    events_pb2.EVENT_TYPE_TOOL_RESULT: EventType.TOOL_RESULT,
    events_pb2.EVENT_TYPE_CODE_CHANGE: EventType.CODE_CHANGE,
    events_pb2.EVENT_TYPE_COMMAND_RUN: EventType.COMMAND_RUN,
    events_pb2.EVENT_TYPE_TEST_RUN: EventType.TEST_RUN,
    events_pb2.EVENT_TYPE_COMMIT: EventType.COMMIT,
    events_pb2.EVENT_TYPE_COMPACTION_SUMMARY: EventType.COMPACTION_SUMMARY,
    events_pb2.EVENT_TYPE_SESSION_REPOSITORY: EventType.SESSION_REPOSITORY,
}
EVENT_TYPES_PB = {v: k for k, v in EVENT_TYPES.items()}

ORIGINS = {
    events_pb2.EVENT_ORIGIN_TYPED: Origin.TYPED,
    events_pb2.EVENT_ORIGIN_QUEUED: Origin.QUEUED,
    events_pb2.EVENT_ORIGIN_SLASH_COMMAND: Origin.SLASH_COMMAND,
    events_pb2.EVENT_ORIGIN_ANSWER: Origin.ANSWER,
    events_pb2.EVENT_ORIGIN_TOOL_RESULT: Origin.TOOL_RESULT,
    events_pb2.EVENT_ORIGIN_HOOK: Origin.HOOK,
    events_pb2.EVENT_ORIGIN_HARNESS: Origin.HARNESS,
    events_pb2.EVENT_ORIGIN_PARENT_AGENT: Origin.PARENT_AGENT,
    events_pb2.EVENT_ORIGIN_COMPACTION: Origin.COMPACTION,
    events_pb2.EVENT_ORIGIN_ASSISTANT: Origin.ASSISTANT,
    events_pb2.EVENT_ORIGIN_GIT: Origin.GIT,
}
ORIGINS_PB = {v: k for k, v in ORIGINS.items()}


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class EventDecodeError(ValueError):
    """One event of a batch cannot be read; the batch goes on without it."""


def timestamp_pb(value: datetime | None) -> timestamp_pb2.Timestamp:
    ts = timestamp_pb2.Timestamp()
    if value is not None:
        _set_timestamp(ts, value)
    return ts


_SECONDS_MIN = -62_135_596_800  # 0001-01-01, the range a Timestamp may hold
_SECONDS_MAX = 253_402_300_799  # 9999-12-31 23:59:59


def from_timestamp(ts: timestamp_pb2.Timestamp) -> datetime:
    """`ts.ToDatetime(tzinfo=UTC)` without its generic path: the same checks (ValueError out of
    range) and the same value."""
    seconds, nanos = ts.seconds, ts.nanos
    if not _SECONDS_MIN <= seconds <= _SECONDS_MAX or not 0 <= nanos < 1_000_000_000:
        raise ValueError("Timestamp is not valid")
    return _EPOCH + timedelta(seconds=seconds, microseconds=nanos // 1_000)


def _set_timestamp(ts: timestamp_pb2.Timestamp, value: datetime) -> None:
    """`ts.FromDatetime(value)` without its generic path (it is most of an event's encoding)."""
    delta = value.astimezone(UTC) - _EPOCH
    ts.seconds = delta.days * 86_400 + delta.seconds
    ts.nanos = delta.microseconds * 1_000


def struct_to_dict(value: struct_pb2.Struct) -> dict[str, Any]:
    """The JSON object a Struct holds: what `json_format.MessageToDict` gives, read directly
    (the generic converter is several times slower, and every stored event goes through it)."""
    fields = value.fields
    return {key: _plain(fields[key]) for key in fields}


def _plain(value: struct_pb2.Value) -> Any:
    kind = value.WhichOneof("kind")
    if kind == "string_value":
        return value.string_value
    if kind == "struct_value":
        return struct_to_dict(value.struct_value)
    if kind == "list_value":
        return [_plain(item) for item in value.list_value.values]
    if kind == "number_value":
        number = value.number_value
        if math.isinf(number) or math.isnan(number):
            raise ValueError("Infinity and NaN are not JSON numbers")
        return number
    if kind == "bool_value":
        return value.bool_value
    return None


def dict_to_struct(value: dict[str, Any]) -> struct_pb2.Struct:
    out = struct_pb2.Struct()
    out.update(value)
    return out


def _refuse_constant(name: str) -> Any:
    raise EventDecodeError("content_not_json")


# Integers read as doubles, as a Struct holds every number; one decoder (its scanner is built
# once, not per call as `json.loads` with options would).
_CONTENT_DECODER = json.JSONDecoder(parse_int=float, parse_constant=_refuse_constant)


def content_from_json(data: bytes) -> dict[str, Any]:
    """The object of `Event.content_json`, as `struct_to_dict` would give it from a Struct:
    every number a double; NaN, Infinity and anything but an object raise EventDecodeError (a
    number too large for a double reads as infinity, which the store refuses as not JSON)."""
    try:
        value = _CONTENT_DECODER.decode(data.decode("utf-8"))
    except ValueError as exc:  # also UnicodeDecodeError and JSONDecodeError
        if isinstance(exc, EventDecodeError):
            raise
        raise EventDecodeError("content_not_json") from exc
    if not isinstance(value, dict):
        raise EventDecodeError("content_not_object")
    return value


# `json.dumps` with options builds an encoder per call; one encoder keeps no state between calls.
_CONTENT_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def content_to_json(content: dict[str, Any]) -> bytes | None:
    """`content` as `Event.content_json`, or None when only a Struct can carry it as before
    (NaN or Infinity, text that is not UTF-8, a value JSON has no form for)."""
    try:
        return _CONTENT_ENCODER.encode(content).encode("utf-8")
    except (TypeError, ValueError):  # also UnicodeEncodeError
        return None


def event_from_pb(msg: events_pb2.Event) -> Event:
    """A domain event; unknown enums and missing timestamps raise EventDecodeError."""
    tool = SOURCE_TOOLS.get(msg.source_tool)
    if tool is None:
        raise EventDecodeError("unknown_source_tool")
    event_type = EVENT_TYPES.get(msg.event_type)
    if event_type is None:
        raise EventDecodeError("unknown_event_type")
    if not msg.HasField("timestamp"):
        raise EventDecodeError("missing_timestamp")
    origin = ORIGINS.get(msg.origin)
    if origin is None and msg.origin != events_pb2.EVENT_ORIGIN_UNSPECIFIED:
        raise EventDecodeError("unknown_origin")
    return Event(
        source_tool=tool,
        event_type=event_type,
        timestamp=from_timestamp(msg.timestamp),
        content=(
            content_from_json(msg.content_json) if msg.content_json else struct_to_dict(msg.content)
        ),
        session_id=msg.session_id or None,
        cwd=msg.cwd or None,
        file_paths=tuple(msg.file_paths),
        source_version=msg.source_version or None,
        sidechain=msg.sidechain,
        agent_id=msg.agent_id or None,
        origin=origin,
    )


def event_to_pb(event: Event, *, json_content: bool = False) -> events_pb2.Event:
    """The wire form of `event`; with `json_content`, its content travels as `content_json`
    (for a memory service that reads it: this version's own)."""
    msg = events_pb2.Event(
        source_tool=SOURCE_TOOLS_PB[event.source_tool],
        event_type=EVENT_TYPES_PB[event.event_type],
        session_id=event.session_id or "",
        file_paths=list(event.file_paths),
        source_version=event.source_version or "",
        sidechain=event.sidechain,
        agent_id=event.agent_id or "",
        cwd=event.cwd or "",
        origin=ORIGINS_PB[event.origin] if event.origin else events_pb2.EVENT_ORIGIN_UNSPECIFIED,
    )
    # Filled in place: a Struct built apart and passed in would be copied once more.
    msg.timestamp.SetInParent()
    if event.timestamp is not None:
        _set_timestamp(msg.timestamp, event.timestamp)
    content = event.content
    if json_content:
        payload = content_to_json(content)
        if payload is None and (whole := whole_value(content)) != content:
            content = whole  # a lone surrogate, half of an emoji: U+FFFD, as UTF-8 can carry
            payload = content_to_json(content)
        if payload is not None:
            msg.content_json = payload
            return msg
    msg.content.SetInParent()
    try:
        msg.content.update(content)
    except UnicodeEncodeError:
        msg.content.Clear()
        msg.content.update(whole_value(content))
    return msg


def cursor_from_pb(msg: events_pb2.SourceCursor) -> SourceCursor:
    tool = SOURCE_TOOLS.get(msg.source_tool)
    if tool is None or not msg.path:
        raise InvalidArgumentError("every cursor needs a known source_tool and a path")
    if msg.offset < 0:
        raise InvalidArgumentError("cursor offsets cannot be negative")
    return SourceCursor(
        source_tool=tool,
        path=msg.path,
        inode=msg.inode,
        offset=msg.offset,
        extra=struct_to_dict(msg.extra),
    )


def cursor_to_pb(cursor: SourceCursor) -> events_pb2.SourceCursor:
    return events_pb2.SourceCursor(
        source_tool=SOURCE_TOOLS_PB[cursor.source_tool],
        path=cursor.path,
        inode=cursor.inode,
        offset=cursor.offset,
        extra=dict_to_struct(cursor.extra),
    )
