"""How many remembers a laptop's outbox holds for the team server, read without writing."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path


def queued_remembers(path: Path) -> int | None:
    """The rows of the outbox at `path` (0 when it was never made); None when it cannot be
    read (damaged, or not an outbox). Opened read-only: a reader never creates or changes it."""
    if not path.is_file():
        return 0
    try:
        with contextlib.closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2.0)
        ) as conn:
            return int(conn.execute("SELECT count(*) FROM outbox").fetchone()[0])
    except sqlite3.Error:
        return None
