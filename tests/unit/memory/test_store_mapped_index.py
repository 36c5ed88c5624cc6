"""A store whose `data.db-shm` (the index SQLite maps into memory under WAL) is cut short or
made immutable while it is open: a write or read that would touch it crashed the process with
SIGBUS. It is refused instead, naming the file and what to do; nothing stored is lost, and the
store closes cleanly. Each case runs in its own process (a SIGBUS would end the test run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: Opens a real store, writes, breaks its `-shm` the way argv[2] says, then tries a write, a
#: read, a write after the fix (where one exists) and a close; prints what each gave as JSON.
SCRIPT = """
import asyncio, faulthandler, json, os, sqlite3, subprocess, sys
from pathlib import Path
from squirrel_core.errors import SquirrelError
from squirrel_memory.storage import SqliteStore

faulthandler.enable()
root, how = sys.argv[1], sys.argv[2]

def fill(rows):
    def apply(conn):
        conn.execute("CREATE TABLE IF NOT EXISTS filler (blob BLOB)")
        conn.executemany("INSERT INTO filler VALUES (?)", [(b"x" * 400,) for _ in range(rows)])
        return conn.execute("SELECT COUNT(*) FROM filler").fetchone()[0]
    return apply

def count(conn):
    return conn.execute("SELECT COUNT(*) FROM filler").fetchone()[0]

async def attempt(call):
    try:
        return {"ok": await call}
    except SquirrelError as exc:
        return {"code": exc.grpc_code.name, "message": str(exc)}

async def main():
    store = await SqliteStore.open(root)
    db, out = store._db, {}
    out["before"] = await db.write(fill(200))
    if store._lexical is not None:  # its build reads the file on a thread of its own
        await asyncio.to_thread(store._lexical.wait_built, 60)
    shm = store.path.with_name("data.db-shm")
    if how == "cut":
        os.truncate(shm, 0)
    else:
        subprocess.run(["chattr", "+i", str(shm)], check=True)
    out["write"] = await attempt(db.write(fill(50)))
    failure = store.write_failure()
    out["kept"] = failure[0] if failure else None
    out["read"] = await attempt(db.read(count))
    if how == "immutable":
        subprocess.run(["chattr", "-i", str(shm)], check=True)
        out["after_fix"] = await attempt(db.write(fill(1)))
        out["kept_after_fix"] = store.write_failure()
    print(json.dumps(out), flush=True)
    await store.close()
    with sqlite3.connect(store.path) as again:
        print(json.dumps({"reopened": count(again)}), flush=True)

asyncio.run(main())
"""


def _run(tmp_path: Path, how: str) -> tuple[int, list[dict[str, object]], str]:
    root = tmp_path / "repo"
    root.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(root.resolve()), how],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return done.returncode, lines, done.stdout + done.stderr


def _can_chattr(tmp_path: Path) -> bool:
    probe = tmp_path / "probe"
    probe.write_text("x")
    try:
        made = subprocess.run(["chattr", "+i", str(probe)], capture_output=True, check=False)
    except OSError:
        return False
    subprocess.run(["chattr", "-i", str(probe)], capture_output=True, check=False)
    return made.returncode == 0


def test_an_index_cut_short_refuses_writes_and_reads_and_loses_nothing(tmp_path: Path) -> None:
    code, lines, output = _run(tmp_path, "cut")
    assert code == 0, f"exit {code} (-7 is SIGBUS): {output[-3000:]}"
    first, second = lines
    assert first["before"] == 200
    write = first["write"]
    assert isinstance(write, dict) and write["code"] == "RESOURCE_EXHAUSTED"
    assert "data.db-shm" in str(write["message"]) and "sqrl down" in str(write["message"])
    assert first["kept"] == write["message"]  # what `sqrl status` and `sqrl doctor` show
    read = first["read"]
    assert isinstance(read, dict) and read["code"] == "FAILED_PRECONDITION"
    assert "data.db-shm" in str(read["message"])
    assert second["reopened"] == 200  # the refused write left nothing; nothing stored was lost
    assert "mapped_index_unsafe" in output and "mapped_index_restored" in output


def test_an_immutable_index_refuses_writes_until_the_flag_is_cleared(tmp_path: Path) -> None:
    if not _can_chattr(tmp_path):
        pytest.skip("cannot make a file immutable here (needs CAP_LINUX_IMMUTABLE)")
    code, lines, output = _run(tmp_path, "immutable")
    assert code == 0, f"exit {code} (-7 is SIGBUS): {output[-3000:]}"
    first, second = lines
    write = first["write"]
    assert isinstance(write, dict) and write["code"] == "RESOURCE_EXHAUSTED"
    assert "data.db-shm" in str(write["message"]) and "chattr -i" in str(write["message"])
    assert first["kept"] == write["message"]
    read = first["read"]  # a read takes a read mark in the index: a write there too
    assert isinstance(read, dict) and read["code"] == "FAILED_PRECONDITION"
    assert first["after_fix"] == {"ok": 201} and first["kept_after_fix"] is None
    assert second["reopened"] == 201
