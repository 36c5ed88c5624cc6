"""Checks on what callers hand the store: events, cursors, memory fields, limits."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.events import Event, EventType, Origin, SourceCursor, SourceTool
from squirrel_memory.models import MemoryCandidate, MemoryType, Scope
from squirrel_memory.storage.formats import to_json

MAX_CONTENT_BYTES = 512 * 1024
MAX_SESSION_ID_CHARS = 512
MAX_PATH_CHARS = 4096
MAX_FILE_PATHS = 1000
MAX_KEY_CHARS = 512
MAX_MEMORY_CHARS = 16_000
MAX_TAGS = 64
MAX_LINKED_IDS = 500
MAX_SOURCE_REFS = 50
MAX_PAGE = 1000
#: A parked failure's error text is kept to this many characters.
MAX_ERROR_CHARS = 2000
EARLIEST_EVENT = datetime(2000, 1, 1, tzinfo=UTC)
FUTURE_SLACK = timedelta(days=1)
SQL_CHUNK = 500
IN_IDS = "IN (SELECT value FROM json_each(?))"

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


class RejectReason(StrEnum):
    """Why one event of a batch was not stored (the rest of the batch is unaffected)."""

    NOT_AN_EVENT = "not_an_event"
    UNKNOWN_SOURCE_TOOL = "unknown_source_tool"
    UNKNOWN_EVENT_TYPE = "unknown_event_type"
    UNKNOWN_ORIGIN = "unknown_origin"
    AGENT_ID_INVALID = "agent_id_invalid"
    TIMESTAMP_INVALID = "timestamp_invalid"
    TIMESTAMP_OUT_OF_RANGE = "timestamp_out_of_range"
    SESSION_ID_INVALID = "session_id_invalid"
    FILE_PATHS_INVALID = "file_paths_invalid"
    CONTENT_NOT_OBJECT = "content_not_object"
    CONTENT_NOT_JSON = "content_not_json"
    CONTENT_TOO_LARGE = "content_too_large"


def encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_event(
    event: object, *, now: datetime, max_content_bytes: int = MAX_CONTENT_BYTES
) -> tuple[RejectReason | None, str]:
    """Validate one event; return (reason, "") when rejected or (None, content_json)."""
    if not isinstance(event, Event):
        return RejectReason.NOT_AN_EVENT, ""
    try:
        SourceTool(event.source_tool)
    except ValueError:
        return RejectReason.UNKNOWN_SOURCE_TOOL, ""
    try:
        EventType(event.event_type)
    except ValueError:
        return RejectReason.UNKNOWN_EVENT_TYPE, ""
    if event.origin is not None:
        try:
            Origin(event.origin)
        except ValueError:
            return RejectReason.UNKNOWN_ORIGIN, ""
    agent = event.agent_id
    if agent is not None and (
        not isinstance(agent, str) or len(agent) > MAX_SESSION_ID_CHARS or not encodable(agent)
    ):
        return RejectReason.AGENT_ID_INVALID, ""
    if not isinstance(event.timestamp, datetime):
        return RejectReason.TIMESTAMP_INVALID, ""
    stamp = event.timestamp
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    if not EARLIEST_EVENT <= stamp <= now + FUTURE_SLACK:
        return RejectReason.TIMESTAMP_OUT_OF_RANGE, ""
    session = event.session_id
    if session is not None and (
        not isinstance(session, str)
        or not session
        or len(session) > MAX_SESSION_ID_CHARS
        or not encodable(session)
    ):
        return RejectReason.SESSION_ID_INVALID, ""
    paths = event.file_paths
    if (
        not isinstance(paths, tuple | list)
        or len(paths) > MAX_FILE_PATHS
        or not all(
            isinstance(p, str) and 0 < len(p) <= MAX_PATH_CHARS and encodable(p) for p in paths
        )
    ):
        return RejectReason.FILE_PATHS_INVALID, ""
    if not isinstance(event.content, dict):
        return RejectReason.CONTENT_NOT_OBJECT, ""
    try:
        content_json = to_json(event.content)
        size = len(content_json.encode("utf-8"))
    except (TypeError, ValueError, RecursionError):
        return RejectReason.CONTENT_NOT_JSON, ""
    if size > max_content_bytes:
        return RejectReason.CONTENT_TOO_LARGE, ""
    return None, content_json


def check_cursor(cursor: object) -> SourceCursor:
    if not isinstance(cursor, SourceCursor):
        raise InvalidArgumentError("cursors must be SourceCursor values")
    try:
        SourceTool(cursor.source_tool)
    except ValueError as exc:
        raise InvalidArgumentError("cursor has an unknown source_tool") from exc
    if not isinstance(cursor.path, str) or not cursor.path or not encodable(cursor.path):
        raise InvalidArgumentError("cursor path must be a non-empty string")
    for name in ("inode", "offset"):
        value = getattr(cursor, name)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**63:
            raise InvalidArgumentError(f"cursor {name} must be a non-negative integer")
    if not isinstance(cursor.extra, dict):
        raise InvalidArgumentError("cursor extra must be a dict")
    try:
        to_json(cursor.extra).encode("utf-8")
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidArgumentError("cursor extra must be JSON-serialisable") from exc
    return cursor


def check_text(name: str, value: object, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgumentError(f"{name} must be a non-empty string")
    if len(value) > limit:
        raise InvalidArgumentError(f"{name} is longer than {limit} characters")
    if not encodable(value):
        raise InvalidArgumentError(f"{name} is not valid Unicode text")
    return value


def check_view_meta(name: str, events_count_at_gen: int, ttl: int) -> None:
    """A view's staleness record: a view name and two non-negative integer counts."""
    check_text("view name", name, MAX_KEY_CHARS)
    for label, value in (("events_count_at_gen", events_count_at_gen), ("ttl", ttl)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidArgumentError(f"{label} must be a non-negative integer")


def dead_letter_error(kind: str, payload_ref: str, error: str) -> str:
    """The checked kind and reference of parked work; returns its error as stored (cut to
    `MAX_ERROR_CHARS`)."""
    check_text("kind", kind, MAX_KEY_CHARS)
    check_text("payload_ref", payload_ref, MAX_PATH_CHARS)
    return str(error)[:MAX_ERROR_CHARS]


def check_importance(value: object) -> float:
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not 0.0 <= value <= 1.0
    ):
        raise InvalidArgumentError("importance must be a number from 0.0 to 1.0")
    return float(value)


