"""Two reads of a SQLite store at once: both results, one wake-up of the event loop."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS


@pytest.fixture
async def db(tmp_path: Path) -> Any:
    database = SqliteDatabase(tmp_path / "data.db", DATA_MIGRATIONS)
    await database.open()
    yield database
    await database.close()


async def test_both_reads_run_at_once_off_the_loop_and_wake_it_once(
    db: SqliteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop = asyncio.get_running_loop()
    wakes: list[object] = []
    call_soon_threadsafe = loop.call_soon_threadsafe

    def counted(callback: Any, *args: Any, **kwargs: Any) -> Any:
        wakes.append(callback)
        return call_soon_threadsafe(callback, *args, **kwargs)

    monkeypatch.setattr(loop, "call_soon_threadsafe", counted)
    second_ran = threading.Event()
    threads: list[int] = []

    def first(conn: sqlite3.Connection) -> int:
        threads.append(threading.get_ident())
        assert second_ran.wait(10)  # the second read runs while this one does
        return int(conn.execute("SELECT 1").fetchone()[0])

    def second(conn: sqlite3.Connection) -> str:
        threads.append(threading.get_ident())
        second_ran.set()
        return str(conn.execute("SELECT 'two'").fetchone()[0])

    assert await db.read_pair(first, second) == (1, "two")
    assert len(set(threads)) == 2 and threading.get_ident() not in threads
    assert len(wakes) == 1


async def test_a_failed_read_fails_the_pair(db: SqliteDatabase) -> None:
    def failing(conn: sqlite3.Connection) -> int:
        raise LookupError("the read failed")

    def fine(conn: sqlite3.Connection) -> int:
        return 2

    with pytest.raises(LookupError):
        await db.read_pair(fine, failing)
    with pytest.raises(LookupError):
        await db.read_pair(failing, fine)
    assert await db.read_pair(fine, fine) == (2, 2)
