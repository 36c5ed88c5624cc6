"""EventLog contract: idempotent appends with cursors, unprocessed queues, episodes."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.events import Event, EventType, SourceCursor, SourceTool
from squirrel_memory.models import Episode, StoredEvent
from squirrel_memory.storage import RejectReason, Store

from .conftest import Opener

T0 = datetime(2026, 11, 1, 12, 0, 0, tzinfo=UTC)
USER = "alice"


def ev(text: str = "hello", *, at: datetime = T0, session: str | None = "s1", **kw: Any) -> Event:
    fields: dict[str, Any] = {
        "source_tool": SourceTool.CLAUDE_CODE,
        "event_type": EventType.USER_MESSAGE,
        "timestamp": at,
        "content": {"text": text},
        "session_id": session,
    }
    fields.update(kw)
    return Event(**fields)


def cursor(offset: int, path: str = "/logs/a.jsonl") -> SourceCursor:
    return SourceCursor(SourceTool.CLAUDE_CODE, path, inode=42, offset=offset, extra={"n": 1})


def episode(project: str, event_ids: tuple[str, ...], ep_id: str = "ep_1") -> Episode:
    return Episode(
        id=ep_id,
        project_id=project,
        user_id=USER,
        session_id="s1",
        start_ts=T0,
        end_ts=T0 + timedelta(minutes=5),
        event_count=len(event_ids),
        summary="worked on tests",
        importance=0.4,
        created_at=T0,
        event_ids=event_ids,
    )


async def test_appending_is_idempotent_by_dedup_hash(store: Store, project: str) -> None:
    first = await store.append_events(project, USER, [ev("a"), ev("b"), ev("a")], [])
    assert (first.accepted, first.duplicates, first.rejected) == (2, 1, [])
    assert len(first.event_ids) == 2 and len(set(first.event_ids)) == 2
    again = await store.append_events(project, USER, [ev("b"), ev("c")], [])
    assert (again.accepted, again.duplicates) == (1, 1)
    assert await store.count_events(project) == 3
    stored = await store.get_events([*first.event_ids, *again.event_ids])
    assert [e.content["text"] for e in stored] == ["a", "b", "c"]


async def test_reappending_through_another_handle_is_a_duplicate(
    opener: Opener, project: str
) -> None:
    one = await opener.open(project)
    await one.append_events(project, USER, [ev("a")], [cursor(10)])
    two = await opener.open(project) if opener.backend == "postgres" else one
    result = await two.append_events(project, USER, [ev("a")], [cursor(10)])
    assert (result.accepted, result.duplicates) == (0, 1)


async def test_concurrent_deliveries_of_one_batch_store_it_once(store: Store, project: str) -> None:
    batch = [ev(f"m{i}", at=T0 + timedelta(seconds=i)) for i in range(20)]
    results = await asyncio.gather(
        *(store.append_events(project, USER, batch, [cursor(20)]) for _ in range(4))
    )
    assert sum(r.accepted for r in results) == 20
    assert sum(r.duplicates for r in results) == 60
    assert await store.count_events(project) == 20


async def test_invalid_events_are_rejected_and_the_rest_stored(store: Store, project: str) -> None:
    bad_time = ev("late", at=datetime(1990, 1, 1, tzinfo=UTC))
    huge = ev("x" * (600 * 1024))
    result = await store.append_events(project, USER, [ev("ok"), bad_time, "nope", huge], [])  # type: ignore[list-item]
    assert result.accepted == 1
    reasons = dict(result.rejected)
    assert reasons[1] == RejectReason.TIMESTAMP_OUT_OF_RANGE
    assert reasons[2] == RejectReason.NOT_AN_EVENT
    assert reasons[3] == RejectReason.CONTENT_TOO_LARGE


async def test_hostile_text_round_trips_unchanged(store: Store, project: str) -> None:
    text = '\'; DROP TABLE events; -- \\u0000 \x00 ü 🐿️ "quoted" $$ %s %(x)s'
    result = await store.append_events(project, USER, [ev(text)], [])
    (stored,) = await store.get_events(result.event_ids)
    assert stored.content["text"] == text


async def test_cursors_are_stored_with_events_and_updated_in_place(
    store: Store, project: str
) -> None:
    await store.append_events(project, USER, [], [cursor(10), cursor(5, "/logs/b.jsonl")])
    await store.append_events(project, USER, [ev()], [cursor(99)])
    found = {c.path: c for c in await store.get_cursors(project)}
    assert (found["/logs/a.jsonl"].offset, found["/logs/b.jsonl"].offset) == (99, 5)
    assert found["/logs/a.jsonl"].extra == {"n": 1} and found["/logs/a.jsonl"].inode == 42


async def test_invalid_cursor_or_user_or_project_writes_nothing(
    store: Store, project: str, other_project: str
) -> None:
    bad = SourceCursor(SourceTool.CLAUDE_CODE, "/logs/a.jsonl", inode=1, offset=-5, extra={})
    with pytest.raises(InvalidArgumentError):
        await store.append_events(project, USER, [ev()], [bad])
    with pytest.raises(InvalidArgumentError):
        await store.append_events(project, "", [ev()], [])
    with pytest.raises(InvalidArgumentError):
        await store.append_events(other_project, USER, [ev()], [])
    assert await store.count_events(project) == 0
    assert await store.get_cursors(project) == []


async def test_unprocessed_events_come_oldest_first_and_leave_when_marked(
    store: Store, project: str
) -> None:
    events = [ev(f"m{i}", at=T0 + timedelta(minutes=3 - i)) for i in range(4)]
    result = await store.append_events(project, USER, events, [])
    queued = await store.fetch_unprocessed(project, limit=3)
    assert [e.content["text"] for e in queued] == ["m3", "m2", "m1"]
    assert all(e.processed_at is None and e.timestamp.tzinfo is not None for e in queued)
    assert await store.mark_processed([queued[0].id, queued[0].id, "evt_unknown"]) == 1
    assert await store.mark_processed([queued[0].id]) == 0
    assert await store.count_unprocessed(project) == 3
    assert len(result.event_ids) == 4
    with pytest.raises(InvalidArgumentError):
        await store.fetch_unprocessed(project, limit=0)


async def test_events_of_sessions_and_of_types(store: Store, project: str) -> None:
    await store.append_events(
        project,
        USER,
        [
            ev("one", session="s1"),
            ev("two", session="s2", at=T0 + timedelta(seconds=1)),
            ev("none", session=None, at=T0 + timedelta(seconds=2)),
            ev(
                "cmd",
                event_type=EventType.COMMAND_RUN,
                content={"command": "pytest", "exit_code": 1},
                at=T0 + timedelta(seconds=3),
            ),
        ],
        [],
    )
    of_s1 = await store.fetch_unprocessed_of_sessions(project, ["s1", None], limit=10)
    assert [e.content.get("text", "cmd") for e in of_s1] == ["one", "none", "cmd"]
    commands = await store.fetch_recent_of_types(project, [str(EventType.COMMAND_RUN)], limit=5)
    assert [e.content["command"] for e in commands] == ["pytest"]
    assert await store.fetch_recent_of_types(project, ["user_message"], 5, origin="git") == []


async def test_recent_events_of_one_user_leave_the_others_out(store: Store, project: str) -> None:
    await store.append_events(project, "alice", [ev("hers", at=T0)], [])
    await store.append_events(project, "bob", [ev("his", at=T0 + timedelta(seconds=1))], [])
    types = [str(EventType.USER_MESSAGE)]

    def said(events: list[StoredEvent]) -> list[str]:
        return [e.content["text"] for e in events]

    assert said(await store.fetch_recent_of_types(project, types, 5)) == ["hers", "his"]
    assert said(await store.fetch_recent_of_types(project, types, 5, user_id="alice")) == ["hers"]
    bob = await store.fetch_recent_of_types(project, types, 5, "typed", user_id="bob")
    assert [(e.user_id, e.content["text"]) for e in bob] == [("bob", "his")]
    assert await store.fetch_recent_of_types(project, types, 5, user_id="carol") == []


async def test_episodes_are_saved_with_their_events_in_order(store: Store, project: str) -> None:
    result = await store.append_events(project, USER, [ev("a"), ev("b")], [])
    ids = tuple(reversed(result.event_ids))
    # Episode ids are unique across projects (one Postgres server holds every test's projects).
    ep_id = f"ep_{uuid.uuid4().hex}"
    assert await store.save_episodes([episode(project, ids, ep_id)]) == [ep_id]
    await store.save_episodes([episode(project, ids[:1], ep_id)])
    saved = await store.get_episode(ep_id)
    assert saved.event_ids == ids[:1] and saved.summary == "worked on tests"
    assert saved.start_ts == T0
    with pytest.raises(NotFoundError):
        await store.get_episode("ep_missing")


async def test_episode_of_another_project_is_refused(store: Store, other_project: str) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.save_episodes([episode(other_project, ())])


async def test_events_after_a_position_come_in_storing_order(store: Store, project: str) -> None:
    first = await store.append_events(project, USER, [ev("a"), ev("b")], [])
    later = await store.append_events(project, USER, [ev("c", at=T0 - timedelta(days=1))], [])
    batch = await store.events_after(0, 10)
    assert [e.id for _, e in batch] == [*first.event_ids, *later.event_ids]
    positions = [p for p, _ in batch]
    assert positions == sorted(positions) and len(set(positions)) == 3
    rest = await store.events_after(positions[1], 10)
    assert [e.content["text"] for _, e in rest] == ["c"]
    assert await store.count_events_after(positions[0]) == 2
    assert await store.events_after(positions[-1], 10) == []
