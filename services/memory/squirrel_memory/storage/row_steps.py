"""A memory plan's row steps as statements, written once for both backends: a memory loaded by
id, the memories on an anchor, a memory's row and history written; each backend runs the
statements on its own connection and adds what is its own (SQLite's full-text side tables
after a row, Postgres's batched inserts)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from squirrel_memory.models import MemoryItem
from squirrel_memory.storage.dialect import Dialect
from squirrel_memory.storage.memory_plans import Anchored, Insert, Load, RowStep
from squirrel_memory.storage.memory_reads import by_id_sql
from squirrel_memory.storage.memory_sql import (
    MemoryStatements,
    anchor_params,
    insert_writes,
    replace_writes,
)
from squirrel_memory.storage.queries import Row, Rows, Write, WriteMany, WritePlan, fetch, first

SearchFields = Callable[[MemoryItem], tuple[Any, ...]]
"""The full-text values a memory's row is written with (`Dialect.search_insert`; none on
SQLite, whose full-text index is a side table)."""


def no_search(_: MemoryItem) -> tuple[Any, ...]:
    return ()


def row_statements(
    d: Dialect,
    sql: MemoryStatements,
    project_id: str,
    step: RowStep,
    *,
    read: Callable[[Row], MemoryItem],
    search: SearchFields = no_search,
) -> WritePlan[Any]:
    """The statements of one row step in `d`, and its answer; `read` makes a memory of a row
    (`memory_reads.row_reader`)."""
    if isinstance(step, (Rows, Write, WriteMany)):
        return (yield step)
    if isinstance(step, Load):
        row = yield from first(*_flat(by_id_sql(d, project_id, step.memory_id, step.lock)))
        return read(row) if row else None
    if isinstance(step, Anchored):
        params = anchor_params(step.project_id, step.key, step.memory_type, step.scope, step.owner)
        if step.manual_only:
            found = yield from first(sql.manual_on_anchor, *params, "manual")
            return read(found) if found else None
        rows = yield from fetch(sql.anchor, *params)
        return [read(r) for r in rows]
    if isinstance(step, Insert):
        writes = insert_writes(d, sql, step.item, step.reason, search(step.item))
    else:
        new = step.new
        fields = (new.deleted, *search(new)) if d.search_update else ()
        writes = replace_writes(
            d, sql, step.old, new, action=step.action, reason=step.reason, search=fields
        )
    for statement, values in writes:
        yield Write(statement, values)
    return None


def _flat(sql: tuple[str, tuple[Any, ...]]) -> tuple[Any, ...]:
    return (sql[0], *sql[1])
