"""Protobuf ⇄ domain records for the memory service; the servicer's only translation layer."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from squirrel.v1 import events_pb2, memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.caller import team_user
from squirrel_core.errors import InvalidArgumentError, PermissionDeniedError, SquirrelError
from squirrel_core.events import EventType, SourceTool, parse_origin
from squirrel_core.hazards import flags_of
from squirrel_core.list_pages import list_page_offset, list_page_token
from squirrel_core.redaction import redact
from squirrel_core.wire import (
    EVENT_TYPES_PB,
    ORIGINS_PB,
    SOURCE_TOOLS,
    SOURCE_TOOLS_PB,
    from_timestamp,
    timestamp_pb,
)
from squirrel_memory.models import (
    MemoryItem,
    MemorySource,
    MemoryType,
    MemoryVersion,
    RememberOutcome,
    Scope,
    StoredEvent,
)
from squirrel_memory.storage.outcome_log import OutcomeEvent, ServedRecord
from squirrel_memory.user_memories.manual import Remembered, Statement

if TYPE_CHECKING:
    from squirrel_memory.outcomes.judge import OutcomeReport
    from squirrel_memory.status import ProjectStatus

MEMORY_TYPES = {
    memory_pb2.MEMORY_TYPE_USER_STYLE: MemoryType.USER_STYLE,
    memory_pb2.MEMORY_TYPE_PROJECT_FACT: MemoryType.PROJECT_FACT,
    memory_pb2.MEMORY_TYPE_PITFALL: MemoryType.PITFALL,
    memory_pb2.MEMORY_TYPE_RECIPE: MemoryType.RECIPE,
}
MEMORY_TYPES_PB = {v: k for k, v in MEMORY_TYPES.items()}

_SCOPES = {memory_pb2.MEMORY_SCOPE_USER: Scope.USER, memory_pb2.MEMORY_SCOPE_PROJECT: Scope.PROJECT}
_SCOPES_PB = {v: k for k, v in _SCOPES.items()}

_SOURCES = {
    memory_pb2.MEMORY_SOURCE_RULES: MemorySource.RULES,
    memory_pb2.MEMORY_SOURCE_LLM: MemorySource.LLM,
    memory_pb2.MEMORY_SOURCE_MANUAL: MemorySource.MANUAL,
}
_SOURCES_PB = {v: k for k, v in _SOURCES.items()}


_OUTCOMES_PB = {
    RememberOutcome.ADDED: pb.REMEMBER_OUTCOME_ADDED,
    RememberOutcome.UPDATED: pb.REMEMBER_OUTCOME_UPDATED,
    RememberOutcome.MERGED: pb.REMEMBER_OUTCOME_MERGED,
    RememberOutcome.UNCHANGED: pb.REMEMBER_OUTCOME_UNCHANGED,
}


def remember_outcome_to_pb(outcome: RememberOutcome) -> pb.RememberOutcome.ValueType:
    return _OUTCOMES_PB[outcome]


def memory_type_from_pb(value: int) -> MemoryType:
    found = MEMORY_TYPES.get(value)  # type: ignore[call-overload]
    found = found if isinstance(found, MemoryType) else None
    if found is None:
        raise InvalidArgumentError("type must be one of user_style, project_fact, pitfall, recipe")
    return found


def memory_types_from_pb(values: Any) -> list[MemoryType] | None:
    types = [memory_type_from_pb(v) for v in values]
    return types or None


def scope_from_pb(value: int, memory_type: MemoryType) -> Scope:
    found = _SCOPES.get(value)  # type: ignore[call-overload]
    if isinstance(found, Scope):
        return found
    return Scope.USER if memory_type is MemoryType.USER_STYLE else Scope.PROJECT


def source_from_pb(value: int) -> MemorySource | None:
    found = _SOURCES.get(value)  # type: ignore[call-overload]
    return found if isinstance(found, MemorySource) else None


def memory_to_pb(item: MemoryItem, *, confirmed: bool = False) -> memory_pb2.MemoryItem:
    """The wire form of a memory, with its hazard flags (`squirrel_core.hazards`)."""
    flags = flags_of(item.content)
    return memory_pb2.MemoryItem(
        flags=list(flags),
        confirmed=confirmed and bool(flags),
        memory_id=item.id,
        project_id=item.project_id,
        user_id=item.user_id or "",
        scope=_SCOPES_PB[item.scope],
        type=MEMORY_TYPES_PB[item.type],
        key=item.key,
        content=item.content,
        tags=list(item.tags),
        importance=item.importance,
        created_at=timestamp_pb(item.created_at),
        updated_at=timestamp_pb(item.updated_at),
        source=_SOURCES_PB[item.source],
        file_paths=list(item.file_paths),
        source_episode_id=item.source_episode_id or "",
        source_event_ids=list(item.source_event_ids),
        deleted=item.deleted,
        superseded_by=item.superseded_by or "",
        version=item.version,
        source_refs=list(item.source_refs),
        written_by=item.written_by or str(item.source),
        writers=list(item.writers),
    )


def version_to_pb(version: MemoryVersion) -> memory_pb2.MemoryVersion:
    return memory_pb2.MemoryVersion(
        memory_id=version.memory_id,
        version=version.version,
        action=version.action,
        content=version.content,
        tags=list(version.tags),
        importance=version.importance,
        changed_at=timestamp_pb(version.changed_at),
        reason=version.reason,
        source_event_ids=list(version.source_event_ids),
        superseded_by=version.superseded_by or "",
        source_refs=list(version.source_refs),
        written_by=version.written_by,
        writers=list(version.writers),
    )


def source_event_to_pb(event: StoredEvent) -> events_pb2.SourceEventRef:
    """A stored event as a memory's source: its kind, when, and who said it (no content)."""
    try:
        event_type = EVENT_TYPES_PB[EventType(event.event_type)]
    except ValueError:
        event_type = events_pb2.EVENT_TYPE_UNSPECIFIED
    try:
        source_tool = SOURCE_TOOLS_PB[SourceTool(event.source_tool)]
    except ValueError:
        source_tool = events_pb2.SOURCE_TOOL_UNSPECIFIED
    return events_pb2.SourceEventRef(
        event_id=event.id,
        event_type=event_type,
        origin=ORIGINS_PB[parse_origin(event.origin, event.event_type)],
        timestamp=timestamp_pb(event.timestamp),
        session_id=event.session_id or "",
        source_tool=source_tool,
        sidechain=event.sidechain,
        agent_id=event.agent_id or "",
        excerpt=event_excerpt(event),
        user_id=event.user_id,
        machine=str(event.content.get("machine") or ""),
    )


