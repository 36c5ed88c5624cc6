"""The memory statements written once: each dialect's text uses only its own placeholder, and
every statement takes exactly the values its row builders give it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.storage.dialect import POSTGRES, SQLITE, Dialect
from squirrel_memory.storage.memory_sql import (
    anchor_params,
    history_row,
    memory_row,
    statements,
    updated_values,
)
from squirrel_memory.storage.values import HistoryAction

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
ITEM = MemoryItem(
    id="mem_1",
    project_id="/p",
    user_id=None,
    scope=Scope.PROJECT,
    type=MemoryType.PROJECT_FACT,
    key="k",
    content="use uv",
    tags=("a", "b"),
    importance=0.5,
    created_at=NOW,
    updated_at=NOW,
    source=MemorySource.MANUAL,
)
FULL_TEXT_VALUES = {"sqlite": (0, 0), "postgres": (3, 4)}
"""Values the full-text column takes beyond the row's: on INSERT, on UPDATE."""


@pytest.mark.parametrize("d", [SQLITE, POSTGRES], ids=["sqlite", "postgres"])
def test_every_statement_takes_the_values_its_builders_give(d: Dialect) -> None:
    sql = statements(d)
    on_insert, on_update = FULL_TEXT_VALUES[d.name]
    assert sql.insert.count(d.mark) == len(memory_row(d, ITEM)) + on_insert
    assert sql.update.count(d.mark) == len(updated_values(d, ITEM)) + on_update + 1
    row = history_row(d, ITEM, HistoryAction.CREATED, "why")
    assert sql.keep_history.count(d.mark) == len(row) == sql.put_history.count(d.mark)
    params = anchor_params("/p", "k", MemoryType.PROJECT_FACT, Scope.PROJECT, None)
    assert sql.anchor.count(d.mark) == len(params)
    assert sql.manual_on_anchor.count(d.mark) == len(params) + 1


@pytest.mark.parametrize(("d", "other"), [(SQLITE, "%s"), (POSTGRES, "?")])
def test_a_dialect_never_uses_the_others_placeholder(d: Dialect, other: str) -> None:
    sql = statements(d)
    texts = (sql.insert, sql.update, sql.keep_history, sql.put_history, sql.anchor)
    for text in (*texts, sql.manual_on_anchor):
        assert other not in text


def test_the_dialects_differ_where_named_and_store_values_their_way() -> None:
    assert "INSERT OR IGNORE" in statements(SQLITE).keep_history
    assert "ON CONFLICT (memory_id, version) DO NOTHING" in statements(POSTGRES).keep_history
    assert "INSERT OR REPLACE" in statements(SQLITE).put_history
    assert "DO UPDATE SET action = excluded.action" in statements(POSTGRES).put_history
    assert "memory_id = excluded" not in statements(POSTGRES).put_history  # the key is kept
    assert "INDEXED BY idx_mem_key" in statements(SQLITE).manual_on_anchor
    assert statements(POSTGRES).manual_on_anchor.endswith("FOR UPDATE")
    assert "FOR UPDATE" not in statements(POSTGRES).anchor
    assert "search" not in statements(SQLITE).insert
    sqlite_row, pg_row = memory_row(SQLITE, ITEM), memory_row(POSTGRES, ITEM)
    assert sqlite_row[7] == '["a","b"]'
    assert pg_row[7] == ["a", "b"]
    assert pg_row[9] is NOW and isinstance(sqlite_row[9], str)
    assert (sqlite_row[15], pg_row[15]) == (0, False)


def test_a_history_row_is_the_items_version_with_its_action_and_reason() -> None:
    row = history_row(POSTGRES, ITEM, HistoryAction.UPDATED, "merged")
    assert row[:4] == ("mem_1", 1, str(HistoryAction.UPDATED), "use uv")
    assert row[6:8] == (NOW, "merged")
