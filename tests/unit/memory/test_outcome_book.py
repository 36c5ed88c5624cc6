"""What ranking learns from outcomes: used raises, unused decays slowly, contradicted flags a
memory stale until it is confirmed, rewritten or used again; missed changes nothing."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.models import MemoryItem, MemoryType, StoredEvent, UpdateAction
from squirrel_memory.outcomes.book import OutcomeBook, OutcomeBooks
from squirrel_memory.outcomes.judge import judge_sessions, record_served
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.outcome_log import OutcomeEvent, ServedRecord
from tests.unit.memory.test_store_memories import USER, add, candidate, decide

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


async def judge(store: SqliteStore, item: MemoryItem, *outcomes: str) -> OutcomeBook:
    events = [
        OutcomeEvent(item.id, f"s{n}", o, item.version, T0, T0 + timedelta(hours=n))
        for n, o in enumerate(outcomes, start=len(await store.outcome_events([item.id])))
    ]
    await store.append_outcomes(events)
    return await OutcomeBook(store).load()


async def test_each_use_raises_a_memory_and_unused_servings_lower_it_slowly(
    store: SqliteStore,
) -> None:
    item = await add(store, candidate(importance=0.5))
    assert (await OutcomeBook(store).load()).importance(item) == 0.5
    used = await judge(store, item, "used", "used")
    assert used.importance(item) == pytest.approx(0.6)
    decayed = await judge(store, item, "unused", "unused", "unused")
    assert decayed.importance(item) == pytest.approx(0.57)
    many = await judge(store, item, *["unused"] * 30)
    assert many.importance(item) == pytest.approx(0.5)  # the decay stops at -0.1
    assert not many.is_stale(item)


async def test_a_missed_pitfall_keeps_its_rank_and_is_not_stale(store: SqliteStore) -> None:
    item = await add(store)
    book = await judge(store, item, "missed")
    assert book.importance(item) == item.importance
    assert book.injectable([item]) == [item]


async def test_a_contradicted_memory_is_stale_until_confirmed(store: SqliteStore) -> None:
    item = await add(store)
    other = await add(store, candidate("Lint with ruff", key="lint"))
    book = await judge(store, item, "used", "contradicted")
    assert book.is_stale(item, store.confirmations)
    assert book.injectable([item, other]) == [other]
    assert book.stale_ids([item, other]) == {item.id}
    store.confirmations.confirm(item)
    assert book.injectable([item, other]) == [item, other]


async def test_a_rewritten_or_used_again_memory_is_no_longer_stale(store: SqliteStore) -> None:
    item = await add(store)
    book = await judge(store, item, "contradicted")
    rewritten = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, candidate("Tests run with pytest -x"), item.id),
        user_id=USER,
    )
    assert rewritten is not None and rewritten.version == 2
    assert book.is_stale(item) and not book.is_stale(rewritten)
    again = await judge(store, item, "used")
    assert not again.is_stale(item)


async def test_without_learning_outcomes_change_nothing(store: SqliteStore) -> None:
    item = await add(store, candidate(importance=0.5))
    await judge(store, item, "used", "contradicted")
    book = await OutcomeBook(store, learn=False).load()
    assert book.importance(item) == 0.5
    assert book.injectable([item]) == [item] and book.stale_ids([item]) == set()


async def test_a_book_learns_of_new_outcomes_and_tells_its_listeners(store: SqliteStore) -> None:
    item = await add(store)
    book = await OutcomeBooks().of(store)
    told: list[str] = []

    async def listener() -> None:
        told.append("changed")

    book.on_change(listener)
    await book.apply([OutcomeEvent(item.id, "s1", "missed", 1, T0, T0)])
    assert told == ["changed"] and book.heeded(item)  # its trigger recurred: it earns the start
    await book.apply([OutcomeEvent(item.id, "s1b", "missed", 1, T0, T0)])
    assert told == ["changed"]  # missed again: neither a stale flag, nor a rank, nor heeded moves
    assert not book.is_stale(item)
    await book.apply([OutcomeEvent(item.id, "s2", "contradicted", 1, T0, T0)])
    assert told == ["changed", "changed"] and book.is_stale(item)
    await book.apply([OutcomeEvent(item.id, "s3", "unused", 1, T0, T0)])
    assert told == ["changed", "changed", "changed"]  # an unused serving lowers its rank


async def test_without_learning_an_unused_serving_tells_no_listener(store: SqliteStore) -> None:
    item = await add(store)
    book = await OutcomeBook(store, learn=False).load()
    told: list[str] = []

    async def listener() -> None:
        told.append("changed")

    book.on_change(listener)
    await book.apply([OutcomeEvent(item.id, "s1", "unused", 1, T0, T0)])
    assert told == []


async def test_served_ids_of_no_memory_of_the_project_are_left_out(store: SqliteStore) -> None:
    item = await add(store)
    records = [
        ServedRecord("s1", item.id, T0, "prompt"),
        ServedRecord("s1", "mem_elsewhere", T0, "prompt"),
    ]
    assert await record_served(store, records) == 1
    assert [r.memory_id for r in await store.pending_served(["s1"])] == [item.id]


async def test_outcomes_cannot_be_edited_or_deleted_on_sqlite(store: SqliteStore) -> None:
    item = await add(store)
    await judge(store, item, "used")
    conn = sqlite3.connect(store.path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE memory_outcomes SET outcome = 'unused'")
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("DELETE FROM memory_outcomes")
    finally:
        conn.close()


async def test_a_module_served_for_a_prompt_is_used_when_the_session_works_in_its_file(
    store: SqliteStore, project: str
) -> None:
    """The judge gives a module memory its files: its text (what the file that speaks for it
    says) names none, so without them no session could ever be seen using it."""
    module = dataclasses.replace(
        candidate("Module `renderer`: Renders pages to HTML.", key="module:renderer"),
        type=MemoryType.PROJECT_FACT,
        file_paths=(f"{project}/app/renderer.py",),
    )
    item = await add(store, module)
    other = await add(store, candidate("To lint: `ruff check`.", key="recipe:lint"))
    served = T0 + timedelta(minutes=1)
    await record_served(store, [ServedRecord("s1", m.id, served, "prompt") for m in (item, other)])
    edit = StoredEvent(
        id="evt_edit",
        project_id=project,
        user_id=USER,
        source_tool="claude_code",
        session_id="s1",
        timestamp=T0 + timedelta(minutes=5),
        event_type="code_change",
        content={"path": f"{project}/app/renderer.py"},
        file_paths=(f"{project}/app/renderer.py",),
        hash="h",
    )
    judged = await judge_sessions(OutcomeBooks(), store, [edit])
    assert {(o.memory_id, o.outcome) for o in judged} == {(item.id, "used"), (other.id, "unused")}
