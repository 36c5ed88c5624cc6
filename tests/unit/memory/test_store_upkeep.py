"""View staleness records, dead letters, retention and vacuum."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.storage import SqliteStore, ViewMeta

USER = "alice"
T0 = datetime(2026, 6, 1, tzinfo=UTC)


def ev(text: str, at: datetime) -> Event:
    return Event(SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, at, {"text": text}, "s1")


async def test_view_meta_round_trips_and_is_replaced(store: SqliteStore) -> None:
    assert await store.get_view_meta("project_brief") is None
    await store.put_view_meta("project_brief", T0, 10, 3600)
    await store.put_view_meta("project_brief", T0 + timedelta(hours=1), 25, 600)
    assert await store.get_view_meta("project_brief") == ViewMeta(
        "project_brief", T0 + timedelta(hours=1), 25, 600
    )


async def test_view_meta_rejects_negative_numbers(store: SqliteStore) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.put_view_meta("pitfalls", T0, -1, 60)
    with pytest.raises(InvalidArgumentError):
        await store.put_view_meta("", T0, 1, 60)


async def test_dead_letters_count_attempts_and_can_be_resolved(store: SqliteStore) -> None:
    first = await store.record_dead_letter("extraction", "ep_1", "TimeoutError")
    again = await store.record_dead_letter("extraction", "ep_1", "RateLimitError")
    other = await store.record_dead_letter("embedding", "mem_1", "ValueError")
    assert (again.id, again.attempts, again.error) == (first.id, 2, "RateLimitError")
    assert [d.payload_ref for d in await store.list_dead_letters()] == ["ep_1", "mem_1"]
    assert await store.list_dead_letters("embedding") == [other]
    await store.resolve_dead_letter(first.id)
    with pytest.raises(NotFoundError):
        await store.resolve_dead_letter(first.id)
    assert await store.list_dead_letters() == [other]


async def test_pruning_drops_old_processed_content_but_keeps_what_memories_cite(
    store: SqliteStore, project: str
) -> None:
    old = [ev(f"old {i}", T0 + timedelta(minutes=10 * i)) for i in range(3)]
    recent = ev("recent", T0 + timedelta(days=30))
    waiting = ev("waiting", T0 + timedelta(minutes=45))
    appended = await store.append_events(project, USER, [*old, recent], [])
    await store.mark_processed(appended.event_ids)
    await store.append_events(project, USER, [waiting], [])
    cited = appended.event_ids[0]
    cand = MemoryCandidate(MemoryType.PROJECT_FACT, "k", "fact", (), 0.5, source_event_ids=(cited,))
    await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, cand), user_id=USER)

    pruned = await store.prune_processed_events(T0 + timedelta(days=1))

    assert pruned == 2
    assert await store.prune_processed_events(T0 + timedelta(days=1)) == 0
    by_id = {e.id: e for e in await store.get_events(appended.event_ids)}
    assert by_id[cited].content == {"text": "old 0"}
    assert by_id[appended.event_ids[1]].content == {"pruned": True}
    assert by_id[appended.event_ids[3]].content == {"text": "recent"}
    assert [e.content["text"] for e in await store.fetch_unprocessed(project)] == ["waiting"]
    assert await store.count_events(project) == 5
    again = await store.append_events(project, USER, old, [])
    assert (again.accepted, again.duplicates) == (0, 3)


async def test_vacuum_keeps_the_data(store: SqliteStore, project: str) -> None:
    await store.append_events(project, USER, [ev("kept", T0)], [])
    await store.vacuum()
    assert await store.count_events(project) == 1


async def test_vacuum_merges_the_search_index_and_keeps_its_results(
    store: SqliteStore, project: str
) -> None:
    for n in range(12):  # one transaction each: one index segment each, merged as they grow
        cand = MemoryCandidate(MemoryType.PROJECT_FACT, f"k{n}", f"alembic step {n} runs", (), 0.5)
        await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, cand), user_id=USER)
    before = await store.search_fts(project, "alembic step 3", limit=20)

    def segments(conn: sqlite3.Connection) -> int:
        return int(conn.execute("SELECT count(DISTINCT segid) FROM memory_fts_idx").fetchone()[0])

    assert await store._db.read(segments) > 1
    await store.vacuum()
    assert await store._db.read(segments) == 1
    assert await store.search_fts(project, "alembic step 3", limit=20) == before