def check_tags(tags: object) -> tuple[str, ...]:
    if isinstance(tags, str) or not isinstance(tags, Sequence):
        raise InvalidArgumentError("tags must be a list of strings")
    if len(tags) > MAX_TAGS:
        raise InvalidArgumentError(f"at most {MAX_TAGS} tags")
    out: list[str] = []
    for tag in tags:
        text = check_text("tag", tag, MAX_KEY_CHARS).strip()
        if text not in out:
            out.append(text)
    return tuple(out)


def check_strings(name: str, values: object) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InvalidArgumentError(f"{name} must be a list of strings")
    return tuple(check_text(name, v, MAX_PATH_CHARS) for v in values)


def check_scope(scope: object, user_id: object) -> tuple[Scope, str | None]:
    try:
        checked = Scope(scope)  # type: ignore[arg-type]
    except ValueError as exc:
        raise InvalidArgumentError("scope must be 'user' or 'project'") from exc
    if checked is Scope.PROJECT:
        return checked, None
    return checked, check_text("user_id", user_id, MAX_KEY_CHARS)


def check_writer(user_id: object) -> str | None:
    """Who states a manual memory: a user id, or None when the call names no one."""
    if user_id is None or user_id == "":
        return None
    return check_text("user_id", user_id, MAX_KEY_CHARS).strip() or None


def check_type(value: object) -> MemoryType:
    try:
        return MemoryType(value)  # type: ignore[arg-type]
    except ValueError as exc:
        raise InvalidArgumentError("unknown memory type") from exc


def check_candidate(candidate: object) -> MemoryCandidate:
    if not isinstance(candidate, MemoryCandidate):
        raise InvalidArgumentError("decision.candidate must be a MemoryCandidate")
    check_type(candidate.type)
    check_text("key", candidate.key, MAX_KEY_CHARS)
    check_text("content", candidate.content, MAX_MEMORY_CHARS)
    check_tags(candidate.tags)
    check_importance(candidate.importance)
    check_strings("file_paths", candidate.file_paths)
    check_strings("source_event_ids", candidate.source_event_ids)
    check_strings("source_refs", candidate.source_refs)
    return candidate


def check_limit(limit: object) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_PAGE:
        raise InvalidArgumentError(f"limit must be an integer from 1 to {MAX_PAGE}")
    return limit


def check_offset(offset: object) -> int:
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise InvalidArgumentError("offset must be a non-negative integer")
    return offset


def check_project(expected: str, given: str) -> None:
    """Raise `InvalidArgumentError` unless `given` is the store's project id."""
    if given != expected:
        raise InvalidArgumentError("project_id does not match this store")


def chunks(values: Sequence[str], size: int = SQL_CHUNK) -> Iterator[Sequence[str]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]
