"""What `sqrl doctor` reads of a store's SQLite files while no service need run: schema version
and integrity, and of a project's `data.db` the facts its checks compare (live memories, the
full-text index, source cursors, dead letters); and its one repair there, forgetting cursors.

The memory service owns these files; this module only reads them (read-only connections), but
for `forget_cursors`, which takes the write lock like any other writer."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from squirrel_core.sqlite_files import current_version, harden


@dataclass(frozen=True, slots=True)
class FullTextCounts:
    """Live memories against the full-text index: its documents, its rows, the live missing."""

    live: int
    docs: int
    rows: int
    missing: int

    @property
    def in_step(self) -> bool:
        return self.live == self.docs == self.rows and self.missing == 0


@dataclass(frozen=True, slots=True)
class SourceCursorRow:
    """Where ingest stopped reading one transcript file (git cursors are not files)."""

    source_tool: str
    path: str
    offset: int


@dataclass(frozen=True, slots=True)
class StoreFacts:
    """What the doctor's checks of one project's `data.db` need, read in one go."""

    full_text: FullTextCounts
    live_ids: frozenset[str]
    cursors: tuple[SourceCursorRow, ...]
    dead_letters: tuple[tuple[str, str], ...]
    """(kind, error) of each parked letter, oldest first."""


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the SQLite file at `path` (never creates it)."""
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5.0)
    try:
        harden(conn)
        yield conn
    finally:
        conn.close()


def schema_and_integrity(path: Path, *, thorough: bool) -> tuple[int, str]:
    """The schema version of the file at `path` and "ok" or what SQLite's check found
    (`integrity_check` when `thorough`, else `quick_check`). Raises `sqlite3.Error`."""
    with read_only(path) as conn:
        version = current_version(conn)
        pragma = "integrity_check" if thorough else "quick_check"
        rows = conn.execute(f"PRAGMA {pragma}").fetchall()
    integrity = "ok" if [r[0] for r in rows] == ["ok"] else f"{pragma}: {rows[0][0]}"
    return version, integrity


def _scalar(conn: sqlite3.Connection, sql: str) -> int:
    return int(conn.execute(sql).fetchone()[0])


def store_facts(data_db: Path) -> StoreFacts:
    """The facts of a project's `data.db`, read in one read-only connection."""
    with read_only(data_db) as conn:
        full_text = FullTextCounts(
            live=_scalar(conn, "SELECT COUNT(*) FROM memory_items WHERE deleted = 0"),
            docs=_scalar(conn, "SELECT COUNT(*) FROM memory_fts_docs"),
            rows=_scalar(conn, "SELECT COUNT(*) FROM memory_fts"),
            missing=_scalar(
                conn,
                "SELECT COUNT(*) FROM memory_items WHERE deleted = 0 "
                "AND id NOT IN (SELECT memory_id FROM memory_fts_docs)",
            ),
        )
        live = frozenset(
            str(r[0]) for r in conn.execute("SELECT id FROM memory_items WHERE deleted = 0")
        )
        cursors = tuple(
            SourceCursorRow(str(tool), str(path), int(offset))
            for tool, path, offset in conn.execute(
                "SELECT source_tool, path, offset FROM source_cursors WHERE source_tool != 'git'"
            )
        )
        parked = tuple(
            (str(kind), str(error))
            for kind, error in conn.execute("SELECT kind, error FROM dead_letters ORDER BY id")
        )
    return StoreFacts(full_text, live, cursors, parked)


def forget_cursors(data_db: Path, paths: Sequence[str]) -> None:
    """Drops the source cursors of these transcript files (not git's): they are read again
    from their start, and the store's dedup keeps the re-read harmless."""
    with contextlib.closing(sqlite3.connect(data_db, timeout=10.0, isolation_level=None)) as db:
        harden(db)
        db.execute("BEGIN IMMEDIATE")
        db.executemany(
            "DELETE FROM source_cursors WHERE path = ? AND source_tool != 'git'",
            [(p,) for p in paths],
        )
        db.execute("COMMIT")
