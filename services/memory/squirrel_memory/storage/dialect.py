"""What SQLite and Postgres say differently, named once: placeholders, how lists, times and
flags are stored and read back, null-safe equality, upserts, row locks, index hints and the
full-text column. The statements built from a `Dialect` (`memory_sql`, `event_sql`) are shared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from squirrel_memory.storage.checks import SQL_CHUNK
from squirrel_memory.storage.formats import from_db_time, json_strings, to_db_time, to_json


@dataclass(frozen=True, slots=True)
class Dialect:
    """What one database says differently; the statements built from it are shared."""

    name: str
    mark: str
    """The parameter placeholder."""
    store_list: Callable[[Sequence[str]], Any]
    store_time: Callable[[datetime], Any]
    store_flag: Callable[[bool], Any]
    load_time: Callable[[Any], datetime]
    load_list: Callable[[Any], tuple[str, ...]]
    same: str
    """Null-safe equality (`user_id IS ?` matches NULL to NULL)."""
    live: str
    """The condition of a live (not deleted) memory."""
    lock: str
    """Appended to a read whose row a transaction goes on to change."""
    by_key: str
    """After `FROM memory_items` where a query must walk the anchor index (SQLite's planner
    would otherwise walk every memory of the project in `updated_at` order)."""
    shared: bool = False
    """One database holds every project (Postgres), so a read by id names its project too; a
    SQLite file holds one project."""
    in_list: str = ""
    """`column {in_list}`: the column's value is one of a stored list (`store_list`) given as
    one parameter."""
    null_list: str = ""
    """A stored-list parameter that may be NULL (none given), tested for NULL."""
    null_text: str = ""
    """A text parameter that may be NULL, tested for NULL."""
    position: str = ""
    """The column of an event's storing position (it only grows)."""
    hints: bool = False
    """Reads name the index to walk (`indexed`): SQLite's planner may pick a worse one."""
    cache_rows: bool = False
    """Rows come back as plain values (text and numbers), so a decoded row may be cached."""
    search_insert: str = ""
    """The full-text column's value on INSERT (Postgres), given `search_params`; none on SQLite."""
    search_update: str = ""
    list_chunk: int = 0
    """Most values one change gives in a stored-list parameter (0: any number)."""
    day: str = ""
    """The UTC day (`YYYY-MM-DD`) of an event's `timestamp`."""
    memory_changes: str = ""
    """A statement of no parameters whose one row changes whenever a memory row is inserted,
    updated or deleted, by any connection (SQLite's trigger-kept count); "" where there is
    none, and the memories' count and newest update tell it."""

    def marks(self, count: int) -> str:
        return ", ".join([self.mark] * count)

    def of_project(self, project_id: str) -> tuple[str, tuple[Any, ...]]:
        """The condition (after a WHERE) and parameters that keep a read by id in its project:
        none on a database of one project."""
        return (f" AND project_id = {self.mark}", (project_id,)) if self.shared else ("", ())

    def indexed(self, index: str) -> str:
        """After `FROM table `: walk `index` (SQLite), or let the planner choose."""
        return f"INDEXED BY {index} " if self.hints else ""

    def insert(self, table: str, columns: Sequence[str]) -> str:
        """A plain INSERT of one row."""
        return self._insert(table, columns)

    def _insert(self, table: str, columns: Sequence[str]) -> str:
        marks = self.marks(len(columns))
        return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"  # noqa: S608 (constants)

    def insert_or_skip(self, table: str, columns: Sequence[str], key: Sequence[str]) -> str:
        """An INSERT that leaves an existing row with the same `key` as it is."""
        values = self._insert(table, columns)
        if self.name == "sqlite":
            return values.replace("INSERT INTO", "INSERT OR IGNORE INTO", 1)
        return f"{values} ON CONFLICT ({', '.join(key)}) DO NOTHING"

    def upsert(
        self, table: str, columns: Sequence[str], key: Sequence[str], kept: Sequence[str]
    ) -> str:
        """An INSERT that updates an existing row with the same `key`, but for the `kept`
        columns (the same words on both databases: SQLite's `INSERT OR REPLACE` would delete
        the row, and with it whatever references it)."""
        rest = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in (*key, *kept))
        return f"{self._insert(table, columns)} ON CONFLICT ({', '.join(key)}) DO UPDATE SET {rest}"

    def insert_or_replace(self, table: str, columns: Sequence[str], key: Sequence[str]) -> str:
        """An INSERT that overwrites every column of an existing row with the same `key`."""
        values = self._insert(table, columns)
        if self.name == "sqlite":
            return values.replace("INSERT INTO", "INSERT OR REPLACE INTO", 1)
        rest = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in key)
        return f"{values} ON CONFLICT ({', '.join(key)}) DO UPDATE SET {rest}"


def _search_vector(mark: str) -> str:
    """Key, tags and content weighted A, B, C (the weights of SQLite's BM25 columns)."""
    return " || ".join(f"setweight(to_tsvector('english', {mark}), '{weight}')" for weight in "ABC")


SQLITE = Dialect(
    name="sqlite",
    mark="?",
    store_list=lambda values: to_json(list(values)),
    store_time=to_db_time,
    store_flag=int,
    load_time=from_db_time,
    load_list=json_strings,
    same="IS",
    live="deleted = 0",
    lock="",
    by_key=" INDEXED BY idx_mem_key",
    in_list="IN (SELECT value FROM json_each(?))",
    null_list="? IS NULL",
    null_text="? IS NULL",
    position="rowid",
    hints=True,
    cache_rows=True,
    list_chunk=SQL_CHUNK,
    day="substr(timestamp, 1, 10)",
    memory_changes=(
        "SELECT (SELECT count FROM memory_rows_changed WHERE id = 1), "
        "(SELECT schema_version FROM pragma_schema_version)"
    ),
)
POSTGRES = Dialect(
    name="postgres",
    mark="%s",
    store_list=list,
    store_time=lambda when: when,
    store_flag=bool,
    load_time=lambda when: when,
    load_list=tuple,
    same="IS NOT DISTINCT FROM",
    live="NOT deleted",
    lock=" FOR UPDATE",
    by_key="",
    shared=True,
    in_list="= ANY(%s)",
    null_list="%s::text[] IS NULL",
    null_text="%s::text IS NULL",
    position="seq",
    search_insert=_search_vector("%s"),
    search_update=f"CASE WHEN %s THEN NULL ELSE {_search_vector('%s')} END",
    day="to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
)
