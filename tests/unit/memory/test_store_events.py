"""Appending events with their cursors, dedup, rejects, and the processing queue."""

from __future__ import annotations

import asyncio
import contextlib
import math
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.events import Event, EventType, Origin, SourceCursor, SourceTool
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import RejectReason, SqliteStore, Store

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


@contextlib.contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


async def test_new_events_are_stored_with_sortable_unique_ids(
    store: SqliteStore, project: str
) -> None:
    events = [ev(f"message {i}", at=T0 + timedelta(seconds=i)) for i in range(5)]
    result = await store.append_events(project, USER, events, [cursor(100)])
    assert (result.accepted, result.duplicates, result.rejected) == (5, 0, [])
    assert all(i.startswith("evt_") and len(i) == 30 for i in result.event_ids)
    assert list(result.event_ids) == sorted(result.event_ids)
    assert len(set(result.event_ids)) == 5
    stored = await store.fetch_unprocessed(project)
    assert [e.content["text"] for e in stored] == [f"message {i}" for i in range(5)]
    assert stored[0].user_id == USER and stored[0].processed_at is None


async def test_duplicate_within_a_batch_is_counted_and_not_stored(
    store: SqliteStore, project: str
) -> None:
    batch = [ev("same"), ev("same", at=T0 + timedelta(minutes=3)), ev("other")]
    result = await store.append_events(project, USER, batch, [])
    assert (result.accepted, result.duplicates) == (2, 1)
    assert await store.count_events(project) == 2


async def test_different_content_in_the_same_bucket_is_kept(
    store: SqliteStore, project: str
) -> None:
    result = await store.append_events(project, USER, [ev("yes"), ev("no")], [])
    assert result.accepted == 2


async def test_reappending_after_restart_is_dropped(project: str) -> None:
    first = await SqliteStore.open(project)
    await first.append_events(project, USER, [ev("a"), ev("b")], [cursor(10)])
    await first.close()
    second = await SqliteStore.open(project)
    try:
        result = await second.append_events(project, USER, [ev("a"), ev("b"), ev("c")], [])
        assert (result.accepted, result.duplicates) == (1, 2)
        assert await second.count_events(project) == 3
    finally:
        await second.close()


async def test_invalid_events_are_rejected_with_reasons_and_the_rest_stored(
    store: SqliteStore, project: str
) -> None:
    batch: list[Any] = [
        ev("good"),
        ev("old", at=datetime(1999, 12, 31, tzinfo=UTC)),
        ev("future", at=datetime.now(UTC) + timedelta(days=3)),
        ev("bad type", event_type="teleport"),
        ev("bad tool", source_tool="notepad"),
        ev(content={"set": {1, 2}}),
        ev(content={"nan": math.nan}),
        ev(content={"text": "lone \ud800 surrogate"}),
        ev(content=["not", "a", "dict"]),
        ev(content={"text": "x" * 600_000}),
        ev("paths", file_paths=("ok.py", 7)),
        ev("session", session=""),
        ev("stamp", timestamp="2026-11-01"),
        "not an event",
        ev("origin", origin="the user, probably"),
        ev("agent", agent_id="a" * 10_000),
        ev("good too"),
    ]
    result = await store.append_events(project, USER, batch, [])
    assert result.accepted == 2
    assert result.rejected == [
        (1, RejectReason.TIMESTAMP_OUT_OF_RANGE),
        (2, RejectReason.TIMESTAMP_OUT_OF_RANGE),
        (3, RejectReason.UNKNOWN_EVENT_TYPE),
        (4, RejectReason.UNKNOWN_SOURCE_TOOL),
        (5, RejectReason.CONTENT_NOT_JSON),
        (6, RejectReason.CONTENT_NOT_JSON),
        (7, RejectReason.CONTENT_NOT_JSON),
        (8, RejectReason.CONTENT_NOT_OBJECT),
        (9, RejectReason.CONTENT_TOO_LARGE),
        (10, RejectReason.FILE_PATHS_INVALID),
        (11, RejectReason.SESSION_ID_INVALID),
        (12, RejectReason.TIMESTAMP_INVALID),
        (13, RejectReason.NOT_AN_EVENT),
        (14, RejectReason.UNKNOWN_ORIGIN),
        (15, RejectReason.AGENT_ID_INVALID),
    ]


