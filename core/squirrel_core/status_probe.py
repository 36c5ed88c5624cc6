"""What `sqrl status` asks the services over gRPC: health, memory counts, ingest counters.

Asked by the CLI itself, or for it by the gateway (`squirrel_gateway.cli_http`, one loopback
HTTP call instead of a gRPC client in the CLI); either way the answer is this module's plain
data (JSON types only), so `sqrl status` prints the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from datetime import UTC
from typing import Any, Final

import grpc

from squirrel.v1 import events_pb2
from squirrel.v1 import ingest_service_pb2 as ipb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import (
    IngestClient,
    MemoryClient,
    channel_health,
    open_channel,
    target_of,
)
from squirrel_core.errors import SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.read_shapes import OUTCOME_SESSIONS
from squirrel_core.service_info import LOOPBACK

COUNTS_TIMEOUT: Final = 3.0
SOURCE_NAMES: Final = {
    events_pb2.SOURCE_TOOL_CLAUDE_CODE: "claude_code",
    events_pb2.SOURCE_TOOL_CODEX: "codex",
    events_pb2.SOURCE_TOOL_GEMINI_CLI: "gemini_cli",
    events_pb2.SOURCE_TOOL_CURSOR: "cursor",
    events_pb2.SOURCE_TOOL_GIT: "git",
}

Probe = tuple[dict[str, str], dict[str, dict[str, Any]], dict[str, Any] | None]
"""Health per service name, counts per project ({} when memory is not reachable), ingest's
counters (None when ingest is not reachable)."""


HEALTH_TIMEOUT_SECONDS = 3.0
"""How long a health check may take before a service is called UNREACHABLE: a service busy
starting up on a loaded machine answers late, and `sqrl status` must not call it down."""


class _Channels:
    """One channel per service for the whole probe: its health check and its status call share
    it, and every call is made at the same time."""

    def __init__(self) -> None:
        self._open: dict[str, grpc.aio.Channel] = {}

    def to(self, target: str) -> grpc.aio.Channel:
        if target not in self._open:
            self._open[target] = open_channel(target)
        return self._open[target]

    async def close(self) -> None:
        await asyncio.gather(*(channel.close(None) for channel in self._open.values()))


async def probe(
    layout: HomeLayout,
    token: str,
    ports: Mapping[str, int],
    *,
    counts: bool,
    sessions: int = OUTCOME_SESSIONS,
) -> Probe:
    """Health of the services listening on these loopback `ports` and, with `counts`, the
    counts of memory and ingest (found by their service files), all asked at the same time;
    outcomes over each project's last `sessions` served sessions."""
    channels = _Channels()
    try:
        health = _health(ports, channels)
        if not counts:
            return await health, {}, None
        checked, memory, ingest = await asyncio.gather(
            health,
            _memory_counts(layout, token, channels, sessions),
            _ingest_counts(layout, token, channels),
        )
        return checked, memory, ingest
    finally:
        await channels.close()


async def _health(ports: Mapping[str, int], channels: _Channels) -> dict[str, str]:
    names = list(ports)
    checks: list[Awaitable[str]] = [
        channel_health(channels.to(f"{LOOPBACK}:{ports[name]}"), timeout=HEALTH_TIMEOUT_SECONDS)
        for name in names
    ]
    return dict(zip(names, await asyncio.gather(*checks), strict=True))


async def _memory_counts(
    layout: HomeLayout, token: str, channels: _Channels, sessions: int
) -> dict[str, dict[str, Any]]:
    """Per-project counts from the memory service ({} when it is not reachable)."""
    try:
        channel = channels.to(target_of(layout.service_file("memory")))
        client = MemoryClient(channel, token, COUNTS_TIMEOUT)
        reply = await client.call(
            client.stub.GetProcessingStatus,
            pb.GetProcessingStatusRequest(outcome_sessions=sessions),
        )
    except SquirrelError:
        return {}
    a = reply.extractor_activity
    activity = {
        "backend": a.backend,
        "model": a.model,
        "calls_last_hour": a.calls_last_hour,
        "tokens_last_day": a.tokens_last_day,
        "failures": a.failures,
        "sends_to_vendor": a.sends_to_vendor,
    }
    return {
        p.project_id: {
            "events": p.events_total,
            "unprocessed": p.events_unprocessed,
            "processed_by": p.next_processing_at.ToDatetime(UTC).isoformat()
            if p.next_processing_at.seconds
            else None,
            "episodes": p.episodes_total,
            "memories": p.memories_live,
            "superseded_or_forgotten": p.memories_deleted,
            "dead_letters": p.dead_letters,
            "parked": [
                {"kind": d.kind, "error": d.error, "attempts": d.attempts} for d in p.parked
            ],
            "extractor": p.extractor,
            "memories_by_writer": dict(p.memories_by_writer),
            "extractor_activity": activity,
            "team_events_waiting": p.team_events_waiting,
            "team_delivery_error": p.team_delivery_error or None,
            "team_events_rejected": p.team_events_rejected,
            "team_rejected_reason": p.team_rejected_reason or None,
            "write_failure": p.write_failure or None,
            "write_failed_at": p.write_failed_at.ToDatetime(UTC).isoformat()
            if p.write_failure and p.write_failed_at.seconds
            else None,
            "outcomes": {
                "last": sessions,
                "sessions": p.outcomes.sessions,
                "served": p.outcomes.served,
                "used": p.outcomes.used,
                "missed": p.outcomes.missed,
                "contradicted": p.outcomes.contradicted,
                "unused": p.outcomes.unused,
                "pending": p.outcomes.pending,
                "stale": p.outcomes.stale,
            },
        }
        for p in reply.projects
    }


async def _ingest_counts(
    layout: HomeLayout, token: str, channels: _Channels
) -> dict[str, Any] | None:
    """Counters of the ingest service (None when it is not reachable)."""
    try:
        channel = channels.to(target_of(layout.service_file("ingest")))
        client = IngestClient(channel, token, COUNTS_TIMEOUT)
        reply = await client.call(client.stub.GetIngestStatus, ipb.GetIngestStatusRequest())
    except SquirrelError:
        return None
    return {
        "sources": {
            SOURCE_NAMES.get(s.source_tool, "?"): {
                "files": s.files_seen,
                "lines": s.lines_read,
                "events": s.events_produced,
                "delivered": s.events_delivered,
                "duplicates": s.duplicates,
                "rejected": s.rejected,
                "redactions": s.redactions,
                "skipped": dict(s.skipped),
            }
            for s in reply.sources
        },
        "buffered_events": reply.buffered_events,
        "delivery_failures": reply.delivery_failures,
        "unregistered_projects": dict(reply.unregistered_projects),
    }
