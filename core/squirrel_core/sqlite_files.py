"""Reading a Squirrel SQLite file safely: the pragmas that keep a hostile file from acting through
its schema, and the schema version it records. Shared by the memory service, which owns the
files, and by `sqrl doctor`, which checks them read-only while no service runs."""

from __future__ import annotations

import sqlite3


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


def table_exists(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return row is not None


def current_version(conn: sqlite3.Connection) -> int:
    """The schema version of an open database (0 for an empty file)."""
    if not table_exists(conn, "schema_version"):
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0
