"""Memories of a project on SQLite: the row steps of `memory_book`'s plans, answered on the
writer thread (or a reader's connection) with `memory_sql`'s statements, and the full-text
entries SQLite keeps in side tables written after each row."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from squirrel_memory.models import MemoryItem
from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.memory_book import SharedMemoryBook
from squirrel_memory.storage.memory_plans import (
    Anchored,
    Episodes,
    Insert,
    Load,
    MarkProcessed,
    RowPlan,
    RowStep,
)
from squirrel_memory.storage.memory_sql import (
    anchor_params,
    insert_writes,
    replace_writes,
    statements,
)
from squirrel_memory.storage.queries import Rows
from squirrel_memory.storage.revisions import drive
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.events import mark_events, write_episodes
from squirrel_memory.storage.sqlite.reads import load_memory, memory_from_row, rows_of
from squirrel_memory.storage.sqlite.schema import index_memory_text, unindex_memory_text

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
    if isinstance(step, Rows):
        return rows_of(conn, step)
    if isinstance(step, Load):
        return load_memory(conn, step.memory_id)
    if isinstance(step, Anchored):
        params = anchor_params(step.project_id, step.key, step.memory_type, step.scope, step.owner)
        if step.manual_only:
            row = conn.execute(_SQL.manual_on_anchor, (*params, "manual")).fetchone()
            return memory_from_row(row) if row else None
        return [memory_from_row(r) for r in conn.execute(_SQL.anchor, params).fetchall()]
    if isinstance(step, Episodes):
        write_episodes(conn, step.episodes)
        return None
    if isinstance(step, MarkProcessed):
        return mark_events(conn, step.event_ids, SQLITE.store_time(step.at))
    if isinstance(step, Insert):
        for sql, params in insert_writes(SQLITE, _SQL, step.item, step.reason, ()):
            conn.execute(sql, params)
        _index_text(conn, step.item)
        return None
    new = step.new
    writes = replace_writes(
        SQLITE, _SQL, step.old, new, action=step.action, reason=step.reason, search=()
    )
    for sql, params in writes:
        conn.execute(sql, params)
    if new.deleted:
        unindex_memory_text(conn, new.id)
    else:
        _index_text(conn, new)
    return None


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