EXCERPT_CHARS: Final = 400
_EXCERPT_FIELDS: Final = ("text", "command", "error", "output", "content")


def event_excerpt(event: StoredEvent) -> str:
    """The start of what an event said, redacted, at most `EXCERPT_CHARS` characters."""
    found = ""
    for name in _EXCERPT_FIELDS:
        value = event.content.get(name)
        if isinstance(value, str) and value.strip():
            found = value
            break
    if not found and event.content:
        found = json.dumps(event.content, ensure_ascii=False, sort_keys=True)
    clipped = found[: EXCERPT_CHARS * 2]
    return redact(clipped)[0][:EXCERPT_CHARS]


def statement_from_pb(project_id: str, item: pb.RememberRequest) -> Statement | SquirrelError:
    """One item of a `RememberMany` as a statement, or the error it alone would get. On a team
    server the item is the caller's own: another user named in it is refused, none means them."""
    if item.project_id and item.project_id != project_id:
        return InvalidArgumentError("an item's project_id must be empty or the request's")
    caller = team_user()
    if caller is not None and item.user_id and item.user_id != caller:
        return PermissionDeniedError(
            "this token's user cannot act as another user (leave user_id empty)"
        )
    try:
        memory_type = memory_type_from_pb(item.type)
    except SquirrelError as exc:
        return exc
    return Statement(
        user_id=caller or item.user_id,
        memory_type=memory_type,
        key=item.key,
        content=item.content,
        tags=tuple(item.tags),
        importance=item.importance,
        scope=scope_from_pb(item.scope, memory_type),
        file_paths=tuple(item.file_paths),
    )


