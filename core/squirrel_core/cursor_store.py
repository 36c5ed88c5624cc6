"""Read-only access to Cursor's SQLite stores (`state.vscdb`) while Cursor may be writing them.

Nothing is ever written, and no file is left in Cursor's folders:

- a WAL database with its `-wal` and `-shm` beside it (Cursor has it open) is opened `mode=ro`
  and read through them;
- a database without a `-wal` file is opened `mode=ro` (and, in WAL mode, `immutable=1`: a
  read-only connection would otherwise create `-wal` and `-shm` there and leave them behind);
- a locked database, or a `-wal` without its `-shm`, is copied (with its `-wal`) into a private
  temporary folder and read there, up to `max_snapshot_bytes`; larger ones wait for a later poll.

Each read runs in one transaction, so it sees one consistent state of the store.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final, TypeVar
from urllib.parse import quote

T = TypeVar("T")

_HEADER: Final = b"SQLite format 3\x00"
_SIZE: Final = "length(CAST(value AS BLOB))"
"""A value's size in bytes (without counting the characters of a text value)."""
_SIZED_ROW: Final = f"key, CASE WHEN {_SIZE} <= ? THEN value END, {_SIZE}, rowid"
_IN_CHUNK: Final = 400
"""Most keys in one `IN (...)` query (below SQLite's variable limit everywhere)."""


class StoreProblem(StrEnum):
    """Why a store could not be read this time (each is retried on a later poll)."""

    MISSING = "store_missing"
    LOCKED = "store_locked"
    NOT_A_DATABASE = "store_not_a_database"
    MISSING_TABLE = "store_missing_table"
    UNREADABLE = "store_unreadable"


class StoreUnavailableError(Exception):
    """The store cannot be read now; `problem` says why."""

    def __init__(self, problem: StoreProblem, detail: str = "") -> None:
        super().__init__(f"{problem.value}{': ' + detail if detail else ''}")
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Row:
    """One key-value row: its key, the value when at most the size cap (else None), its size."""

    key: str
    value: str | bytes | None
    size: int
    rowid: int = 0


def read_store(
    path: Path,
    read: Callable[[sqlite3.Connection], T],
    *,
    busy_timeout_s: float = 0.5,
    max_snapshot_bytes: int = 2 * 1024**3,
) -> T:
    """Run `read` on a read-only connection to the store at `path`, in one transaction.

    `read` must only read (it may run twice: once on the store, once on a snapshot copy).
    Raises `StoreUnavailableError` when the store is missing, locked past the snapshot size,
    not a database, or failing.
    """
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except (FileNotFoundError, NotADirectoryError):
        raise StoreUnavailableError(StoreProblem.MISSING) from None
    except OSError as exc:
        raise StoreUnavailableError(StoreProblem.UNREADABLE, type(exc).__name__) from None
    if not header.startswith(_HEADER) or len(header) < 100:
        raise StoreUnavailableError(StoreProblem.NOT_A_DATABASE)
    wal_mode = header[18] == 2
    wal = path.with_name(path.name + "-wal")
    shm = path.with_name(path.name + "-shm")
    if wal_mode and wal.exists() and not shm.exists():
        return _from_snapshot(path, read, busy_timeout_s, max_snapshot_bytes)
    immutable = wal_mode and not wal.exists()
    try:
        return _run(_uri(path, immutable=immutable), read, busy_timeout_s)
    except StoreUnavailableError as exc:
        if exc.problem is not StoreProblem.LOCKED:
            raise
    return _from_snapshot(path, read, busy_timeout_s, max_snapshot_bytes)


def tables(connection: sqlite3.Connection) -> set[str]:
    """The names of the tables in the store."""
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(name) for (name,) in rows}


def row_sizes(
    connection: sqlite3.Connection, table: str, prefix: str
) -> dict[str, tuple[int, int]]:
    """(rowid, size) of every row whose key starts with `prefix`; no value is returned."""
    _require(connection, table)
    upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    cursor = connection.execute(
        f"SELECT key, rowid, {_SIZE} FROM {_quoted(table)} "  # noqa: S608
        "WHERE key >= ? AND key < ?",
        (prefix, upper),
    )
    return {str(key): (int(rowid), int(size or 0)) for key, rowid, size in cursor}


