"""Opening a SQLite file with the pragmas every Squirrel connection uses (no threads, no logs:
`sqrl init` and `sqrl up` create the home's `user.db` with it and load nothing more)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from squirrel_core.errors import FailedPreconditionError, SquirrelError
from squirrel_core.sqlite_files import harden
from squirrel_memory.storage.sqlite.migrator import Migration, check_database

BUSY_TIMEOUT_MS = 5_000


class StorageError(FailedPreconditionError):
    """A database file cannot be used (not a database, closed); it is left untouched."""


def connect(
    path: Path, *, read_only: bool = False, migrations: Sequence[Migration] = ()
) -> sqlite3.Connection:
    """Open `path` in autocommit mode with the pragmas every Squirrel connection uses.

    With `migrations`, the file is checked against them (`check_database`) before anything
    (WAL mode included) is written to it."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    with closed_on_failure(conn, path):
        harden(conn)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys = ON")
        if read_only:
            conn.execute("PRAGMA query_only = ON")
        else:
            if migrations:
                check_database(conn, migrations)
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
    return conn


@contextmanager
def closed_on_failure(conn: sqlite3.Connection, path: Path) -> Iterator[None]:
    """The block's work on a newly opened `conn`, closed if it fails: a database error raised as
    `StorageError` (the file cannot be used), a `SquirrelError` (a refused schema) as it is."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StorageError(f"cannot use database file {path}: {exc}") from exc
    except SquirrelError:
        conn.close()
        raise
