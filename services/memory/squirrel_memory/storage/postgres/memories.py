"""Memories of a project on Postgres: the row steps of `memory_book`'s plans, answered in one
transaction with the shared statements (`row_steps`; the full-text column written with each
row).

A plan's new memories are written together: an `Insert` answers nothing, so consecutive ones
are held and sent before the next step that reads or changes rows, and at the plan's end: their
rows as one multi-row `INSERT` (up to 500), so the triggers that keep the full-text statistics
(`search_totals`, `search_words`) run once for them, not once per memory; their history as one
`executemany` (pipelined). The rows are the same as one by one, in the same transaction; a
batch of extracted memories (500 per transaction) goes in a few round trips instead of two per
memory.

A step's memory is read `FOR UPDATE`, so two writers applying decisions to one memory at once
take turns instead of losing one update.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from psycopg import AsyncConnection

from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.memory_book import SharedMemoryBook
from squirrel_memory.storage.memory_plans import Insert, RowPlan, RowStep
from squirrel_memory.storage.memory_sql import insert_writes, statements
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.reads import memory_from_row, run
from squirrel_memory.storage.postgres.search import search_fields
from squirrel_memory.storage.revisions import drive_async
from squirrel_memory.storage.row_steps import row_statements

T = TypeVar("T")

_SQL = statements(POSTGRES)
ROWS_PER_INSERT = 500
"""Memories written by one `INSERT` (23 values each, under Postgres's 65,535 parameters)."""


async def answer(conn: AsyncConnection, project_id: str, step: RowStep) -> Any:
    """One row step of a memory plan, inside the caller's transaction."""
    plan = row_statements(
        POSTGRES, _SQL, project_id, step, read=memory_from_row, search=search_fields
    )
    return await drive_async(plan, lambda statement: run(conn, statement))


def on(conn: AsyncConnection, project_id: str) -> Callable[[RowStep], Awaitable[Any]]:
    """`answer` on one connection, for `drive_async`."""
    return lambda step: answer(conn, project_id, step)


def rows_at_once(sql: str, count: int) -> str:
    """`sql`, an `INSERT … VALUES (…)` of one row with nothing after its values, for `count`
    rows."""
    head, values = sql.split(" VALUES ", 1)
    if not values.endswith(")") or values.count("(") != values.count(")"):
        raise ValueError("not an INSERT of one row of values")
    return f"{head} VALUES " + ", ".join([values] * count)


async def _insert_all(conn: AsyncConnection, inserts: list[Insert]) -> None:
    """New memories and their CREATED history rows: the memories' rows in statements of up to
    `ROWS_PER_INSERT` rows (the full-text statistics' triggers run once per statement, not
    once per memory), then the history rows in one pipelined call (the rows and their order
    are `insert_writes`')."""
    writes = [
        insert_writes(POSTGRES, _SQL, s.item, s.reason, search_fields(s.item)) for s in inserts
    ]
    async with conn.cursor() as cursor:
        rows = [w[0][1] for w in writes]
        for start in range(0, len(rows), ROWS_PER_INSERT):
            chunk = rows[start : start + ROWS_PER_INSERT]
            sql = rows_at_once(writes[0][0][0], len(chunk))
            await cursor.execute(sql, [value for row in chunk for value in row])
        for position in range(1, len(writes[0])):
            sql = writes[0][position][0]
            await cursor.executemany(sql, [w[position][1] for w in writes])


async def run_on(conn: AsyncConnection, project_id: str, plan: RowPlan[T]) -> T:
    """A memory plan run on `conn`, inside the caller's transaction (its inserts batched)."""
    held: list[Insert] = []

    async def flush() -> None:
        if held:
            await _insert_all(conn, held)
            held.clear()

    async def step_answer(step: RowStep) -> Any:
        if isinstance(step, Insert):
            held.append(step)
            return None
        await flush()
        return await answer(conn, project_id, step)

    result = await drive_async(plan, step_answer)
    await flush()
    return result


class PostgresMemoryBook(SharedMemoryBook):
    """Memory rows, their history and change listeners (part of `PostgresStore`)."""

    _db: PostgresDatabase

    async def _write(self, plan: RowPlan[T]) -> T:
        async with self._db.transaction() as conn:
            return await run_on(conn, self.project_id, plan)

    async def _read(self, plan: RowPlan[T]) -> T:
        return await self._write(plan)