async def test_origin_and_subagent_marks_round_trip(store: SqliteStore, project: str) -> None:
    batch = [
        ev("always use tabs", origin=Origin.PARENT_AGENT, sidechain=True, agent_id="a1b2"),
        ev("always run the linter", origin=Origin.QUEUED),
        ev("no origin given"),
        ev("ran", event_type=EventType.COMMAND_RUN, content={"command": "make"}),
    ]
    result = await store.append_events(project, USER, batch, [])
    stored = {e.content.get("text", "cmd"): e for e in await store.get_events(result.event_ids)}
    assert (stored["always use tabs"].origin, stored["always use tabs"].sidechain) == (
        "parent_agent",
        True,
    )
    assert stored["always use tabs"].agent_id == "a1b2"
    assert stored["always run the linter"].origin == "queued"
    assert (stored["no origin given"].origin, stored["no origin given"].sidechain) == (
        "typed",
        False,
    )
    assert stored["cmd"].origin == "assistant"


async def test_origin_is_not_part_of_the_dedup_hash(store: SqliteStore, project: str) -> None:
    first = await store.append_events(project, USER, [ev("hi", origin=Origin.TYPED)], [])
    again = await store.append_events(project, USER, [ev("hi", origin=Origin.QUEUED)], [])
    assert (first.accepted, again.accepted, again.duplicates) == (1, 0, 1)


async def test_naive_timestamps_are_read_as_utc(store: SqliteStore, project: str) -> None:
    await store.append_events(project, USER, [ev(at=datetime(2026, 11, 1, 12, 0))], [])
    (stored,) = await store.fetch_unprocessed(project)
    assert stored.timestamp == T0


async def test_hostile_text_round_trips_unchanged(store: SqliteStore, project: str) -> None:
    text = '\'; DROP TABLE events; --\x00\u202e\U0001f43f "quoted" \\ back'
    await store.append_events(project, USER, [ev(text, file_paths=("a b/ü.py",))], [])
    (stored,) = await store.fetch_unprocessed(project)
    assert stored.content == {"text": text}
    assert stored.file_paths == ("a b/ü.py",)


async def test_empty_batch_with_cursors_stores_the_cursors(
    store: SqliteStore, project: str
) -> None:
    result = await store.append_events(project, USER, [], [cursor(7)])
    assert result.accepted == 0
    assert await store.get_cursors(project) == [cursor(7)]


async def test_cursor_is_updated_in_place(store: SqliteStore, project: str) -> None:
    await store.append_events(project, USER, [ev("a")], [cursor(10), cursor(5, "/logs/b.jsonl")])
    await store.append_events(project, USER, [ev("b")], [cursor(20)])
    assert await store.get_cursors(project) == [cursor(20), cursor(5, "/logs/b.jsonl")]


async def test_failure_mid_transaction_stores_neither_events_nor_cursors(
    store: SqliteStore, project: str
) -> None:
    await store.append_events(project, USER, [ev("before")], [cursor(10)])
    with raw(store.path) as conn:
        conn.execute(
            "CREATE TRIGGER fail_cursor BEFORE UPDATE ON source_cursors "
            "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END"
        )
    with pytest.raises(sqlite3.IntegrityError):
        await store.append_events(project, USER, [ev("lost 1"), ev("lost 2")], [cursor(99)])
    assert await store.count_events(project) == 1
    assert await store.get_cursors(project) == [cursor(10)]
    with raw(store.path) as conn:
        conn.execute("DROP TRIGGER fail_cursor")
    result = await store.append_events(project, USER, [ev("lost 1"), ev("lost 2")], [cursor(99)])
    assert result.accepted == 2
    assert await store.get_cursors(project) == [cursor(99)]


@pytest.mark.parametrize(
    "bad",
    [
        SourceCursor(SourceTool.CLAUDE_CODE, "", 1, 1),
        SourceCursor(SourceTool.CLAUDE_CODE, "/p", 1, -1),
        SourceCursor(SourceTool.CLAUDE_CODE, "/p", 1, 1, extra={"x": object()}),
        SourceCursor("vim", "/p", 1, 1),  # type: ignore[arg-type]
    ],
)
async def test_invalid_cursor_rejects_the_call_and_writes_nothing(
    store: SqliteStore, project: str, bad: SourceCursor
) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.append_events(project, USER, [ev("kept back")], [bad])
    assert await store.count_events(project) == 0


async def test_other_project_or_missing_user_is_an_invalid_argument(
    store: SqliteStore, project: str
) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.append_events("/elsewhere", USER, [ev()], [])
    with pytest.raises(InvalidArgumentError):
        await store.append_events(project, "", [ev()], [])


async def test_large_batch_is_stored_in_one_call(store: SqliteStore, project: str) -> None:
    events = [ev(f"m{i}", at=T0 + timedelta(milliseconds=i)) for i in range(3000)]
    result = await store.append_events(project, USER, events, [cursor(1)])
    assert result.accepted == 3000
    again = await store.append_events(project, USER, events, [cursor(2)])
    assert (again.accepted, again.duplicates) == (0, 3000)


