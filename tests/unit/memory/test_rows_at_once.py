"""`rows_at_once`: one row's `INSERT … VALUES (…)` repeated for many rows (how a batch's new
memories go to Postgres in one statement); anything else is refused."""

from __future__ import annotations

import pytest

from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.memory_sql import statements
from squirrel_memory.storage.postgres.memories import rows_at_once

_SQL = statements(POSTGRES)


def test_rows_with_nested_parentheses_are_repeated_whole() -> None:
    many = rows_at_once("INSERT INTO t (a, b) VALUES (%s, lower(%s))", 3)
    assert many == "INSERT INTO t (a, b) VALUES (%s, lower(%s)), (%s, lower(%s)), (%s, lower(%s))"


def test_the_store_insert_takes_one_placeholder_set_per_row() -> None:
    many = rows_at_once(_SQL.insert, 4)
    assert many.count("%s") == 4 * _SQL.insert.count("%s")
    assert many.endswith(_SQL.insert[-40:])


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO t (a) VALUES %s",
        "INSERT INTO t (a) VALUES (%s) RETURNING a",
        "INSERT INTO t (a) VALUES (%s) ON CONFLICT (a) DO NOTHING",
        "INSERT INTO t (a) VALUES (%s",
    ],
)
def test_anything_else_is_refused(sql: str) -> None:
    with pytest.raises(ValueError, match="one row of values"):
        rows_at_once(sql, 2)
