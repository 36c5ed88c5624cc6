"""One SQLite file behind one writer thread (a queue of write jobs) and pooled readers."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import structlog

from squirrel_core.errors import (
    ResourceExhaustedError,
    SquirrelError,
    UnavailableError,
)
from squirrel_core.sqlite_files import harden
from squirrel_core.store_paths import ensure_private_file, secure_sqlite_files
from squirrel_memory.storage.sqlite.connection import (
    BUSY_TIMEOUT_MS,
    StorageError,
    closed_on_failure,
    connect,
)
from squirrel_memory.storage.sqlite.mapped_index import MappedIndex
from squirrel_memory.storage.sqlite.migrator import Migration, migrate
from squirrel_memory.storage.sqlite.row_cache import RowCache
from squirrel_memory.storage.sqlite.transaction import immediate

T = TypeVar("T")
U = TypeVar("U")

log = structlog.get_logger()


def _raise_write_failure(
    path: Path, exc: sqlite3.OperationalError, unwritable: Callable[[], str] = str
) -> None:
    """Raises a write the file system or another process refused as an error the caller can
    act on (the transaction was rolled back); returns for any other error. `unwritable` names
    the file beside the database that refuses writes, if one does."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        raise UnavailableError(f"{path} is locked by another process; try again") from exc
    if name.startswith("SQLITE_FULL"):
        raise ResourceExhaustedError(
            f"cannot write {path}: the disk is full or the file size limit was reached ({name})"
        ) from exc
    if name.startswith("SQLITE_IOERR"):
        # The same error for a full disk, a file size limit and a file that refuses writes
        # (made read-only or immutable while open): name them all rather than guess.
        raise ResourceExhaustedError(
            f"cannot write {path}: the file system refused the write (the disk is full, a file"
            f" size limit was reached, or the file was made read-only) ({name})"
        ) from exc
    if name.startswith("SQLITE_READONLY"):
        beside = unwritable()
        if beside:
            raise StorageError(
                f"cannot write {path}: {beside}; make it writable, then restart the services"
                f" (`sqrl down`, then `sqrl up -d`) ({name})"
            ) from exc
        raise StorageError(f"{path} is read-only; check its permissions ({name})") from exc


class WriteFailure:
    """The last write the file system refused (disk full, file size limit, read-only), kept until
    a write succeeds again: what `sqrl status` and `sqrl doctor` show of a store that cannot
    take writes (the callers got the error; ingest keeps the events and retries)."""

    __slots__ = ("at", "message")

    def __init__(self, message: str, at: float) -> None:
        self.message = message
        self.at = at


