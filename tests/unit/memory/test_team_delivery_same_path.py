"""Two laptops of one user, with one machine name and one project path, each deliver all of
their own events to the team server.

The server files a delivery position by the token's user and the cursor's path, which named the
machine (`team.machine`, by default the host name) and the local project path. Two laptops with
a stock host name (`localhost`, a container's) and the same checkout path shared one position:
the second laptop resumed after the first one's, and skipped its own events up to there, never
sent. Each home now names its own id in the path. A position kept by a version before (without
the id) is where an upgraded laptop resumes, so it does not send its history again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import Event, EventType, Origin, SourceCursor, SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.team_client import TeamLink, laptop_id
from squirrel_core.wire import cursor_from_pb, cursor_to_pb, event_from_pb
from squirrel_memory.storage import SqliteStore, Store
from squirrel_memory.team.delivery import TeamDelivery, cursor_path

LINK = TeamLink("team.example:7443", "sqt_token", None, "localhost")


class _Server:
    """Stands for the team server and one user's token: keeps the events and the cursors by
    path, as the server files them under the user."""

    class stub:  # noqa: N801 (the stub's shape)
        RegisterProject = "RegisterProject"
        GetSourceCursors = "GetSourceCursors"
        AppendEvents = "AppendEvents"

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.cursors: dict[str, Any] = {}

    async def call(self, method: str, request: Any) -> Any:
        if method == "RegisterProject":
            return pb.RegisterProjectResponse(project_id=request.root, created=True)
        if method == "GetSourceCursors":
            project = pb.ProjectCursors(project_id=request.project_ids[0])
            project.cursors.extend(self.cursors.values())
            return pb.GetSourceCursorsResponse(projects=[project])
        self.texts.extend(event_from_pb(m).content["text"] for m in request.events)
        for cursor in request.cursors:
            self.cursors[cursor.path] = cursor
        return pb.AppendEventsResponse(accepted=len(request.events))

    async def close(self) -> None:
        return None


async def _laptop(tmp_path: Path, name: str, texts: list[str]) -> SqliteStore:
    """A laptop's store of the project at one path (`tmp_path/shop`, the same on every laptop)
    holding `texts`, one event each."""
    root = tmp_path / "shop"
    root.mkdir(exist_ok=True)
    store = await SqliteStore.open(str(root), store_dir=tmp_path / name / ".ctx")
    await _add(store, texts)
    return store


async def _add(store: SqliteStore, texts: list[str]) -> None:
    start = datetime.now(UTC) - timedelta(hours=1)
    events = [
        Event(
            source_tool=SourceTool.CLAUDE_CODE,
            event_type=EventType.USER_MESSAGE,
            timestamp=start + timedelta(seconds=i),
            content={"text": text},
            session_id=f"s-{text}",
            origin=Origin.TYPED,
        )
        for i, text in enumerate(texts)
    ]
    await store.append_events(store.project_id, "dev", events, [])


def _delivery(store: Store, server: _Server, home: Path) -> TeamDelivery:
    async def stores() -> list[Store]:
        return [store]

    return TeamDelivery(
        stores,
        LINK,
        interval=60,
        client_factory=lambda _: cast(MemoryClient, server),
        laptop=laptop_id(HomeLayout(home)),
    )


async def test_two_laptops_with_one_name_and_path_each_deliver_their_own_events(
    tmp_path: Path,
) -> None:
    server = _Server()
    desk = await _laptop(tmp_path, "desk", [f"desk {i}" for i in range(5)])
    travel = await _laptop(tmp_path, "travel", ["travel 0", "travel 1"])
    try:
        await _delivery(desk, server, tmp_path / "desk-home").deliver()
        await _delivery(travel, server, tmp_path / "travel-home").deliver()
        await _add(desk, ["desk 5"])
        await _delivery(desk, server, tmp_path / "desk-home").deliver()
    finally:
        await desk.close()
        await travel.close()

    assert sorted(server.texts) == sorted(
        [f"desk {i}" for i in range(6)] + ["travel 0", "travel 1"]
    )
    assert len(server.cursors) == 2


async def test_an_upgraded_laptop_resumes_at_the_position_kept_before(tmp_path: Path) -> None:
    """Must not send again what a version without the home's id delivered."""
    server = _Server()
    desk = await _laptop(tmp_path, "desk", [f"desk {i}" for i in range(5)])
    try:
        sent = await desk.events_after(0, 3)
        kept = SourceCursor(
            SourceTool.MANUAL, cursor_path("localhost", desk.project_id), 0, sent[-1][0]
        )
        server.cursors[kept.path] = cursor_to_pb(kept)
        await _delivery(desk, server, tmp_path / "desk-home").deliver()
    finally:
        await desk.close()

    assert server.texts == ["desk 3", "desk 4"]
    own = cursor_path("localhost", desk.project_id, laptop_id(HomeLayout(tmp_path / "desk-home")))
    assert cursor_from_pb(server.cursors[own]).offset > kept.offset


def test_a_homes_id_is_kept_and_private(tmp_path: Path) -> None:
    layout = HomeLayout(tmp_path / "home")
    first = laptop_id(layout)
    assert first and laptop_id(layout) == first
    assert layout.team_laptop.stat().st_mode & 0o777 == 0o600
    assert laptop_id(HomeLayout(tmp_path / "other")) != first