def encode_offset(offset: int) -> str:
    return list_page_token(offset)


def decode_offset(token: str) -> int:
    try:
        return list_page_offset(token)
    except ValueError:
        raise InvalidArgumentError("page_token is not one this service issued") from None


def source_tool_name(value: int) -> str | None:
    """`claude_code`, `codex`, … for a filter on the wire; None for UNSPECIFIED."""
    if value == events_pb2.SOURCE_TOOL_UNSPECIFIED:
        return None
    tool = SOURCE_TOOLS.get(events_pb2.SourceTool.ValueType(value))
    if tool is None:
        raise InvalidArgumentError(f"unknown source_tool {value}")
    return str(tool)


def remember_response(done: Remembered) -> pb.RememberResponse:
    return pb.RememberResponse(
        memory=memory_to_pb(done.memory),
        updated=done.outcome is RememberOutcome.UPDATED or done.memory.id in done.merged_ids,
        outcome=remember_outcome_to_pb(done.outcome),
        merged_ids=list(done.merged_ids),
    )


def project_status_to_pb(
    s: ProjectStatus, *, vectors_pending: int, outcomes: pb.OutcomeSummary, team: dict[str, Any]
) -> pb.ProjectProcessingStatus:
    """One project's processing status on the wire (`team`: its delivery to a team server)."""
    return pb.ProjectProcessingStatus(
        project_id=s.project_id,
        events_total=s.events_total,
        events_unprocessed=s.events_unprocessed,
        episodes_total=s.episodes_total,
        memories_live=s.memories_live,
        memories_deleted=s.memories_deleted,
        dead_letters=s.dead_letters,
        last_processed_at=timestamp_pb(s.last_processed_at),
        extractor=s.extractor,
        next_processing_at=timestamp_pb(s.next_processing_at),
        memories_by_writer=s.memories_by_writer,
        parked=[
            pb.DeadLetter(
                kind=d.kind,
                payload_ref=d.payload_ref,
                error=d.error,
                attempts=d.attempts,
                updated_at=timestamp_pb(d.updated_at),
            )
            for d in s.parked
        ],
        events_per_day=s.events_per_day,
        vectors_pending=vectors_pending,
        outcomes=outcomes,
        write_failure=s.write_failure,
        write_failed_at=timestamp_pb(s.write_failed_at),
        **team,
    )


def outcome_summary_to_pb(report: OutcomeReport) -> pb.OutcomeSummary:
    c = report.counts
    return pb.OutcomeSummary(
        sessions=c.sessions,
        served=c.served,
        used=c.used,
        missed=c.missed,
        contradicted=c.contradicted,
        unused=c.unused,
        pending=c.pending,
        stale=report.stale,
    )


def outcome_to_pb(outcome: OutcomeEvent) -> pb.MemoryOutcome:
    """One judged outcome of a memory, with when and where it was served."""
    return pb.MemoryOutcome(
        session_id=outcome.session_id,
        outcome=outcome.outcome,
        version=outcome.version,
        served_at=timestamp_pb(outcome.served_at),
        judged_at=timestamp_pb(outcome.judged_at),
        channel=outcome.channel,
    )


def served_from_pb(request: pb.RecordServedMemoriesRequest, now: datetime) -> list[ServedRecord]:
    """The memories a session was served, each at its own time (`now` when it has none)."""
    return [
        ServedRecord(
            request.session_id,
            m.memory_id,
            from_timestamp(m.served_at) if m.HasField("served_at") else now,
            m.channel,
        )
        for m in request.memories
    ]
