"""The laptop's `machine` mark never makes the team server reject an event for its size.

A laptop stores an event's content up to the store's limit (512 KB), and delivery adds the
`machine` mark to it: an event within a few dozen bytes of the limit was rejected by the server
(`content_too_large`) for bytes the laptop added, and reached local memory only. Each event is
now sized with its mark as the server sizes it: one the mark would push over is sent without it
(its history names the user alone); every other keeps its mark."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from squirrel.v1 import events_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.team_client import TeamLink
from squirrel_core.wire import event_from_pb
from squirrel_memory.storage import SqliteStore, Store
from squirrel_memory.storage.checks import MAX_CONTENT_BYTES, check_event
from squirrel_memory.storage.formats import to_json
from squirrel_memory.team.delivery import TeamDelivery

LINK = TeamLink("team.example:7443", "sqt_token", None, "alice-workstation.example.internal")


class _Server:
    """Stands for the team server: keeps each event it accepts (its content as stored), and
    rejects as the server's store does."""

    class stub:  # noqa: N801 (the stub's shape)
        RegisterProject = "RegisterProject"
        GetSourceCursors = "GetSourceCursors"
        AppendEvents = "AppendEvents"

    def __init__(self) -> None:
        self.kept: list[dict[str, Any]] = []
        self.rejected: list[str] = []

    async def call(self, method: str, request: Any) -> Any:
        if method == "RegisterProject":
            return pb.RegisterProjectResponse(project_id=request.root, created=True)
        if method == "GetSourceCursors":
            return pb.GetSourceCursorsResponse()
        rejected = []
        for index, message in enumerate(request.events):
            event = event_from_pb(message)
            reason, _ = check_event(event, now=datetime.now(UTC))
            if reason is None:
                self.kept.append(event.content)
            else:
                self.rejected.append(reason.value)
                rejected.append(events_pb2.RejectedEvent(index=index, reason=reason.value))
        return pb.AppendEventsResponse(
            accepted=len(request.events) - len(rejected), rejected=rejected
        )

    async def close(self) -> None:
        return None


def _event(text: str, at: datetime) -> Event:
    return Event(
        source_tool=SourceTool.CODEX,
        event_type=EventType.TOOL_RESULT,
        timestamp=at,
        content={"text": text},
        session_id="s1",
        origin=None,
    )


def _text_of_size(total: int) -> str:
    """Text whose content `{"text": …}` is `total` bytes as stored."""
    return "y" * (total - len(to_json({"text": ""}).encode()))


async def _delivered(tmp_path: Path, texts: list[str]) -> tuple[_Server, TeamDelivery, Store]:
    store = await SqliteStore.open(str(tmp_path), store_dir=tmp_path / ".ctx")
    start = datetime.now(UTC) - timedelta(hours=1)
    events = [_event(t, start + timedelta(seconds=i)) for i, t in enumerate(texts)]
    stored = await store.append_events(store.project_id, "alice", events, [])
    assert stored.accepted == len(texts)  # the laptop keeps each one
    server = _Server()

    async def stores() -> list[Store]:
        return [store]

    delivery = TeamDelivery(
        stores, LINK, interval=60, client_factory=lambda _: cast(MemoryClient, server)
    )
    await delivery.deliver()
    return server, delivery, store


async def test_an_event_at_the_limit_is_delivered_without_the_mark(tmp_path: Path) -> None:
    """A Codex tool output of exactly 512 KB, and one 20 bytes under: the mark alone would
    push each over the server's limit."""
    texts = [_text_of_size(MAX_CONTENT_BYTES), _text_of_size(MAX_CONTENT_BYTES - 20)]
    server, delivery, store = await _delivered(tmp_path, texts)
    try:
        assert server.rejected == []
        assert [c["text"] for c in server.kept] == texts
        assert all("machine" not in c for c in server.kept)
        assert delivery.rejected(store) == (0, "")
    finally:
        await store.close()


async def test_events_the_mark_fits_keep_it(tmp_path: Path) -> None:
    """Must not fire: a small event, and a large one with room for the mark, are marked."""
    room = len(to_json({"machine": LINK.machine, "text": ""})) - len(to_json({"text": ""}))
    texts = ["ran the tests", _text_of_size(MAX_CONTENT_BYTES - room)]
    server, _, store = await _delivered(tmp_path, texts)
    try:
        assert server.rejected == []
        assert [c.get("machine") for c in server.kept] == [LINK.machine, LINK.machine]
    finally:
        await store.close()
