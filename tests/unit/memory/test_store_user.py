"""The global user style store: upserts with history, manual items protected."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_memory.models import MemorySource
from squirrel_memory.user_memories.userstore import SqliteUserStore


@pytest.fixture
async def users(tmp_path: Path) -> AsyncIterator[SqliteUserStore]:
    store = await SqliteUserStore.open(tmp_path / "home")
    yield store
    await store.close()


async def test_merge_inserts_then_updates_with_history(users: SqliteUserStore) -> None:
    first = await users.merge_user_style(
        "alice",
        key="async",
        content="Prefers asyncio",
        tags=["python"],
        importance=0.6,
        source=MemorySource.LLM,
    )
    second = await users.merge_user_style(
        "alice",
        key="async",
        content="Prefers asyncio with TaskGroup",
        tags=["python"],
        importance=0.7,
        source=MemorySource.LLM,
    )
    assert second.id == first.id and second.created_at == first.created_at
    history = await users.user_style_history(first.id)
    assert [(v.version, v.action, v.content) for v in history] == [
        (1, "created", "Prefers asyncio"),
        (2, "updated", "Prefers asyncio with TaskGroup"),
    ]


async def test_unchanged_merge_writes_no_version(users: SqliteUserStore) -> None:
    args = {"key": "tabs", "content": "Spaces, 4", "tags": [], "importance": 0.5}
    item = await users.merge_user_style("alice", source=MemorySource.LLM, **args)  # type: ignore[arg-type]
    again = await users.merge_user_style("alice", source=MemorySource.LLM, **args)  # type: ignore[arg-type]
    assert again == item
    assert len(await users.user_style_history(item.id)) == 1


async def test_extraction_never_overwrites_a_manual_item(users: SqliteUserStore) -> None:
    manual = await users.merge_user_style(
        "alice",
        key="tests",
        content="Always write tests first",
        tags=[],
        importance=0.9,
        source=MemorySource.MANUAL,
    )
    kept = await users.merge_user_style(
        "alice",
        key="tests",
        content="Writes tests sometimes",
        tags=[],
        importance=0.3,
        source=MemorySource.LLM,
    )
    assert kept == manual
    corrected = await users.merge_user_style(
        "alice",
        key="tests",
        content="Tests first, always",
        tags=[],
        importance=0.9,
        source=MemorySource.MANUAL,
    )
    assert corrected.content == "Tests first, always"


async def test_list_is_per_user_most_important_first(users: SqliteUserStore) -> None:
    for key, importance in (("a", 0.2), ("b", 0.9)):
        await users.merge_user_style(
            "alice",
            key=key,
            content=key,
            tags=[],
            importance=importance,
            source=MemorySource.LLM,
        )
    await users.merge_user_style(
        "bob", key="a", content="bob's", tags=[], importance=1.0, source=MemorySource.LLM
    )
    assert [i.key for i in await users.list_user_style("alice")] == ["b", "a"]
    assert await users.list_user_style("nobody") == []


async def test_one_row_per_user_and_key(users: SqliteUserStore) -> None:
    await users.merge_user_style(
        "alice", key="k", content="c", tags=[], importance=0.5, source=MemorySource.LLM
    )
    conn = sqlite3.connect(users.path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO user_style_items VALUES ('x', 'alice', 'k', 'c', '[]', 0.5, "
                "'t', 't', 'llm')"
            )
    finally:
        conn.close()


@pytest.mark.parametrize(
    "bad",
    [
        {"key": ""},
        {"content": " "},
        {"importance": 2.0},
        {"tags": [1]},
        {"source": "gossip"},
    ],
)
async def test_bad_fields_are_invalid_arguments(
    users: SqliteUserStore, bad: dict[str, object]
) -> None:
    fields: dict[str, object] = {
        "key": "k",
        "content": "c",
        "tags": [],
        "importance": 0.5,
        "source": MemorySource.LLM,
    }
    fields.update(bad)
    with pytest.raises(InvalidArgumentError):
        await users.merge_user_style("alice", **fields)  # type: ignore[arg-type]


async def test_history_of_unknown_item_is_not_found(users: SqliteUserStore) -> None:
    with pytest.raises(NotFoundError):
        await users.user_style_history("usr_nope")
