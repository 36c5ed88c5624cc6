"""A backlog of large events reaches the team server: each batch fits gRPC's message limit; and
events the server rejects (a laptop clock days ahead) are counted and said, never silently gone.

A laptop stores an event's content up to 512 KB (a big file written, a long tool output), so 500
such events are far past the 32 MiB a gRPC message may hold. A batch cut by count alone was
refused by the channel before it left (RESOURCE_EXHAUSTED) and sent again, whole, every round:
the project's delivery stopped for good at that point. Batches are cut by size as well, every
event is still sent once, in order, and the cursor moves with each batch.

The server judges an event's time by its own clock (at most a day ahead): a laptop whose clock
runs days fast stores its events (its own clock agrees), and the server rejects every one of
them while committing the cursor past them. `sqrl status` said "all events delivered"; it now
counts them and says why.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest

from squirrel.v1 import events_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.memory_status import team_delivery
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import ResourceExhaustedError
from squirrel_core.events import Event, EventType, Origin, SourceTool
from squirrel_core.service_info import MAX_MESSAGE_BYTES
from squirrel_core.team_client import TeamLink
from squirrel_core.wire import event_from_pb
from squirrel_memory.storage import SqliteStore, Store
from squirrel_memory.storage.checks import check_event
from squirrel_memory.team.delivery import BATCH_EVENTS, TeamDelivery

LINK = TeamLink("team.example:7443", "sqt_token", None, "m")
BIG_TEXT_CHARS = 400_000
"""Under the store's 512 KB content limit, as a large tool output is."""


class _Stub:
    RegisterProject = "RegisterProject"
    GetSourceCursors = "GetSourceCursors"
    AppendEvents = "AppendEvents"


class _Server:
    """Stands for the channel and the team server: refuses a request past the message limit as
    the channel does, keeps what it accepted and the cursor it committed."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.sizes: list[int] = []
        self.offset = 0
        self.stub = _Stub()

    async def call(self, method: str, request: Any) -> Any:
        if method == "RegisterProject":
            return pb.RegisterProjectResponse(project_id=request.root, created=True)
        if method == "GetSourceCursors":
            return pb.GetSourceCursorsResponse()
        size = request.ByteSize()
        if size > MAX_MESSAGE_BYTES:
            raise ResourceExhaustedError(
                f"Sent message larger than max ({size} vs. {MAX_MESSAGE_BYTES})"
            )
        self.sizes.append(size)
        rejected = []
        for index, message in enumerate(request.events):
            event = event_from_pb(message)
            reason, _ = check_event(event, now=datetime.now(UTC))
            if reason is None:
                self.texts.append(event.content["text"])
            else:
                rejected.append(events_pb2.RejectedEvent(index=index, reason=reason.value))
        self.offset = request.cursors[0].offset
        return pb.AppendEventsResponse(
            accepted=len(request.events) - len(rejected), rejected=rejected
        )

    async def close(self) -> None:
        return None


def _events(n: int, chars: int = BIG_TEXT_CHARS, ahead: timedelta = timedelta()) -> Iterator[Event]:
    start = datetime.now(UTC) + ahead - timedelta(hours=1)
    for i in range(n):
        yield Event(
            source_tool=SourceTool.CLAUDE_CODE,
            event_type=EventType.USER_MESSAGE,
            timestamp=start + timedelta(seconds=i),
            content={"text": f"{i:04d} " + "x" * chars},
            session_id="s1",
            origin=Origin.TYPED,
        )


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    opened = await SqliteStore.open(str(tmp_path), store_dir=tmp_path / ".ctx")
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_backlog_past_the_message_limit_is_sent_in_batches_that_fit(
    store: SqliteStore,
) -> None:
    count = MAX_MESSAGE_BYTES // BIG_TEXT_CHARS + 20
    assert count < BATCH_EVENTS  # one batch by count alone, far past the limit by size
    events = list(_events(count))
    for start in range(0, count, 20):
        await store.append_events(store.project_id, "alice", events[start : start + 20], [])
    server = _Server()

    async def stores() -> list[Store]:
        return [store]

    delivery = TeamDelivery(
        stores, LINK, interval=60, client_factory=lambda _: cast(MemoryClient, server)
    )
    report = await delivery.deliver()

    assert report.sent == count
    assert [t[:4] for t in server.texts] == [f"{i:04d}" for i in range(count)]
    assert len(server.sizes) > 1
    assert max(server.sizes) <= MAX_MESSAGE_BYTES
    assert await delivery.waiting(store) == 0
    newest = await store.events_after(0, BATCH_EVENTS)
    assert server.offset == newest[-1][0]


async def test_events_the_server_rejects_for_a_laptop_clock_days_ahead_are_counted_and_said(
    tmp_path: Path,
) -> None:
    ahead = timedelta(days=3)
    fast = await SqliteStore.open(
        str(tmp_path), store_dir=tmp_path / ".ctx", clock=lambda: datetime.now(UTC) + ahead
    )
    try:
        stored = await fast.append_events(
            fast.project_id, "alice", list(_events(5, chars=10, ahead=ahead)), []
        )
        assert stored.accepted == 5  # the laptop's own clock agrees with their times
        server = _Server()

        async def stores() -> list[Store]:
            return [fast]

        delivery = TeamDelivery(
            stores, LINK, interval=60, client_factory=lambda _: cast(MemoryClient, server)
        )
        report = await delivery.deliver()
        assert (report.sent, report.accepted, server.texts) == (5, 0, [])
        assert await delivery.waiting(fast) == 0  # the server's cursor moved past them
        assert delivery.rejected(fast) == (5, "timestamp_out_of_range")

        said = team_delivery(
            [
                {
                    "team_events_waiting": 0,
                    "team_events_rejected": 5,
                    "team_rejected_reason": "timestamp_out_of_range",
                }
            ]
        )
        assert said["events_rejected"] == 5
        assert "5 events the team server rejected" in said["text_delivery"]
        assert "this laptop's clock" in said["text_delivery"]
        assert "kept in local memory only" in said["text_delivery"]
        quiet = team_delivery([{"team_events_waiting": 0}])["text_delivery"]
        assert quiet == "; all events delivered"
    finally:
        await fast.close()
