"""What `sqrl remember`, `forget`, `confirm` and `history` print, made from the memory service's
replies.

The CLI asks local memory itself, or (on a laptop joined to a team) the gateway, which asks the
team server; both turn the reply into the same plain data here, and the CLI prints that data,
so the two ways cannot drift apart. Only JSON types come out.
"""

from __future__ import annotations

from typing import Any, Final

from squirrel.v1 import events_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.read_shapes import memory_row
from squirrel_core.wire import EVENT_TYPES, ORIGINS

REMEMBER_OUTCOMES: Final = {
    pb.REMEMBER_OUTCOME_ADDED: "added",
    pb.REMEMBER_OUTCOME_UPDATED: "updated",
    pb.REMEMBER_OUTCOME_MERGED: "merged",
    pb.REMEMBER_OUTCOME_UNCHANGED: "unchanged",
}


def remember_output(reply: pb.RememberResponse) -> dict[str, Any]:
    """`sqrl remember --json`: the memory, what happened to it, what it merged with."""
    return {
        "memory": memory_row(reply.memory),
        "outcome": REMEMBER_OUTCOMES.get(reply.outcome, "added"),
        "merged_ids": list(reply.merged_ids),
        "updated": reply.updated,
    }


def forget_output(reply: pb.ForgetResponse) -> dict[str, Any]:
    """`sqrl forget --json`: the memory, and whether it had been forgotten already (then
    nothing changed)."""
    return {"memory": memory_row(reply.memory), "already_forgotten": reply.already_forgotten}


def history_output(reply: pb.GetMemoryHistoryResponse) -> dict[str, Any]:
    """`sqrl history --json`: the memory, its versions (oldest first), its source events."""
    versions: list[dict[str, Any]] = [
        {
            "version": v.version,
            "action": v.action,
            "content": v.content,
            "changed_at": v.changed_at.ToDatetime().isoformat() + "Z",
            "reason": v.reason,
            "source_event_ids": list(v.source_event_ids),
            "source_refs": list(v.source_refs),
            "written_by": v.written_by or None,
            "writers": list(v.writers),
            "superseded_by": v.superseded_by or None,
        }
        for v in reply.versions
    ]
    return {
        "memory": memory_row(reply.memory),
        "versions": versions,
        "source_events": [source_event_row(e) for e in reply.source_events],
    }


def source_event_row(event: events_pb2.SourceEventRef) -> dict[str, Any]:
    """A memory's source event for display: what it was, when, and who said it."""
    origin = ORIGINS.get(event.origin)
    kind = EVENT_TYPES.get(event.event_type)
    return {
        "event_id": event.event_id,
        "event_type": str(kind) if kind else "unknown",
        "origin": str(origin) if origin else "unknown",
        "timestamp": event.timestamp.ToDatetime().isoformat() + "Z",
        "session_id": event.session_id or None,
        "sidechain": event.sidechain,
        "agent_id": event.agent_id or None,
        "user_id": event.user_id or None,
        "machine": event.machine or None,
    }
