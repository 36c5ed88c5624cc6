"""Upkeep contract: view meta, dead letters, retention, counts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_memory.storage import Store, ViewMeta

from .test_event_log import T0, USER, ev
from .test_memory_book import add, candidate


async def test_view_meta_is_recorded_and_replaced(store: Store) -> None:
    assert await store.get_view_meta("recipes") is None
    await store.put_view_meta("recipes", T0, 10, 300)
    await store.put_view_meta("recipes", T0 + timedelta(hours=1), 12, 60)
    assert await store.get_view_meta("recipes") == ViewMeta(
        "recipes", T0 + timedelta(hours=1), 12, 60
    )
    with pytest.raises(InvalidArgumentError):
        await store.put_view_meta("recipes", T0, -1, 60)


async def test_dead_letters_count_attempts_and_resolve(store: Store) -> None:
    first = await store.record_dead_letter("episode", "ep_1", "TimeoutError")
    again = await store.record_dead_letter("episode", "ep_1", "UnavailableError")
    other = await store.record_dead_letter("view", "recipes", "OSError")
    assert again.id == first.id and again.attempts == 2 and again.error == "UnavailableError"
    assert [d.payload_ref for d in await store.list_dead_letters()] == ["ep_1", "recipes"]
    assert [d.id for d in await store.list_dead_letters("view")] == [other.id]
    await store.resolve_dead_letter(first.id)
    with pytest.raises(NotFoundError):
        await store.resolve_dead_letter(first.id)
    assert (await store.counts())["dead_letters"] == 1


async def test_pruning_keeps_cited_events_and_dedup(store: Store, project: str) -> None:
    appended = await store.append_events(
        project,
        USER,
        [ev("old", at=T0), ev("cited", at=T0), ev("new", at=T0 + timedelta(days=5))],
        [],
    )
    await store.mark_processed(appended.event_ids)
    await add(store, candidate(events=(appended.event_ids[1],)))
    assert await store.prune_processed_events(T0 + timedelta(days=1)) == 1
    assert await store.prune_processed_events(T0 + timedelta(days=1)) == 0
    texts = [e.content.get("text") for e in await store.get_events(appended.event_ids)]
    assert texts == [None, "cited", "new"]
    again = await store.append_events(project, USER, [ev("old", at=T0)], [])
    assert again.duplicates == 1
    await store.vacuum()


async def test_counts_for_status(store: Store, project: str) -> None:
    now = datetime.now(UTC)
    appended = await store.append_events(
        project,
        USER,
        [ev("a", at=now - timedelta(days=1), session="s1"), ev("b", at=now, session="s2")],
        [],
    )
    item = await add(store)
    await add(store, candidate(key="other"))
    await store.forget(item.id, "x")
    counts = await store.counts()
    assert counts == {
        "events": 2,
        "events_unprocessed": 2,
        "episodes": 0,
        "memories_live": 1,
        "memories_deleted": 1,
        "dead_letters": 0,
    }
    assert await store.writer_counts() == {"rules": 1}
    per_day = await store.events_per_day(now - timedelta(days=2))
    assert sum(per_day.values()) == 2 and all(len(day) == 10 for day in per_day)
    assert len(await store.waiting_sessions(project)) == 2
    await store.mark_processed(appended.event_ids)
    assert await store.waiting_sessions(project) == []
