"""A writer killed at any moment leaves events and cursors in step: nothing lost, nothing twice."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceCursor, SourceTool
from squirrel_memory.storage import SqliteStore

T0 = datetime(2026, 11, 1, tzinfo=UTC)
BATCH = 50
WRITER = """
import asyncio, sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from squirrel_core.events import Event, EventType, SourceCursor, SourceTool
from squirrel_memory.storage import SqliteStore

BATCH_SIZE = int(sys.argv[3])

async def main(project: str, progress: str) -> None:
    store = await SqliteStore.open(project)
    done = 0
    while True:
        events = [
            Event(SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE,
                  datetime(2026, 11, 1, tzinfo=UTC) + timedelta(seconds=done + i),
                  {"text": f"record {done + i}"}, "s1")
            for i in range(BATCH_SIZE)
        ]
        done += len(events)
        cursor = SourceCursor(SourceTool.CLAUDE_CODE, "/logs/a.jsonl", 1, done)
        await store.append_events(project, "alice", events, [cursor])
        Path(progress).write_text(str(done))

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def record(n: int) -> Event:
    return Event(
        SourceTool.CLAUDE_CODE,
        EventType.USER_MESSAGE,
        T0 + timedelta(seconds=n),
        {"text": f"record {n}"},
        "s1",
    )


def wait_for_progress(progress: Path, at_least: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "writer exited early"
        text = progress.read_text() if progress.exists() else ""
        if text.isdigit() and int(text) >= at_least:
            return
        time.sleep(0.01)
    pytest.fail("writer made no progress")


@pytest.mark.slow
@pytest.mark.parametrize("kill_after", [200, 650, 1500])
async def test_killed_writer_leaves_events_matching_the_cursor(
    tmp_path: Path, kill_after: int
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    progress = tmp_path / "progress"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(project), str(progress), str(BATCH)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_progress(progress, kill_after, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    store = await SqliteStore.open(str(project))
    try:
        (cursor,) = await store.get_cursors(str(project))
        assert cursor == SourceCursor(SourceTool.CLAUDE_CODE, "/logs/a.jsonl", 1, cursor.offset)
        assert cursor.offset >= kill_after
        assert await store.count_events(str(project)) == cursor.offset
        # Re-reading from the start repeats nothing; reading on from the cursor loses nothing.
        replay = [record(n) for n in range(cursor.offset + BATCH)]
        result = await store.append_events(str(project), "alice", replay, [])
        assert (result.duplicates, result.accepted) == (cursor.offset, BATCH)
    finally:
        await store.close()
    conn = sqlite3.connect(store.path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