async def test_unprocessed_events_come_oldest_first_and_leave_when_marked(
    store: SqliteStore, project: str
) -> None:
    events = [ev(f"m{i}", at=T0 - timedelta(minutes=10 * i)) for i in range(5)]
    await store.append_events(project, USER, events, [])
    batch = await store.fetch_unprocessed(project, limit=3)
    assert [e.content["text"] for e in batch] == ["m4", "m3", "m2"]
    marked = await store.mark_processed([e.id for e in batch], at=T0)
    assert marked == 3
    assert await store.mark_processed([batch[0].id]) == 0
    assert await store.count_unprocessed(project) == 2
    assert [e.content["text"] for e in await store.fetch_unprocessed(project)] == ["m1", "m0"]
    fetched = await store.get_events([batch[0].id, "evt_unknown"])
    assert fetched[0].processed_at == T0


async def test_fetch_limit_is_checked(store: SqliteStore, project: str) -> None:
    for limit in (0, -1, 10_000):
        with pytest.raises(InvalidArgumentError):
            await store.fetch_unprocessed(project, limit=limit)


def episode(project: str, event_ids: tuple[str, ...], ep_id: str = "ep_1") -> Episode:
    return Episode(
        id=ep_id,
        project_id=project,
        user_id=USER,
        session_id="s1",
        start_ts=T0,
        end_ts=T0 + timedelta(minutes=5),
        event_count=len(event_ids),
        summary="ran the tests",
        importance=0.5,
        created_at=T0,
        event_ids=event_ids,
    )


async def test_episodes_are_saved_with_their_events_in_order(
    store: SqliteStore, project: str
) -> None:
    ids = ("evt_c", "evt_a", "evt_b")
    assert await store.save_episodes([episode(project, ids)]) == ["ep_1"]
    assert (await store.get_episode("ep_1")).event_ids == ids
    await store.save_episodes([episode(project, ("evt_z",))])
    assert (await store.get_episode("ep_1")).event_ids == ("evt_z",)


async def test_episode_of_another_project_is_refused(store: SqliteStore) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.save_episodes([episode("/elsewhere", ())])


def add(key: str, content: str) -> UpdateDecision:
    candidate = MemoryCandidate(MemoryType.PROJECT_FACT, key, content, ("python",), 0.6)
    return UpdateDecision(UpdateAction.ADD_NEW, candidate)


async def test_processing_result_is_written_in_one_transaction(
    store: SqliteStore, project: str
) -> None:
    result = await store.append_events(project, USER, [ev("a"), ev("b"), ev("c")], [])
    ids = result.event_ids
    applied = await store.apply_processing_result(
        [episode(project, ids)], [add("framework", "Uses FastAPI")], ids, user_id=USER
    )
    assert applied.episode_ids == ("ep_1",) and applied.processed == 3
    assert len(applied.change.added) == 1
    assert await store.count_unprocessed(project) == 0


async def test_failed_processing_result_leaves_events_queued(
    store: SqliteStore, project: str
) -> None:
    result = await store.append_events(project, USER, [ev("a"), ev("b")], [])
    with raw(store.path) as conn:
        conn.execute(
            "CREATE TRIGGER fail_memory BEFORE INSERT ON memory_items "
            "BEGIN SELECT RAISE(ABORT, 'no room'); END"
        )
    with pytest.raises(sqlite3.IntegrityError):
        await store.apply_processing_result(
            [episode(project, result.event_ids)],
            [add("framework", "Uses FastAPI")],
            result.event_ids,
            user_id=USER,
        )
    assert await store.count_unprocessed(project) == 2
    with raw(store.path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM memory_items").fetchone()[0] == 0


async def test_concurrent_appends_and_reads_all_land(store: SqliteStore, project: str) -> None:
    async def writer(n: int) -> int:
        events = [ev(f"w{n} m{i}", at=T0 + timedelta(seconds=i)) for i in range(100)]
        result = await store.append_events(project, USER, events, [cursor(n, f"/logs/{n}")])
        return result.accepted

    async def reader() -> int:
        return len(await store.fetch_unprocessed(project, limit=50))

    results = await asyncio.gather(*(writer(n) for n in range(10)), *(reader() for _ in range(10)))
    assert sum(results[:10]) == 1000
    assert await store.count_events(project) == 1000
    assert len(await store.get_cursors(project)) == 10


def test_sqlite_store_satisfies_the_store_protocol(store: SqliteStore) -> None:
    typed: Store = store
    assert typed.project_id == store.project_id
