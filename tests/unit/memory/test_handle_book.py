"""HandleBook: the handles of a few memories, equal to those of every id, kept current by writes."""

from __future__ import annotations

from squirrel_core import handles
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.handle_book import HandleBook
from squirrel_memory.user_memories.lookup import all_memory_ids


async def _remember(store: SqliteStore, n: int) -> MemoryItem:
    return await store.remember(
        store.project_id,
        type=MemoryType.PROJECT_FACT,
        key=f"service {n}",
        content=f"Service {n} listens on port {8000 + n}.",
        tags=(),
        importance=0.5,
        scope=Scope.PROJECT,
        user_id=None,
    )


async def _every(store: SqliteStore, minimum: int) -> dict[str, str]:
    return handles.handles(await all_memory_ids(store), minimum=minimum)


async def test_each_handle_is_the_one_every_id_gives(store: SqliteStore) -> None:
    for n in range(60):
        await _remember(store, n)
    # With one character at least, neighbours in digest order often share a start: the
    # lengths then vary, and each must match the handle computed from every id.
    every = await _every(store, minimum=1)
    assert len(set(map(len, every.values()))) > 1
    book = HandleBook(store, minimum=1)
    try:
        assert await book.handles(list(every)) == every
        some = list(every)[::7]
        assert await book.handles(some) == {m: every[m] for m in some}
    finally:
        book.close()


async def test_neighbours_sharing_less_than_the_minimum_leave_it_alone(store: SqliteStore) -> None:
    """With a minimum above 1, a neighbour differing early leaves the handle at the minimum and
    one sharing the start makes it longer: both kinds occur, and every handle is the one every
    id gives."""
    for n in range(200):
        await _remember(store, n)
    for minimum in (2, 3):
        every = await _every(store, minimum=minimum)
        lengths = set(map(len, every.values()))
        assert len(handles.ID_PREFIX) + minimum in lengths
        if minimum == 2:  # ~19 pairs of 200 random digests share 2 characters: some neighbours
            assert max(lengths) > len(handles.ID_PREFIX) + minimum
        book = HandleBook(store, minimum=minimum)
        try:
            assert await book.handles(list(every)) == every
        finally:
            book.close()


async def test_the_shipped_minimum_is_the_default(store: SqliteStore) -> None:
    items = [await _remember(store, n) for n in range(5)]
    book = HandleBook(store)
    try:
        assert await book.handles([m.id for m in items]) == await _every(store, handles.MIN_HANDLE)
    finally:
        book.close()


async def test_memories_written_after_loading_count(store: SqliteStore) -> None:
    for n in range(30):
        await _remember(store, n)
    book = HandleBook(store, minimum=1)
    try:
        await book.handles(await all_memory_ids(store))  # loaded before the writes below
        for n in range(30, 70):
            await _remember(store, n)
        every = await _every(store, minimum=1)
        assert await book.handles(list(every)) == every
    finally:
        book.close()


async def test_a_forgotten_memory_keeps_its_handle_and_its_neighbours(store: SqliteStore) -> None:
    items = [await _remember(store, n) for n in range(40)]
    book = HandleBook(store, minimum=1)
    try:
        before = await book.handles([m.id for m in items])
        await store.forget(items[3].id, "stale")
        after = await book.handles([m.id for m in items])
        assert after == before == await _every(store, minimum=1)
    finally:
        book.close()


async def test_an_id_of_another_project_gets_a_handle_without_joining(store: SqliteStore) -> None:
    items = [await _remember(store, n) for n in range(10)]
    book = HandleBook(store, minimum=1)
    try:
        stranger = "mem_not_in_this_project"
        found = await book.handles([stranger])
        assert handles.digest(stranger).startswith(found[stranger].removeprefix("mem_"))
        assert await book.handles([m.id for m in items]) == await _every(store, minimum=1)
    finally:
        book.close()


async def test_no_ids_read_nothing(store: SqliteStore) -> None:
    book = HandleBook(store)
    try:
        assert await book.handles([]) == {}
    finally:
        book.close()