class SqliteDatabase:
    """A database file: writes are queued to one thread and run as one transaction each.

    `write(fn)` runs `fn(conn)` on the writer thread inside `BEGIN IMMEDIATE … COMMIT` (rolled
    back if `fn` raises). `read(fn)` runs `fn(conn)` on one of `readers` threads, each with its
    own read-only connection; under WAL, readers never block the writer or each other.
    `rows` keeps decoded memories for the reads of a search while the memory rows stay as they
    were (`RowCache`, which each read asks); a write outside a transaction empties it.
    """

    def __init__(self, path: Path, migrations: Sequence[Migration], *, readers: int = 2) -> None:
        self.path = path
        self._migrations = migrations
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._readers = ThreadPoolExecutor(
            max_workers=max(1, readers), thread_name_prefix="sqlite-reader"
        )
        self._write_conn: sqlite3.Connection | None = None
        self._read_conns: list[sqlite3.Connection] = []
        self._local = threading.local()
        self._lock = threading.Lock()
        self._closed = False
        self._file_id: tuple[int, int] | None = None
        """(device, inode) of the file the writer opened: tells it from one put in its place."""
        self._generation = 0
        """Raised when the database moves to a new file: readers then reconnect."""
        self.schema_version = 0
        self.rows = RowCache()
        self.write_failure: WriteFailure | None = None
        """The last refused write, until one succeeds (see `WriteFailure`)."""
        self._index = MappedIndex(path)
        """The `-shm` file SQLite maps: checked before each use (a SIGBUS otherwise)."""

    async def open(self) -> None:
        """Create the file (0600) if needed, open the writer connection and migrate."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._writer, self._open_writer)

    def _open_writer(self) -> None:
        try:
            ensure_private_file(self.path)
        except OSError as exc:
            raise StorageError(f"cannot create database file {self.path}: {exc}") from exc
        conn = connect(self.path, migrations=self._migrations)
        with closed_on_failure(conn, self.path):
            self.schema_version = migrate(conn, self._migrations)
        secure_sqlite_files(self.path)
        self._write_conn = conn
        self._file_id = _file_id(self.path)
        self._index.seen()
        log.info("database_opened", path=str(self.path), schema_version=self.schema_version)

    def file_replaced(self) -> bool:
        """Whether the file this database has open is no longer at `path`: deleted (with its
        folder, say), or another file put there. Writes would then reach no file anyone reads."""
        if self._file_id is None or self._closed:
            return False
        try:
            return _file_id(self.path) != self._file_id
        except FileNotFoundError:
            return True
        except OSError:
            return False  # unreadable for a moment: the next write asks again

    async def move_to(self, path: Path) -> None:
        """Copy everything this database holds (the committed writes of the file it has open,
        even if that file was deleted) into a new file at `path`, and use that file from now on.
        The folder must exist; a file at `path` is replaced."""
        self._check_open()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._writer, self._move, path)

    def _move(self, path: Path) -> None:
        old = self._write_conn
        if old is None:
            raise StorageError(f"database is not open: {self.path}")
        for leftover in (
            path,
            path.with_name(path.name + "-wal"),
            path.with_name(path.name + "-shm"),
        ):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
        try:
            ensure_private_file(path)
            with contextlib.closing(sqlite3.connect(path)) as target:
                old.backup(target)
        except (OSError, sqlite3.Error) as exc:
            raise StorageError(f"cannot copy the database into {path}: {exc}") from exc
        conn = connect(path, migrations=self._migrations)
        secure_sqlite_files(path)
        old.close()
        self._write_conn = conn
        self.path = path
        self._file_id = _file_id(path)
        self._index = MappedIndex(path)
        self._index.seen()
        with self._lock:
            self._generation += 1
        self.rows.bump()
        log.info("database_moved", path=str(path), schema_version=self.schema_version)

    def mapped_problem(self) -> str:
        """Why touching the database's mapped `-shm` file now would crash the process, with
        what to do; "" when it would not (`MappedIndex.problem`). For a connection of its own
        (the lexical index's build), checked as this database checks its own."""
        return self._index.problem()

    def _check_mapped(self, *, writing: bool) -> None:
        """Refuses a use of the database that would touch its mapped `-shm` file when that
        would crash the process (`MappedIndex.problem`): a write is kept as a refused write
        (logged once, shown by `sqrl status` and `sqrl doctor`), so its caller retries."""
        problem = self._index.problem()
        if not problem:
            return
        message = f"cannot use {self.path}: {problem}"
        if not writing:
            raise StorageError(message)
        if self.write_failure is None or self.write_failure.message != message:
            log.error(
                "store_write_refused",
                path=str(self.path),
                file=str(self._index.path),
                error="mapped_index_unsafe",
                fix=problem.split("; ", 1)[-1],
            )
        self.write_failure = WriteFailure(message, time.time())
        raise ResourceExhaustedError(message)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """The writer connection, once the file may be written (`_check_mapped`); a write the
        file system or another process refuses is raised as `_refused` raises it."""
        conn = self._write_conn
        if conn is None:
            raise StorageError(f"database is not open: {self.path}")
        self._check_mapped(writing=True)
        try:
            yield conn
        except sqlite3.OperationalError as exc:
            self._refused(exc)
            raise

    def _run_write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._writing() as conn, immediate(conn):
            result = fn(conn)
        self._index.seen()
        self.write_failure = None
        return result

    def _refused(self, exc: sqlite3.OperationalError) -> None:
        """Raises a refused write as `_raise_write_failure` does, keeping it (and logging it
        once per run of failures) when the file system refused it; returns for other errors."""
        try:
            _raise_write_failure(self.path, exc, self._index.unwritable)
        except UnavailableError:
            raise  # locked by another process: a moment, not the store
        except SquirrelError as refused:
            if self.write_failure is None:
                log.warning(
                    "store_write_refused",
                    path=str(self.path),
                    error=str(getattr(exc, "sqlite_errorname", type(exc).__name__)),
                )
            self.write_failure = WriteFailure(str(refused), time.time())
            raise

    def _run_plain(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._writing() as conn:
            try:
                return fn(conn)
            finally:
                self._index.seen()
                self.rows.bump()

    def _reader_conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and getattr(self._local, "generation", 0) != self._generation:
            with self._lock:  # the database moved to a new file: read that one
                self._read_conns.remove(conn)
            conn.close()
            conn = None
        if conn is None:
            conn = connect(self.path, read_only=True)
            self._local.conn = conn
            self._local.generation = self._generation
            with self._lock:
                self._read_conns.append(conn)
        return conn

    def _run_read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        self._check_mapped(writing=False)
        return fn(self._reader_conn())

    async def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn` in one write transaction on the writer thread; return its result."""
        self._check_open()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, self._run_write, fn)

    async def write_outside_transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn` on the writer thread without a transaction (VACUUM, checkpoints)."""
        self._check_open()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, self._run_plain, fn)

    async def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run `fn` on a reader thread with its own connection; return its result."""
        self._check_open()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, self._run_read, fn)

    async def read_pair(
        self, first: Callable[[sqlite3.Connection], T], second: Callable[[sqlite3.Connection], U]
    ) -> tuple[T, U]:
        """`read(first)` and `read(second)` on two reader threads at once (one after the other
        with a single reader), the event loop woken once, when both are done: each wake-up of
        a waiting loop is a thread hand-off, which on a busy machine waits for a core."""
        self._check_open()
        loop = asyncio.get_running_loop()
        both: asyncio.Future[tuple[T, U]] = loop.create_future()
        # `first` is queued first, so it starts first (the longer read goes there).
        jobs = (
            self._readers.submit(self._run_read, first),
            self._readers.submit(self._run_read, second),
        )
        left = [len(jobs)]
        lock = threading.Lock()

        def settle() -> None:
            if both.done():
                return
            failed = next((j.exception() for j in jobs if j.exception() is not None), None)
            if failed is not None:
                both.set_exception(failed)
            else:
                both.set_result((jobs[0].result(), jobs[1].result()))

        def done(_: Future[Any]) -> None:
            with lock:
                left[0] -= 1
                last = left[0] == 0
            if last and not loop.is_closed():
                loop.call_soon_threadsafe(settle)

        for job in jobs:
            job.add_done_callback(done)
        try:
            return await both
        finally:
            for job in jobs:
                job.cancel()  # not started yet: never run (a started job runs to its end)

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError(f"database is closed: {self.path}")

    async def close(self) -> None:
        """Finish queued work, then close every connection. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self._shutdown)

    def _shutdown(self) -> None:
        self._readers.shutdown(wait=True)
        self._writer.shutdown(wait=True)
        if self._index.restore():  # closing reads the index: cut short, it would fault
            log.warning("mapped_index_restored", file=str(self._index.path))
        with self._lock:
            for conn in self._read_conns:
                conn.close()
            self._read_conns.clear()
        if self._write_conn is not None:
            self._write_conn.close()
            self._write_conn = None
        secure_sqlite_files(self.path)
        log.info("database_closed", path=str(self.path))


def _file_id(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_dev, stat.st_ino


__all__ = ["BUSY_TIMEOUT_MS", "SqliteDatabase", "StorageError", "connect", "harden"]
