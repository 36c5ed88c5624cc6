"""A store whose file system refuses a write (SQLite's "database or disk is full", here a page
limit on a real database file) keeps why and when, until a write succeeds again: what
`sqrl status` and `sqrl doctor` show; the refused transaction left nothing behind."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest

from squirrel_cli.store_writes import refused_line
from squirrel_core.errors import SquirrelError
from squirrel_memory.storage import SqliteStore


def _page_limit(extra: int) -> Callable[[sqlite3.Connection], None]:
    def apply(conn: sqlite3.Connection) -> None:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + extra}")

    return apply


def _fill(rows: int) -> Callable[[sqlite3.Connection], int]:
    def apply(conn: sqlite3.Connection) -> int:
        conn.execute("CREATE TABLE IF NOT EXISTS filler (blob BLOB)")
        conn.executemany("INSERT INTO filler VALUES (?)", [(b"x" * 4000,) for _ in range(rows)])
        return int(conn.execute("SELECT COUNT(*) FROM filler").fetchone()[0])

    return apply


async def test_a_refused_write_is_kept_until_a_write_succeeds(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()))
    try:
        db = store._db
        await db.write(_fill(1))  # the table exists; the file can grow by a few pages only
        assert store.write_failure() is None
        await db.write_outside_transaction(_page_limit(4))
        with pytest.raises(SquirrelError) as refused:
            await db.write(_fill(200))
        assert refused.value.grpc_code == grpc.StatusCode.RESOURCE_EXHAUSTED
        failure = store.write_failure()
        assert failure is not None and str(store.path) in failure[0]
        count = await db.read(lambda c: c.execute("SELECT COUNT(*) FROM filler").fetchone()[0])
        assert count == 1  # the refused transaction left no row

        await db.write_outside_transaction(_page_limit(1000))
        assert await db.write(_fill(1)) == 2
        assert store.write_failure() is None
    finally:
        await store.close()


def _chattr(flag: str, paths: list[Path]) -> bool:
    try:
        done = subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True, check=False)
    except OSError:
        return False
    return done.returncode == 0


async def test_a_store_file_made_unwritable_while_open_refuses_writes_and_says_so(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()))
    # The database and its write-ahead log; not the shared-memory index SQLite maps into memory
    # (a page it cannot grow there is a SIGBUS in the writer, not an error: left alone here).
    files = [store.path, store.path.with_name("data.db-wal")]
    try:
        await store._db.write(_fill(1))
        if not _chattr("+i", files):  # needs the immutable flag (CAP_LINUX_IMMUTABLE)
            pytest.skip("cannot make a file immutable here")
        try:
            with pytest.raises(SquirrelError) as refused:
                await store._db.write(_fill(50))
            failure = store.write_failure()
        finally:
            _chattr("-i", files)
        assert refused.value.grpc_code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert failure is not None and "read-only" in failure[0]
        assert await store._db.write(_fill(1)) == 2  # writable again: nothing half-written
        assert store.write_failure() is None
    finally:
        await store.close()


def test_status_says_a_refused_store_and_what_is_kept() -> None:
    row = {
        "project": "/work/app",
        "write_failure": "cannot write /work/app/.ctx/data.db: the disk is full",
        "write_failed_at": "2026-01-15T10:00:00+00:00",
    }
    line = refused_line(row, {"buffered_events": 120})
    assert line is not None
    assert line.startswith("Writes refused in /work/app (last at ")
    assert "the disk is full" in line and "120 undelivered events" in line
    assert "nothing is dropped" in line
    assert refused_line({"project": "/work/app", "write_failure": None}, None) is None
