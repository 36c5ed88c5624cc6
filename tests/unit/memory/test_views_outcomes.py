"""The views rank memories with their outcomes, as the hook searches do: a memory that helped
rises, one served unused sinks slowly, a missed one keeps its place; with learning off nothing
moves. Ordering only: every view still fits its budget exactly as before."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from squirrel_core.tokens import estimate_tokens
from squirrel_memory.extractors.pitfall_memories import MET_AGAIN_TAG
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.outcomes.book import OutcomeBook
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.outcome_log import OutcomeEvent, ServedRecord
from squirrel_memory.views import Views
from tests.unit.memory.test_views import T0, USER, Clock, add_memory


@pytest.fixture
def store_clock() -> Clock:
    return Clock()


async def views_of(store: SqliteStore, *, learn: bool = True) -> tuple[Views, OutcomeBook]:
    book = await OutcomeBook(store, learn=learn).load()
    views = Views(store, clock=Clock(), injectable=book.injectable, weigh=book.importance)
    book.on_change(views.invalidate)
    return views, book


async def judge(
    book: OutcomeBook, item: MemoryItem, *outcomes: str, channel: str = "session_start"
) -> None:
    """`item` served to one new session per outcome (through `channel`), then judged so."""
    start = len(await book.store.outcome_events([item.id]))
    sessions = [f"s{start + n}" for n in range(len(outcomes))]
    await book.store.record_served([ServedRecord(s, item.id, T0, channel) for s in sessions])
    events = [
        OutcomeEvent(item.id, s, o, item.version, T0, T0 + timedelta(hours=n), channel)
        for n, (s, o) in enumerate(zip(sessions, outcomes, strict=True))
    ]
    await book.store.append_outcomes(events)
    await book.apply(events)


async def pitfalls_and_style(store: SqliteStore) -> tuple[MemoryItem, ...]:
    # Both met more than once: a one-off would not open a session (`test_start_pitfalls`).
    met = [MET_AGAIN_TAG]
    high = await add_memory(
        store, MemoryType.PITFALL, "a", "Major trap.", importance=0.55, tags=met
    )
    low = await add_memory(store, MemoryType.PITFALL, "b", "Minor trap.", importance=0.5, tags=met)
    first = await add_memory(
        store, MemoryType.USER_STYLE, "s1", "Prefer uv.", importance=0.55, scope=Scope.USER
    )
    second = await add_memory(
        store, MemoryType.USER_STYLE, "s2", "Type hints.", importance=0.5, scope=Scope.USER
    )
    return high, low, first, second


async def order(views: Views, store: SqliteStore) -> tuple[list[str], list[str]]:
    pitfalls = await views.pitfalls(store.project_id)
    style = await views.user_style(store.project_id, user_id=USER)
    return [i.memory_id for i in pitfalls.items], [i.source_memory_ids[0] for i in style.items]


async def test_a_memory_that_was_used_rises_above_a_slightly_more_important_one(
    store: SqliteStore,
) -> None:
    high, low, first, second = await pitfalls_and_style(store)
    views, book = await views_of(store)
    assert await order(views, store) == ([high.id, low.id], [first.id, second.id])
    await judge(book, low, "used", "used")
    await judge(book, second, "used", "used")
    assert await order(views, store) == ([low.id, high.id], [second.id, first.id])
    views.close()


async def test_servings_left_unused_sink_a_memory_slowly(store: SqliteStore) -> None:
    high, low, *_ = await pitfalls_and_style(store)
    views, book = await views_of(store)
    await judge(book, high, "unused")  # -0.01: still ahead by 0.04
    assert (await order(views, store))[0] == [high.id, low.id]
    await judge(book, high, *["unused"] * 9)  # -0.1 in all
    assert (await order(views, store))[0] == [low.id, high.id]
    views.close()


async def test_a_missed_memory_keeps_its_place(store: SqliteStore) -> None:
    high, low, *_ = await pitfalls_and_style(store)
    views, book = await views_of(store)
    await judge(book, high, *["missed"] * 5)
    assert (await order(views, store))[0] == [high.id, low.id]
    views.close()


async def test_without_learning_the_views_keep_the_stored_order(store: SqliteStore) -> None:
    high, low, first, second = await pitfalls_and_style(store)
    views, book = await views_of(store, learn=False)
    await judge(book, low, "used", "used", "used")
    await judge(book, second, "used", "used", "used")
    assert await order(views, store) == ([high.id, low.id], [first.id, second.id])
    views.close()


async def test_the_brief_ranks_facts_of_one_group_by_outcomes_and_keeps_its_budget(
    store: SqliteStore,
) -> None:
    facts = [
        await add_memory(
            store,
            MemoryType.PROJECT_FACT,
            f"lib_{n}",
            f"Uses library number {n} for part {n} of the work, in several modules.",
            importance=round(0.6 - 0.01 * n, 2),
            tags=["libraries"],
        )
        for n in range(12)
    ]
    views, book = await views_of(store)
    budget = 120
    before = await views.project_brief(store.project_id, context_budget_tokens=budget)
    assert before.key_facts and "number 0 " in before.key_facts[0]
    await judge(book, facts[-1], "used", "used", "used")
    after = await views.project_brief(store.project_id, context_budget_tokens=budget)
    assert "number 11 " in after.key_facts[0]
    for view in (before, after):
        assert view.token_estimate == estimate_tokens(view.markdown) <= budget
    views.close()


async def resting_views(store: SqliteStore, *, learn: bool = True) -> tuple[Views, OutcomeBook]:
    book = await OutcomeBook(store, learn=learn).load()
    views = Views(
        store,
        clock=Clock(),
        injectable=book.injectable,
        weigh=book.importance,
        resting=book.resting,
        heeded=book.heeded,
        passed_over=book.passed_over,
    )
    book.on_change(views.invalidate)
    return views, book


async def start_pitfalls(views: Views, store: SqliteStore) -> list[str]:
    view = await views.pitfalls(store.project_id, live_only=True)
    return [i.memory_id for i in view.items]


async def test_a_pitfall_served_twice_unused_rests_at_the_session_start_only(
    store: SqliteStore,
) -> None:
    high, low, *_ = await pitfalls_and_style(store)
    views, book = await resting_views(store)
    await judge(book, high, "unused")
    assert await start_pitfalls(views, store) == [high.id, low.id]  # once is not enough
    await judge(book, high, "unused")
    assert await start_pitfalls(views, store) == [low.id]
    # Asked for all pitfalls, for a task or a path, it is still there.
    assert (await order(views, store))[0] == [high.id, low.id]
    assert book.resting(high) and not book.resting(low)
    # Rewritten since (its error met again while it rested): live again.
    assert not book.resting(replace(high, version=high.version + 1))
    views.close()


async def test_a_use_or_a_miss_brings_a_resting_pitfall_back(store: SqliteStore) -> None:
    high, low, *_ = await pitfalls_and_style(store)
    views, book = await resting_views(store)
    await judge(book, high, "unused", "unused")
    await judge(book, low, *["unused"] * 12)  # past the unused cap: its weight no longer moves
    assert await start_pitfalls(views, store) == []
    await judge(book, high, "used")
    assert await start_pitfalls(views, store) == [high.id]
    await judge(book, low, "missed")  # its error happened again: the trap is live
    assert await start_pitfalls(views, store) == [high.id, low.id]
    views.close()


async def test_only_pitfalls_rest_and_only_while_learning(store: SqliteStore) -> None:
    high, low, first, second = await pitfalls_and_style(store)
    views, book = await resting_views(store, learn=False)
    await judge(book, high, "unused", "unused")
    assert await start_pitfalls(views, store) == [high.id, low.id]
    views.close()
    views, book = await resting_views(store)
    await judge(book, first, "unused", "unused")
    assert not book.resting(first)
    style = await views.user_style(store.project_id, user_id=USER)
    assert [i.source_memory_ids[0] for i in style.items] == [first.id, second.id]
    views.close()


async def test_a_rewritten_pitfall_rests_again_only_after_its_own_unused_servings(
    store: SqliteStore,
) -> None:
    high, *_ = await pitfalls_and_style(store)
    views, book = await resting_views(store)
    await judge(book, high, "unused", "unused")
    assert book.resting(high)
    # Its error met again while it rested: a new version, served once since, unused.
    rewritten = replace(high, version=high.version + 1)
    await judge(book, rewritten, "unused")
    assert not book.resting(rewritten)  # the former version's servings count for nothing
    await judge(book, rewritten, "unused")
    assert book.resting(rewritten)
    views.close()
