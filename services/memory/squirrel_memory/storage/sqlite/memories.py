"""Memories of a project on SQLite: the row steps of `memory_book`'s plans, answered on the
writer thread (or a reader's connection) with the shared statements (`row_steps`), and the
full-text entries SQLite keeps in side tables written after each row."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from squirrel_memory.models import MemoryItem
from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.memory_book import SharedMemoryBook
from squirrel_memory.storage.memory_plans import Insert, Replace, RowPlan, RowStep
from squirrel_memory.storage.memory_sql import statements
from squirrel_memory.storage.revisions import drive
from squirrel_memory.storage.row_steps import row_statements
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.fts_rows import index_memory_text, unindex_memory_text
from squirrel_memory.storage.sqlite.reads import memory_from_row, run

T = TypeVar("T")

_SQL = statements(SQLITE)


def _index_text(conn: sqlite3.Connection, item: MemoryItem) -> None:
    index_memory_text(
        conn,
        item.id,
        kind=str(item.type),
        key=item.key,
        content=item.content,
        tags_json=to_json(list(item.tags)),
    )


def answer(conn: sqlite3.Connection, step: RowStep) -> Any:
    """One row step of a memory plan, on `conn` (inside its transaction for a write)."""
    plan = row_statements(SQLITE, _SQL, "", step, read=memory_from_row)
    result = drive(plan, lambda statement: run(conn, statement))
    if isinstance(step, Insert):
        _index_text(conn, step.item)
    elif isinstance(step, Replace):
        if step.new.deleted:
            unindex_memory_text(conn, step.new.id)
        else:
            _index_text(conn, step.new)
    return result


def on(conn: sqlite3.Connection) -> Callable[[RowStep], Any]:
    """`answer` on one connection, for `drive`."""
    return lambda step: answer(conn, step)


def run_on(conn: sqlite3.Connection, plan: RowPlan[T]) -> T:
    """A memory plan run on `conn`, inside the caller's transaction."""
    return drive(plan, on(conn))


class SqliteMemoryBook(SharedMemoryBook):
    """Memory rows, their history and change listeners (part of `SqliteStore`)."""

    _db: SqliteDatabase

    async def _write(self, plan: RowPlan[T]) -> T:
        return await self._db.write(lambda conn: run_on(conn, plan))

    async def _read(self, plan: RowPlan[T]) -> T:
        return await self._db.read(lambda conn: run_on(conn, plan))
