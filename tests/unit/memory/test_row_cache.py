"""A search's rows come from the file's `RowCache` while no memory row changes, and every way a
memory row can change shows in the next search: each write path of the store, a rolled-back
write and another connection (another process) writing the same file; writes of other rows
(events, replies) keep them."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.migrator import migrate
from squirrel_memory.storage.sqlite.reads import cached_memories, read_memories
from squirrel_memory.storage.sqlite.row_cache import RowCache
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS
from squirrel_memory.storage.values import AppendResult
from squirrel_memory.user_memories.manual import Statement, remember_plan
from tests.unit.memory.session_builder import exchange

USER = "alice"


def candidate(content: str, key: str) -> MemoryCandidate:
    return MemoryCandidate(
        type=MemoryType.RECIPE,
        key=key,
        content=content,
        tags=("build",),
        importance=0.5,
        source_event_ids=("evt_1",),
        scope=Scope.PROJECT,
    )


async def add(store: SqliteStore, content: str, key: str) -> MemoryItem:
    item = await store.apply_decision(
        UpdateDecision(action=UpdateAction.ADD_NEW, candidate=candidate(content, key)),
        user_id=USER,
    )
    assert item is not None
    return item


async def search(store: SqliteStore, ids: list[str]) -> tuple[list[MemoryItem], list[MemoryItem]]:
    """What one search reads: the memories of `ids` (its vector hits) and its lexical hits for
    `build`."""
    _, items, found = await store.found_with_lexical(
        lambda: [(i, 1.0) for i in ids],
        store.project_id,
        "build",
        types=None,
        limit=10,
        on_lexical=lambda _: None,
    )
    return items, [m for m, _ in found]


async def filled(store: SqliteStore) -> tuple[MemoryItem, MemoryItem]:
    """Two memories, searched until the cache holds them (the lexical index built)."""
    first = await add(store, "Build with make all", "build_tool")
    second = await add(store, "Build docs with sphinx", "docs_build")
    await search(store, [first.id, second.id])
    assert store.wait_lexical_index(30)
    await search(store, [first.id, second.id])
    assert set(store._db.rows.memories([first.id, second.id], store._db.rows.generation)) == {
        first.id,
        second.id,
    }
    return first, second


async def as_stored(
    store: SqliteStore, ids: list[str]
) -> tuple[list[MemoryItem], list[MemoryItem]]:
    """`search`'s answer read afresh, past the cache: the memories of `ids`, and the live ones
    among them (both hold `build`)."""
    rows = await store.get_memories(ids)
    return rows, [m for m in rows if not m.deleted]


Write = Callable[[SqliteStore, MemoryItem, MemoryItem], Awaitable[object]]


def decision(action: UpdateAction, content: str, target: MemoryItem) -> UpdateDecision:
    return UpdateDecision(
        action=action, candidate=candidate(content, "build_tool"), target_id=target.id
    )


async def update(store: SqliteStore, first: MemoryItem, _: MemoryItem) -> object:
    changed = decision(UpdateAction.UPDATE_EXISTING, "Build with make all -j4", first)
    return await store.apply_decision(changed, user_id=USER)


async def delete_and_add(store: SqliteStore, first: MemoryItem, _: MemoryItem) -> object:
    changed = decision(UpdateAction.DELETE_AND_ADD, "Build with ninja", first)
    return await store.apply_decision(changed, user_id=USER)


async def supersede(store: SqliteStore, first: MemoryItem, second: MemoryItem) -> object:
    return await store.supersede(first.id, second.id, "replaced")


async def forget(store: SqliteStore, first: MemoryItem, _: MemoryItem) -> object:
    return await store.forget(first.id, "wrong")


async def correct_content(store: SqliteStore, first: MemoryItem, _: MemoryItem) -> object:
    return await store.correct(first.id, content="Build with make -k", importance=None, reason="")


async def correct_importance(store: SqliteStore, first: MemoryItem, _: MemoryItem) -> object:
    return await store.correct(first.id, content=None, importance=0.9, reason="matters")


async def processing_result(store: SqliteStore, first: MemoryItem, _: MemoryItem) -> object:
    changed = decision(UpdateAction.UPDATE_EXISTING, "Build with make all, then make check", first)
    return await store.apply_processing_result([], [changed], [], user_id=USER)


async def rebuild_index(store: SqliteStore, first: MemoryItem, second: MemoryItem) -> object:
    await store.forget(second.id, "gone")  # the rebuild gives the live rows new doc ids
    return await store.rebuild_search_index()


async def other_connection(store: SqliteStore, first: MemoryItem, _: MemoryItem) -> object:
    """Another process's write: its own connection to the file, past this store's writer."""
    with sqlite3.connect(store.path, isolation_level=None) as conn:
        conn.execute("UPDATE memory_items SET importance = 0.95 WHERE id = ?", (first.id,))
    return None


async def rolled_back(store: SqliteStore, first: MemoryItem, _: MemoryItem) -> object:
    """A bad decision in a batch: nothing of it is written, and nothing changes."""
    with pytest.raises(InvalidArgumentError):
        await store.apply_processing_result(
            [],
            [UpdateDecision(action=UpdateAction.UPDATE_EXISTING, candidate=candidate("x", "y"))],
            [],
            user_id=USER,
        )
    return None


@pytest.mark.parametrize(
    "write",
    [
        update,
        delete_and_add,
        supersede,
        forget,
        correct_content,
        correct_importance,
        processing_result,
        rebuild_index,
        other_connection,
        rolled_back,
    ],
)
async def test_a_search_after_a_write_reads_the_rows_as_written(
    store: SqliteStore, write: Write
) -> None:
    first, second = await filled(store)
    await write(store, first, second)
    ids = [first.id, second.id]
    items, lexical = await search(store, ids)
    stored, live = await as_stored(store, ids)
    assert items == stored
    # New memories a write added hold `build` too: the live ones of the old ids, in any order.
    assert {m.id: m for m in lexical if m.id in ids} == {m.id: m for m in live}
    for hit in lexical:
        assert hit == await store.get_memory(hit.id) and not hit.deleted
    if write is not rolled_back:
        assert items != [first, second]  # the write changed what a search shows


def said(content: str) -> Statement:
    return Statement(
        USER, MemoryType.RECIPE, "build_by_hand", content, ("build",), 0.8, Scope.PROJECT
    )


async def remember_by_hand(store: SqliteStore, content: str) -> MemoryItem:
    s = said(content)
    return await store.remember(
        store.project_id,
        type=s.memory_type,
        key=s.key,
        content=s.content,
        tags=s.tags,
        importance=s.importance,
        scope=s.scope,
        user_id=s.user_id,
    )


async def test_a_search_after_a_manual_update_reads_it(store: SqliteStore) -> None:
    first, _ = await filled(store)
    kept = await remember_by_hand(store, "Build with make all, never make install")
    ids = [first.id, kept.id]
    for step in range(2):  # `remember`, then `remember_batch`, each on the cached row
        items, _ = await search(store, ids)
        assert items[1] is store._db.rows.memories([kept.id], store._db.rows.generation)[kept.id]
        if step == 0:
            changed = await remember_by_hand(store, "Build with make all in CI")
        else:
            [done] = await store.remember_batch(
                store.project_id, [remember_plan(said("Build with make all -j2"))]
            )
            assert not isinstance(done, InvalidArgumentError)
            changed = await store.get_memory(kept.id)
        assert changed.id == kept.id and changed.version == step + 2
        items, lexical = await search(store, ids)
        assert items[1] == changed and items[1] != kept
        assert next(m for m in lexical if m.id == kept.id) == changed
        kept = changed


async def test_a_write_of_a_memory_row_empties_the_cache_for_the_next_read(
    store: SqliteStore,
) -> None:
    first, second = await filled(store)
    generation = store._db.rows.generation
    await store.forget(second.id, "gone")
    items, _ = await search(store, [first.id, second.id])
    assert store._db.rows.generation > generation
    assert items[0] is not first and items[0] == first  # read again, as it was
    await store.vacuum()  # a write outside a transaction empties it at once
    rows = store._db.rows
    assert rows.memories([first.id, second.id], rows.generation) == {}


async def append_events(store: SqliteStore) -> object:
    events = exchange("s1", datetime(2026, 1, 5, 9, tzinfo=UTC), "Done.", "Thanks")
    return await store.append_events(store.project_id, USER, events, [])


async def mark_processed(store: SqliteStore) -> object:
    appended = await append_events(store)
    assert isinstance(appended, AppendResult)
    return await store.mark_processed(appended.event_ids)


async def keep_reply(store: SqliteStore) -> object:
    assert await store.claim_reply("key-1", "Remember", "f") is None
    await store.keep_reply("key-1", b"reply")
    return None


@pytest.mark.parametrize("write", [append_events, mark_processed, keep_reply])
async def test_a_write_of_no_memory_row_keeps_the_rows_kept(
    store: SqliteStore, write: Callable[[SqliteStore], Awaitable[object]]
) -> None:
    first, second = await filled(store)
    rows = store._db.rows
    generation = rows.generation
    await write(store)
    items, lexical = await search(store, [first.id, second.id])
    assert rows.generation == generation  # nothing was dropped, nothing read again
    assert rows.memories([first.id, second.id], generation) == {first.id: first, second.id: second}
    assert items == [first, second] and {m.id for m in lexical} == {first.id, second.id}


async def test_a_search_reuses_the_rows_it_kept(store: SqliteStore) -> None:
    first, second = await filled(store)
    kept = store._db.rows.memories([first.id], store._db.rows.generation)[first.id]
    items, lexical = await search(store, [first.id, second.id])
    assert items[0] is kept  # the same object, not read again
    assert next(m for m in lexical if m.id == first.id) is kept


def test_a_commit_of_another_connection_is_seen_by_each_reader(tmp_path: Path) -> None:
    path = f"{tmp_path}/rows.db"
    with sqlite3.connect(path, isolation_level=None) as writer:
        writer.execute("PRAGMA journal_mode=WAL")
        migrate(writer, DATA_MIGRATIONS)
        reader = sqlite3.connect(path, isolation_level=None)
        rows = RowCache(size=2)
        first = rows.begin(reader)  # a reader's first look bumps: it cannot know what changed
        assert rows.begin(reader) == first
        other = sqlite3.connect(path, isolation_level=None)
        assert rows.begin(other) == first  # the same state, read on another reader
        writer.execute("UPDATE memory_rows_changed SET count = count + 1")
        assert rows.begin(reader) == first + 1
        assert rows.begin(other) == first + 1
        writer.execute("INSERT INTO memory_fts_changes(doc_id) VALUES (7)")
        assert rows.begin(other) == first + 2
        writer.execute("CREATE TABLE t (x)")  # the schema changed
        assert rows.begin(reader) == first + 3
        reader.close()
        other.close()


async def test_what_a_read_keeps_is_dropped_when_a_write_overlapped_it(
    store: SqliteStore,
) -> None:
    first = await add(store, "Build with make all", "build_tool")
    a, b, c = (replace(first, id=name) for name in "abc")
    rows = RowCache(size=2)
    generation = rows.generation
    rows.bump()  # a write ended while the read ran
    rows.keep(generation, [a])
    rows.keep_docs(generation, [(1, "a")])
    now = rows.generation
    assert rows.memories(["a"], now) == {} and rows.memory_ids([1], now) == {}
    rows.keep(now, [a, b, c])
    assert set(rows.memories(["a", "b", "c"], now)) == {"b", "c"}  # bounded: the oldest went first


async def test_a_read_of_an_older_snapshot_never_serves_its_rows_to_a_newer_one(
    store: SqliteStore,
) -> None:
    """Two readers: A's snapshot is taken before a write, B's after; B asks the cache first,
    then A (whose state differs again). What A keeps from its older snapshot is never what B,
    still reading, is served."""
    first = await add(store, "Build with make all", "build_tool")
    rows = store._db.rows
    older = sqlite3.connect(store.path, isolation_level=None)
    newer = sqlite3.connect(store.path, isolation_level=None)
    try:
        older.execute("BEGIN")
        older.execute("SELECT count(*) FROM memory_items").fetchone()  # A's snapshot, taken
        await correct_content(store, first, first)
        changed = await store.get_memory(first.id)
        newer.execute("BEGIN")
        b = rows.begin(newer)
        a = rows.begin(older)
        assert cached_memories(older, rows, a, [first.id]) == [first]
        assert cached_memories(newer, rows, b, [first.id]) == [changed]
        assert rows.memory_ids([1], b) == {}
    finally:
        older.close()
        newer.close()


async def test_a_read_of_no_rows_opens_no_transaction(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        item = await add(store, "make test runs the suite", "make-test")
    finally:
        await store.close()
    conn = sqlite3.connect(tmp_path / ".ctx" / "data.db", isolation_level=None)
    try:
        rows = RowCache()
        conn.execute("BEGIN")  # a second BEGIN would fail: the read of no ids starts none
        assert read_memories(conn, rows, []) == []
        assert conn.in_transaction
        assert rows.generation == 0  # nor asks the file's state
        conn.execute("COMMIT")
        assert [m.id for m in read_memories(conn, rows, [item.id])] == [item.id]
    finally:
        conn.close()