def rows_for_keys(
    connection: sqlite3.Connection, table: str, keys: Iterable[str], max_bytes: int
) -> dict[str, Row]:
    """The rows with these keys (absent keys are simply missing from the answer)."""
    _require(connection, table)
    wanted = list(dict.fromkeys(keys))
    found: dict[str, Row] = {}
    for start in range(0, len(wanted), _IN_CHUNK):
        chunk = wanted[start : start + _IN_CHUNK]
        marks = ",".join("?" * len(chunk))
        cursor = connection.execute(
            f"SELECT {_SIZED_ROW} FROM {_quoted(table)} WHERE key IN ({marks})",  # noqa: S608
            (max_bytes, *chunk),
        )
        for raw in cursor:
            row = _row(raw)
            found[row.key] = row
    return found


def json_fields(
    connection: sqlite3.Connection, table: str, key: str, paths: dict[str, str], max_chars: int
) -> dict[str, object] | None:
    """Selected fields of one oversized JSON value, extracted inside SQLite (never loaded whole).

    Text fields are cut to `max_chars`. None when the value is not valid JSON.
    """
    _require(connection, table)
    names = list(paths)
    columns = ", ".join(
        f"substr(CAST(json_extract(value, ?) AS TEXT), 1, {int(max_chars)})" for _ in names
    )
    row = connection.execute(
        f"SELECT json_valid(value), {columns} FROM {_quoted(table)} WHERE key = ?",  # noqa: S608
        (*(paths[name] for name in names), key),
    ).fetchone()
    if row is None or not row[0]:
        return None
    return {name: value for name, value in zip(names, row[1:], strict=True) if value is not None}


def _require(connection: sqlite3.Connection, table: str) -> None:
    if table not in tables(connection):
        raise StoreUnavailableError(StoreProblem.MISSING_TABLE, table)


def _quoted(table: str) -> str:
    return '"' + table.replace('"', '""') + '"'


def _row(raw: tuple[object, ...]) -> Row:
    key, value, size, rowid = raw
    body = value if isinstance(value, str | bytes) else None
    return Row(
        str(key),
        body,
        size if isinstance(size, int) else 0,
        rowid if isinstance(rowid, int) else 0,
    )


def _uri(path: Path, *, immutable: bool) -> str:
    location = quote(str(path.absolute()), safe="/:\\")
    return f"file:{location}?mode=ro" + ("&immutable=1" if immutable else "")


def _run(uri: str, read: Callable[[sqlite3.Connection], T], busy_timeout_s: float) -> T:
    try:
        with closing(_connect(uri, busy_timeout_s)) as connection:
            connection.execute("BEGIN")
            try:
                return read(connection)
            finally:
                connection.rollback()
    except StoreUnavailableError:
        raise
    except sqlite3.DatabaseError as exc:
        raise _problem(exc) from None


def _connect(uri: str, busy_timeout_s: float) -> sqlite3.Connection:
    connection = sqlite3.connect(
        uri, uri=True, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False
    )
    connection.execute("PRAGMA query_only = ON")
    return connection


def _problem(exc: sqlite3.DatabaseError) -> StoreUnavailableError:
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return StoreUnavailableError(StoreProblem.LOCKED)
    if "not a database" in text or "malformed" in text or "file is encrypted" in text:
        return StoreUnavailableError(StoreProblem.NOT_A_DATABASE, type(exc).__name__)
    if "unable to open" in text:
        return StoreUnavailableError(StoreProblem.MISSING)
    return StoreUnavailableError(StoreProblem.UNREADABLE, type(exc).__name__)


def _from_snapshot(
    path: Path, read: Callable[[sqlite3.Connection], T], busy_timeout_s: float, limit: int
) -> T:
    with _snapshot(path, limit) as copy:
        return _run(_uri(copy, immutable=False), read, busy_timeout_s)


@contextmanager
def _snapshot(path: Path, limit: int) -> Iterator[Path]:
    """A private copy of the store and its `-wal`, removed afterwards."""
    wal = path.with_name(path.name + "-wal")
    try:
        size = path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    except OSError:
        raise StoreUnavailableError(StoreProblem.MISSING) from None
    if size > limit:
        raise StoreUnavailableError(StoreProblem.LOCKED, "too large to copy")
    with tempfile.TemporaryDirectory(prefix="sqrl-cursor-") as folder:
        copy = Path(folder) / "state.vscdb"
        try:
            shutil.copyfile(path, copy)
            if wal.exists():
                shutil.copyfile(wal, Path(folder) / "state.vscdb-wal")
        except FileNotFoundError:
            raise StoreUnavailableError(StoreProblem.MISSING) from None
        except OSError as exc:
            raise StoreUnavailableError(StoreProblem.UNREADABLE, type(exc).__name__) from None
        yield copy
