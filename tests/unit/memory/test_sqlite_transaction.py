"""One IMMEDIATE write transaction (`sqlite.transaction.immediate`) and a new connection closed
when opening it fails (`sqlite.connection.closed_on_failure`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from squirrel_core.errors import NotFoundError
from squirrel_memory.storage.sqlite.connection import StorageError, closed_on_failure
from squirrel_memory.storage.sqlite.transaction import immediate


def _table(tmp_path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    conn.execute("CREATE TABLE t (x INTEGER)")
    return conn


def test_the_block_is_committed(tmp_path: Path) -> None:
    conn = _table(tmp_path)
    with immediate(conn):
        assert conn.in_transaction
        conn.execute("INSERT INTO t VALUES (1)")
    assert not conn.in_transaction
    assert conn.execute("SELECT x FROM t").fetchall() == [(1,)]


def test_an_error_rolls_the_block_back_and_is_raised_again(tmp_path: Path) -> None:
    conn = _table(tmp_path)
    with pytest.raises(KeyError), immediate(conn):
        conn.execute("INSERT INTO t VALUES (1)")
        raise KeyError("x")
    assert not conn.in_transaction
    assert conn.execute("SELECT x FROM t").fetchall() == []


def test_a_block_that_ended_the_transaction_itself_is_not_rolled_back_twice(
    tmp_path: Path,
) -> None:
    conn = _table(tmp_path)
    with pytest.raises(sqlite3.OperationalError), immediate(conn):
        conn.execute("INSERT INTO t VALUES (1)")
        conn.execute("COMMIT")  # the COMMIT after the block then fails: no transaction
    assert conn.execute("SELECT x FROM t").fetchall() == [(1,)]


def test_a_file_locked_by_another_writer_refuses_before_the_block(tmp_path: Path) -> None:
    conn = _table(tmp_path)
    other = sqlite3.connect(tmp_path / "t.db", isolation_level=None, timeout=0)
    conn.execute("BEGIN IMMEDIATE")
    ran = []
    with pytest.raises(sqlite3.OperationalError), immediate(other):
        ran.append(1)
    assert ran == []
    conn.execute("ROLLBACK")
    other.close()
    conn.close()


def test_a_database_error_closes_the_connection_as_a_storage_error(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    path = tmp_path / "t.db"
    with (
        pytest.raises(StorageError, match="cannot use database file"),
        closed_on_failure(conn, path),
    ):
        conn.execute("SELECT * FROM missing")
    with pytest.raises(sqlite3.ProgrammingError):  # closed
        conn.execute("SELECT 1")


def test_a_refusal_closes_the_connection_and_is_raised_as_it_is(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    with pytest.raises(NotFoundError), closed_on_failure(conn, tmp_path / "t.db"):
        raise NotFoundError("refused")
    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")


def test_other_errors_leave_the_connection_open(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    with pytest.raises(KeyError), closed_on_failure(conn, tmp_path / "t.db"):
        raise KeyError("x")
    assert conn.execute("SELECT 1").fetchone() == (1,)
    conn.close()
