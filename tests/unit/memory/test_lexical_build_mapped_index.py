"""The in-memory lexical index builds by reading the store on a connection of its own (a
background thread). A `data.db-shm` cut short while the store has it mapped made that read a
SIGBUS, which ended the memory service. The build now checks the mapped index first (and
between chunks of its read), as the store's own reads and writes do: it is refused, says so in
one log line naming the file, keeps the index it had, and nothing stored is lost. Each case
runs in its own process (a SIGBUS would end the test run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: Opens a real store, stores memories, waits for the index, cuts the `-shm` file, then asks
#: for a rebuild the way a search far behind the change log does (on the index's own thread)
#: and closes; prints what each step gave as JSON.
SCRIPT = """
import asyncio, faulthandler, json, os, sqlite3, sys, time
from squirrel_core.logs import configure_logging
from squirrel_memory.storage import SqliteStore

faulthandler.enable()
configure_logging("memory", "info", json=True)
root = sys.argv[1]

def fill(conn):
    conn.execute("CREATE TABLE IF NOT EXISTS filler (blob BLOB)")
    conn.executemany("INSERT INTO filler VALUES (?)", [(b"x" * 400,) for _ in range(200)])
    return conn.execute("SELECT COUNT(*) FROM filler").fetchone()[0]

async def main():
    store = await SqliteStore.open(root)
    out = {"before": await store._db.write(fill)}
    lexical = store._lexical
    out["built"] = await asyncio.to_thread(lexical.wait_built, 60)
    os.truncate(store.path.with_name("data.db-shm"), 0)
    with lexical._lock:  # as a search far behind the change log does
        lexical._spawn_builder()
    out["after"] = await asyncio.to_thread(lexical.wait_built, 60)
    out["refused_for_a_while"] = lexical._failed_at is not None
    print(json.dumps(out), flush=True)
    await store.close()
    with sqlite3.connect(store.path) as again:
        count = again.execute("SELECT COUNT(*) FROM filler").fetchone()[0]
        print(json.dumps({"reopened": count}), flush=True)

asyncio.run(main())
"""

#: A build cut into mid-read: the store holds 400 memories (over 2,000 terms: several chunks of
#: the postings' read); the `-shm` file is cut by the build's own check once the first chunk is
#: read (a real cut, at a point the test chooses), so the next chunk's read would fault.
MID_READ = """
import asyncio, faulthandler, json, os, sys
from squirrel_core.logs import configure_logging
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.fts_rows import index_memory_text
from squirrel_memory.storage.sqlite.lexical import LexicalIndex
from squirrel_memory.storage.sqlite.mapped_index import MappedIndexUnsafeError

faulthandler.enable()
configure_logging("memory", "info", json=True)

def fill(conn):
    for n in range(400):
        words = " ".join(f"w{n}x{k}" for k in range(6))
        index_memory_text(conn, f"m{n}", kind="project_fact", key=f"k{n}", content=words,
                          tags_json="[]")

async def main():
    store = await SqliteStore.open(sys.argv[1], lexical_index=False)
    await store._db.write(fill)
    shm, checks = store.path.with_name("data.db-shm"), []

    def problem():
        checks.append(1)
        if len(checks) == 4:  # before open, after the vocabulary table, before the postings,
            os.truncate(shm, 0)  # then after the first chunk of them
        return store._db.mapped_problem()

    index = LexicalIndex(store.path, problem)
    try:
        index.build_now()
        out = {"built": True}
    except MappedIndexUnsafeError as exc:
        out = {"refused": "data.db-shm" in str(exc), "checks": len(checks)}
    print(json.dumps(out), flush=True)
    index.close()
    await store.close()

asyncio.run(main())
"""


def test_a_build_over_an_index_cut_short_is_refused_not_a_crash(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(root.resolve())],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"exit {done.returncode} (-7 is SIGBUS): {output[-3000:]}"
    first, second = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    # "after": the index built before the cut is kept; the refusal holds off builds a while
    assert first == {"before": 200, "built": True, "after": True, "refused_for_a_while": True}
    refused = [
        json.loads(line)
        for line in done.stderr.splitlines()
        if line.startswith("{") and "lexical_index_build_refused" in line
    ]
    assert len(refused) == 1, output[-3000:]
    assert refused[0]["error"] == "mapped_index_unsafe"
    assert refused[0]["file"].endswith("data.db-shm") and "sqrl down" in refused[0]["fix"]
    assert second["reopened"] == 200


def test_a_build_whose_index_is_cut_mid_read_stops_before_the_next_chunk(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", MID_READ, str(root.resolve())],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"exit {done.returncode} (-7 is SIGBUS): {output[-3000:]}"
    (answer,) = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert answer == {"refused": True, "checks": 4}
