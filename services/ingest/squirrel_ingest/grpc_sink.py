"""The ingest engine's sink over gRPC: AppendEvents and GetSourceCursors of the memory service."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import structlog

from squirrel.v1 import events_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import NotFoundError, SquirrelError, UnavailableError
from squirrel_core.events import Event, SourceCursor
from squirrel_core.wire import cursor_from_pb, cursor_to_pb, event_to_pb
from squirrel_ingest.delivery import DeliveryResult, SinkUnavailableError

log = structlog.get_logger()

MAX_REQUEST_BYTES = 8 * 1024 * 1024
MAX_REQUEST_EVENTS = 2_000
APPEND_TIMEOUT_SECONDS = 60.0


class GrpcSink:
    """Delivers one project's events with their cursors. A delivery too big for one request is
    split; the cursors ride on the last part, so a crash between parts re-sends the early parts,
    which the memory service counts as duplicates and does not store twice.

    `redacted_with` is the fingerprint of the redaction rule set every delivered event's content
    went through (`squirrel_core.redaction.ruleset()`), or empty when that is not so; the memory
    service does not redact such content a second time when it runs the same rule set."""

    def __init__(
        self,
        client_factory: Callable[[], MemoryClient],
        user_id: str,
        *,
        redacted_with: str = "",
    ) -> None:
        self._client_factory = client_factory
        self._client: MemoryClient | None = None
        self._user_id = user_id
        self._redacted_with = redacted_with

    def _client_now(self) -> MemoryClient:
        if self._client is None:
            try:
                self._client = self._client_factory()
            except SquirrelError as exc:
                raise SinkUnavailableError(str(exc)) from exc
        return self._client

    async def _drop_client(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    async def deliver(
        self, project_id: str, events: Sequence[Event], cursors: Sequence[SourceCursor]
    ) -> DeliveryResult:
        client = self._client_now()
        accepted = duplicates = rejected = 0
        # Content as JSON text: the memory service started beside this ingest reads it.
        parts = _split([event_to_pb(e, json_content=True) for e in events])
        for number, part in enumerate(parts):
            last = number == len(parts) - 1
            request = pb.AppendEventsRequest(
                project_id=project_id,
                user_id=self._user_id,
                events=part,
                cursors=[cursor_to_pb(c) for c in cursors] if last else [],
                redacted_with=self._redacted_with,
            )
            try:
                reply = await client.call(
                    client.stub.AppendEvents, request, timeout=APPEND_TIMEOUT_SECONDS
                )
            except UnavailableError as exc:
                await self._drop_client()
                raise SinkUnavailableError(str(exc)) from exc
            except NotFoundError:
                # The project was unregistered (or its folder removed) since these events were
                # read: nothing will ever accept them. Count them instead of blocking delivery
                # for every other project; its cursors stay where they were.
                log.warning("delivery_rejected_unknown_project", events=len(events))
                return DeliveryResult(accepted=0, duplicates=0, rejected=len(events))
            accepted += reply.accepted
            duplicates += reply.duplicates
            rejected += len(reply.rejected)
        return DeliveryResult(accepted=accepted, duplicates=duplicates, rejected=rejected)

    async def load_cursors(self) -> dict[str, list[SourceCursor]]:
        client = self._client_now()
        try:
            reply = await client.call(client.stub.GetSourceCursors, pb.GetSourceCursorsRequest())
        except UnavailableError as exc:
            await self._drop_client()
            raise SinkUnavailableError(str(exc)) from exc
        return {p.project_id: [cursor_from_pb(c) for c in p.cursors] for p in reply.projects}

    async def close(self) -> None:
        await self._drop_client()


def _split(events: list[events_pb2.Event]) -> list[list[events_pb2.Event]]:
    """Parts under the request size and count limits; always at least one (maybe empty) part."""
    parts: list[list[events_pb2.Event]] = [[]]
    size = 0
    for event in events:
        length = event.ByteSize()
        if parts[-1] and (
            size + length > MAX_REQUEST_BYTES or len(parts[-1]) >= MAX_REQUEST_EVENTS
        ):
            parts.append([])
            size = 0
        parts[-1].append(event)
        size += length
    return parts
