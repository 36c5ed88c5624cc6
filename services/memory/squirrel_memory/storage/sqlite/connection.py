"""Opening a SQLite file with the pragmas every Squirrel connection uses (no threads, no logs:
`sqrl init` and `sqrl up` create the home's `user.db` with it and load nothing more)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from squirrel_core.errors import FailedPreconditionError, SquirrelError
from squirrel_memory.storage.sqlite.migrator import Migration, check_database

BUSY_TIMEOUT_MS = 5_000


class StorageError(FailedPreconditionError):
    """A database file cannot be used (not a database, closed); it is left untouched."""


def harden(conn: sqlite3.Connection) -> None:
    """Keep a hostile database file from acting through its schema: no SQL functions with side
    effects in triggers, views or defaults (`trusted_schema` off), page sizes checked, no memory
    mapping; on Python 3.12+ also SQLite's defensive mode, which forbids writing the schema or
    the database pages directly. The schema check in `migrator.migrate` refuses unknown triggers
    and views on every version."""
    conn.execute("PRAGMA trusted_schema = OFF")
    conn.execute("PRAGMA cell_size_check = ON")
    conn.execute("PRAGMA mmap_size = 0")
    setconfig = getattr(conn, "setconfig", None)
    if setconfig is not None:  # Python 3.12+
        setconfig(getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"), True)  # noqa: B009
        setconfig(getattr(sqlite3, "SQLITE_DBCONFIG_TRUSTED_SCHEMA"), False)  # noqa: B009


def connect(
    path: Path, *, read_only: bool = False, migrations: Sequence[Migration] = ()
) -> sqlite3.Connection:
    """Open `path` in autocommit mode with the pragmas every Squirrel connection uses.

    With `migrations`, the file is checked against them (`check_database`) before anything
    (WAL mode included) is written to it."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
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
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StorageError(f"cannot use database file {path}: {exc}") from exc
    except SquirrelError:
        conn.close()
        raise
    return conn
