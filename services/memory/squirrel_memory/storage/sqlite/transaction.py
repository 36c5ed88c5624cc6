"""One write transaction on an autocommit SQLite connection, the same for the store's writes and
the schema's migrations: `BEGIN IMMEDIATE` (the write lock taken at once, so a busy file refuses
before any work is done), `COMMIT` when the block ends, `ROLLBACK` on any error (one `COMMIT`
raised included) while the transaction is still open; the error is raised again."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """The block inside one IMMEDIATE transaction on `conn`: committed, or rolled back."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
