"""The in-memory lexical index carries each row's memory id, so a search's hits are read without
looking their doc ids up in `memory_fts_docs`; the ids stay right through every kind of write."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import numpy as np
import pytest

from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.lexical import LexicalIndex
from squirrel_memory.storage.sqlite.slot_ids import SlotIds

USER = "alice"
WORDS = ("cache", "redis", "parser", "token", "deploy", "docker", "retry", "timeout", "api")
LAST_DOC = "SELECT doc_id, memory_id FROM memory_fts_docs ORDER BY doc_id DESC LIMIT 1"
QUERIES = ("cache redis", "parser token", "docker deploy retry", "api timeout cache")


async def add(store: SqliteStore, rng: random.Random, key: str) -> MemoryItem:
    content = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 9)))
    candidate = MemoryCandidate(MemoryType.PROJECT_FACT, key, content, (), 0.5)
    item = await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER)
    assert item is not None
    return item


@pytest.fixture
async def store(project: str) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(project)
    yield opened
    await opened.close()


def index_of(store: SqliteStore) -> LexicalIndex:
    assert store._lexical is not None
    return store._lexical


async def ranked_with_truth(
    store: SqliteStore, query: str
) -> list[tuple[int, str | None, str | None]]:
    """(doc id, the index's memory id, `memory_fts_docs`' memory id) of each hit, in one read
    transaction."""
    index = index_of(store)
    terms = query.split()

    def read(conn: sqlite3.Connection) -> list[tuple[int, str | None, str | None]]:
        conn.execute("BEGIN")
        try:
            ranked = index.ranked_docs(conn, terms, None, 50)
            assert ranked is not None
            out = []
            for doc, _, memory_id in ranked:
                row = conn.execute(
                    "SELECT memory_id FROM memory_fts_docs WHERE doc_id = ?", (doc,)
                ).fetchone()
                out.append((doc, memory_id, None if row is None else str(row[0])))
            return out
        finally:
            conn.execute("COMMIT")

    return await store._db.read(read)


async def assert_ids_right(store: SqliteStore) -> int:
    seen = 0
    for query in QUERIES:
        for doc, held, truth in await ranked_with_truth(store, query):
            assert held is not None and held == truth, (query, doc)
            seen += 1
    return seen


async def test_each_hit_carries_its_memory_id_through_every_kind_of_write(
    store: SqliteStore,
) -> None:
    rng = random.Random(3)
    items = [await add(store, rng, f"k{n}") for n in range(40)]
    index_of(store).build_now()
    assert await assert_ids_right(store) > 0
    for round_ in range(3):
        items += [await add(store, rng, f"r{round_}-{n}") for n in range(5)]
        live = [i for i in items if not i.deleted]
        for item in rng.sample(live, 4):  # an update gives the memory a new doc id
            again = MemoryCandidate(MemoryType.PROJECT_FACT, item.key, "cache redis api", (), 0.5)
            await store.apply_decision(
                UpdateDecision(UpdateAction.UPDATE_EXISTING, again, item.id), user_id=USER
            )
        await store.forget(rng.choice(live).id, "wrong")
        # The last doc removed, then a memory added: SQLite hands its doc id out again.
        last, holder = await store._db.read(lambda conn: conn.execute(LAST_DOC).fetchone())
        await store.forget(str(holder), "wrong")
        items.append(await add(store, rng, f"reuse{round_}"))
        again, taker = await store._db.read(lambda conn: conn.execute(LAST_DOC).fetchone())
        assert (again, taker) == (last, items[-1].id)
        items = await store.get_memories([i.id for i in items])
        assert await assert_ids_right(store) > 0


async def traced_search(
    store: SqliteStore, project: str, query: str
) -> tuple[list[tuple[MemoryItem, float]], list[str]]:
    """`search_fts_memories`' read on a reader connection, with the statements it ran."""
    read = store._fts_read(project, query, None, 25)
    assert read is not None

    def traced(conn: sqlite3.Connection) -> tuple[list[Any], list[str]]:
        statements: list[str] = []
        conn.set_trace_callback(statements.append)
        try:
            return read(conn), statements
        finally:
            conn.set_trace_callback(None)

    return await store._db.read(traced)


async def test_a_search_reads_its_hits_without_looking_their_doc_ids_up(
    store: SqliteStore, project: str
) -> None:
    rng = random.Random(5)
    for n in range(60):
        await add(store, rng, f"k{n}")
    index_of(store).build_now()
    plain = await SqliteStore.open(project, lexical_index=False)
    try:
        for query in QUERIES:
            store._db.rows.bump()  # nothing kept: every hit's row is read
            found, statements = await traced_search(store, project, query)
            assert found and found == await plain.search_fts_memories(project, query, None, 25)
            assert not [s for s in statements if "memory_fts_docs" in s], query
    finally:
        await plain.close()


async def test_rows_without_a_memory_id_are_looked_up(store: SqliteStore, project: str) -> None:
    rng = random.Random(8)
    for n in range(30):
        await add(store, rng, f"k{n}")
    index = index_of(store)
    index.build_now()
    plain = await SqliteStore.open(project, lexical_index=False)
    try:
        state = index._state
        assert state is not None
        state.memory_ids = SlotIds(len(state.memory_ids))  # as if built without them
        store._db.rows.bump()
        found, statements = await traced_search(store, project, "cache redis")
        assert found == await plain.search_fts_memories(project, "cache redis", None, 25)
        assert [s for s in statements if "memory_fts_docs" in s]
    finally:
        await plain.close()


def test_slot_ids_widen_for_a_longer_id_and_keep_the_others() -> None:
    ids = SlotIds(4, ["mem_a", None, "mem_bb"])
    ids.grow(8)
    ids.put(3, ["mem_" + "c" * 40, "mem_d"])
    assert ids.of(np.arange(6, dtype=np.int64)) == [
        "mem_a",
        None,
        "mem_bb",
        "mem_" + "c" * 40,
        "mem_d",
        None,
    ]
    assert len(ids) == 8 and ids.nbytes == 8 * 44
