"""A read or write written once for both backends: a plan that yields statements (`Rows`: a
SELECT and its parameters, sent back its rows; `Write` and `WriteMany`: a change, sent back how
many rows it changed), which each backend answers on its own connection (SQLite on a reader or
the writer thread, Postgres in a transaction)."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

from squirrel_memory.storage.dialect import Dialect

T = TypeVar("T")

Row: TypeAlias = Sequence[Any]


@dataclass(frozen=True, slots=True)
class Rows:
    """The rows one SELECT returns, in its order."""

    sql: str
    params: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class Write:
    """One change (an INSERT, UPDATE or DELETE); answered with the rows it changed."""

    sql: str
    params: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class WriteMany:
    """One change run for each row of parameters; answered with None."""

    sql: str
    rows: Sequence[Sequence[Any]]


Statement: TypeAlias = Rows | Write | WriteMany
"""What a plan of statements asks of its connection."""
ReadPlan: TypeAlias = Generator[Rows, Any, T]
WritePlan: TypeAlias = Generator[Statement, Any, T]


def fetch(sql: str, *params: Any) -> ReadPlan[list[Row]]:
    """Every row of `sql`."""
    rows: list[Row] = yield Rows(sql, params)
    return rows


def first(sql: str, *params: Any) -> ReadPlan[Row | None]:
    """The first row of `sql`, or None."""
    rows = yield from fetch(sql, *params)
    return rows[0] if rows else None


def number(sql: str, *params: Any) -> ReadPlan[int]:
    """The integer in the first column of the first row of `sql` (0 when there is none)."""
    row = yield from first(sql, *params)
    return int(row[0]) if row and row[0] is not None else 0


def changed(sql: str, *params: Any) -> WritePlan[int]:
    """`sql` run once; how many rows it changed."""
    count: int = yield Write(sql, params)
    return count


class PlanRunner:
    """A part of a store written once for both backends as plans: it names its project and the
    backend's `_dialect`, and runs its plans through `_read` and `_write`, which a store defines
    once for all its parts (`SharedMemoryBook`'s, answered by the backend)."""

    project_id: str
    _dialect: Dialect

    if TYPE_CHECKING:

        async def _read(self, plan: Generator[Any, Any, T]) -> T: ...

        async def _write(self, plan: Generator[Any, Any, T]) -> T: ...
