"""`sqrl doctor`'s store check names a file beside the database that refuses writes, and what
clears it: the shared-memory index SQLite maps (`data.db-shm`) included, immutable or not."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from squirrel_cli.store_writes import space_problem


def _chattr(flag: str, path: Path) -> bool:
    try:
        done = subprocess.run(["chattr", flag, str(path)], capture_output=True, check=False)
    except OSError:
        return False
    return done.returncode == 0


def test_an_immutable_shared_memory_index_is_named_with_the_command_that_clears_it(
    tmp_path: Path,
) -> None:
    store = tmp_path / ".ctx"
    store.mkdir()
    for name in ("data.db", "data.db-wal", "data.db-shm"):
        (store / name).write_bytes(b"\0" * 64)
    assert space_problem(store) is None or "free" in str(space_problem(store))
    shm = store / "data.db-shm"
    if not _chattr("+i", shm):
        pytest.skip("cannot make a file immutable here (needs CAP_LINUX_IMMUTABLE)")
    try:
        problem = space_problem(store)
    finally:
        _chattr("-i", shm)
    assert problem is not None
    assert str(shm) in problem and "chattr -i -a" in problem
    assert "data.db-wal" not in problem  # only the file that refuses is named
