"""Finding the memory a user names: the whole id, or a unique prefix of it as git takes one."""

from __future__ import annotations

import itertools

import pytest

from squirrel_core import handles
from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.handles import digest
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.lookup import (
    MIN_ID_PREFIX,
    find_memory,
    handles_of,
    require_memory,
)


async def _remember(store: SqliteStore, key: str) -> MemoryItem:
    return await store.remember(
        store.project_id,
        type=MemoryType.PROJECT_FACT,
        key=key,
        content=f"The {key} runs on port 8080.",
        tags=(),
        importance=0.5,
        scope=Scope.PROJECT,
        user_id=None,
    )


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


async def test_the_whole_id_finds_the_memory(store: SqliteStore) -> None:
    item = await _remember(store, "api")
    assert (await require_memory(store, item.id)).id == item.id


async def test_a_unique_prefix_finds_the_memory_with_or_without_mem(store: SqliteStore) -> None:
    first = await _remember(store, "api")
    second = await _remember(store, "db")
    shared = _common_prefix(first.id, second.id)
    for item in (first, second):
        prefix = item.id[: len(shared) + 1]
        assert (await find_memory(store, prefix)).id == item.id
        assert (await find_memory(store, prefix.removeprefix("mem_"))).id == item.id


async def test_an_ambiguous_prefix_is_an_invalid_argument_naming_both(store: SqliteStore) -> None:
    first = await _remember(store, "api")
    second = await _remember(store, "db")
    shared = _common_prefix(first.id, second.id)
    assert len(shared) >= MIN_ID_PREFIX  # ids sort by creation time: these share their start
    with pytest.raises(InvalidArgumentError) as caught:
        await find_memory(store, shared)
    assert first.id in str(caught.value) and second.id in str(caught.value)


async def test_a_prefix_too_short_or_unknown_is_not_found(store: SqliteStore) -> None:
    item = await _remember(store, "api")
    with pytest.raises(NotFoundError):
        await find_memory(store, item.id[: MIN_ID_PREFIX - 1])
    with pytest.raises(NotFoundError):
        await require_memory(store, "mem_ZZZZZZZZZZ")


async def test_an_empty_id_is_an_invalid_argument(store: SqliteStore) -> None:
    with pytest.raises(InvalidArgumentError):
        await find_memory(store, "")


async def test_a_handle_or_a_unique_prefix_of_it_finds_the_memory(store: SqliteStore) -> None:
    items = [await _remember(store, f"service-{n}") for n in range(30)]
    shown = await handles_of(store)
    for item in items:
        handle = shown[item.id]
        assert len(handle) - len("mem_") <= 12
        assert (await require_memory(store, handle)).id == item.id
        assert (await find_memory(store, handle.removeprefix("mem_"))).id == item.id


async def test_an_ambiguous_handle_lists_the_candidates(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = [await _remember(store, f"service-{n}") for n in range(40)]
    by_digest = sorted(items, key=lambda m: digest(m.id))
    # 40 digests over 32 first characters: some two share a start
    a, b = max(
        itertools.pairwise(by_digest),
        key=lambda pair: len(_common_prefix(digest(pair[0].id), digest(pair[1].id))),
    )
    shared = _common_prefix(digest(a.id), digest(b.id))
    monkeypatch.setattr(handles, "MIN_TYPED", len(shared))  # so that this short start is taken
    with pytest.raises(InvalidArgumentError) as caught:
        await find_memory(store, "mem_" + shared)
    message = str(caught.value)
    assert "ambiguous" in message and a.id in message and b.id in message
    shown = await handles_of(store)
    assert shown[a.id] in message and shown[b.id] in message
