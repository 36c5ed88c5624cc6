"""BM25 over an in-memory copy of `memory_fts`'s postings, ranked exactly as FTS5's bm25().

FTS5 scores every row a query matches, reading each row's position lists and size from the
file: at 100,000 memories a question matches tens of thousands of rows and takes 50-70 ms.
This index keeps, for each term, the rows holding it with the term's column-weighted count,
and each row's length in tokens, in NumPy arrays; a query scores its matches in a few
vectorised passes. The arithmetic is FTS5's own (`fts5_aux.c`: the idf with its 1e-6 floor,
k1 1.2, b 0.75, column weights summed over a row's instances of a phrase, the phrases added in
query order, ties broken by rowid), so the scores are the same doubles in the same order.

The tokens are SQLite's: postings come from `fts5vocab` over `memory_fts`; rows added later
and query terms are tokenized by a private in-memory FTS5 table with the same tokenizer.

Every write is followed through `memory_fts_changes`, where each doc id added to or removed
from `memory_fts_docs` is logged by the write itself (`fts_rows.index_memory_text`), whichever
connection or process made it (an older Squirrel refuses the newer schema). Before answering, the
index applies the changes logged since its state, inside the query's own read transaction, so
it ranks the same snapshot the memories are then read from. `ranked_rows` returns None, and
the caller runs the FTS5 query, while the index is being built (in a background thread), when
it is far behind (it rebuilds), when a query term is not exactly one token, or when the
transaction's snapshot is older than the index.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import structlog

from squirrel_core.sqlite_files import harden
from squirrel_memory.heap import release_free_memory
from squirrel_memory.storage.sqlite.connection import BUSY_TIMEOUT_MS
from squirrel_memory.storage.sqlite.fts_rows import FTS_TOKENIZER, SEARCH_RESET
from squirrel_memory.storage.sqlite.mapped_index import MappedIndexUnsafeError
from squirrel_memory.storage.sqlite.postings import IndexState
from squirrel_memory.storage.sqlite.reads import MEMORY_COLUMNS_OF_M
from squirrel_memory.storage.sqlite.vocabulary import INSTANCES, Postings, read_postings

log = structlog.get_logger()

CATCH_UP_MAX = 5_000
"""Changed rows applied inside a query; beyond that the index is rebuilt in the background."""
TOKEN_CACHE_SIZE = 4_096
RETRY_SECONDS = 60.0
"""Wait after a failed build before a query may start another."""


_HEAD = "SELECT coalesce(max(seq), 0) FROM memory_fts_changes"
_OLDEST = "SELECT min(seq) FROM memory_fts_changes"
_CHANGED = "SELECT DISTINCT doc_id FROM memory_fts_changes WHERE seq > ?"
# Each row's memory id rides along (`IndexState.ranked`), so a search's hits need no lookup.
_ROWS = (
    "SELECT f.rowid, f.type, d.memory_id FROM memory_fts f "
    "LEFT JOIN memory_fts_docs d ON d.doc_id = f.rowid ORDER BY f.rowid"
)
_ROWS_TEXT = (
    "SELECT f.rowid, f.key, f.content, f.tags, f.type, d.memory_id FROM memory_fts f "
    "LEFT JOIN memory_fts_docs d ON d.doc_id = f.rowid "
    "WHERE f.rowid IN (SELECT value FROM json_each(?)) ORDER BY f.rowid"
)
# The memories of ranked rows, as `search._BEST_MATCHES` joins and filters them.
_MEMORIES = (
    "SELECT d.doc_id, " + MEMORY_COLUMNS_OF_M + " "
    "FROM json_each(?) j CROSS JOIN memory_fts_docs d CROSS JOIN memory_items m "
    "WHERE d.doc_id = j.value AND m.id = d.memory_id AND m.project_id = ? AND m.deleted = 0"
)


class _Tokenizer:
    """`FTS_TOKENIZER` run by SQLite on a private, contentless, in-memory FTS5 table."""

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._conn.execute(
            "CREATE VIRTUAL TABLE t USING fts5(key, content, tags, content='', "
            f"tokenize = '{FTS_TOKENIZER}')"
        )
        self._conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, str | None] = OrderedDict()

    def postings(self, rows: Sequence[tuple[int, str, str, str]]) -> Postings:
        """The postings of (rowid, key, content, tags) rows, given in rowid order."""
        ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        with self._lock:
            try:
                self._conn.executemany(
                    "INSERT INTO t(rowid, key, content, tags) VALUES (?, ?, ?, ?)", rows
                )
                return read_postings(self._conn.execute(INSTANCES.format("v")), ids)
            finally:
                self._conn.execute("INSERT INTO t(t) VALUES ('delete-all')")

    def tokens(self, phrases: Sequence[str]) -> list[str] | None:
        """The one token of each phrase, or None if a phrase has no token or several."""
        found: list[str | None] = []
        with self._lock:
            missing = [p for p in phrases if p not in self._cache]
            if missing:
                self._tokenize(missing)
            for phrase in phrases:
                self._cache.move_to_end(phrase)
                found.append(self._cache[phrase])
        return None if any(t is None for t in found) else [t for t in found if t is not None]

    def _tokenize(self, phrases: list[str]) -> None:
        # The phrases are inserted and their tokens read in one transaction that is rolled
        # back: the table is empty again without FTS5's 'delete-all' (a query's new word is
        # tokenized on its search's path).
        self._conn.execute("BEGIN")
        try:
            self._conn.executemany(
                "INSERT INTO t(rowid, key, content, tags) VALUES (?, '', ?, '')",
                enumerate(phrases),
            )
            seen: dict[int, list[str]] = {}
            for doc, term in self._conn.execute("SELECT doc, term FROM v"):
                seen.setdefault(int(doc), []).append(str(term))
        finally:
            self._conn.execute("ROLLBACK")
        for n, phrase in enumerate(phrases):
            tokens = seen.get(n, [])
            self._cache[phrase] = tokens[0] if len(tokens) == 1 else None
        while len(self._cache) > TOKEN_CACHE_SIZE:
            self._cache.popitem(last=False)

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _open_reader(path: Path) -> sqlite3.Connection:
    """A read-only connection that may still create TEMP tables (the vocabulary view)."""
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro",
        uri=True,
        isolation_level=None,
        check_same_thread=False,
    )
    harden(conn)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


_BUILDS = threading.Semaphore(1)
"""One build at a time in the process: a service opening many projects builds them in turn."""


Problem = Callable[[], str]
"""Why touching the database's mapped `-shm` file now would crash the process ("" if it would
not): `SqliteDatabase.mapped_problem`."""


def _no_problem() -> str:
    return ""


class _Watch(threading.Event):
    """The build's stop flag, read between chunks of its long read: also refuses to go on once
    the mapped index became unsafe (a SIGBUS at the next page read otherwise)."""

    def __init__(self, stop: threading.Event, problem: Problem) -> None:
        super().__init__()
        self._stop = stop
        self._problem = problem

    def is_set(self) -> bool:
        _refuse_if_unsafe(self._problem)
        return self._stop.is_set()


def _refuse_if_unsafe(problem: Problem) -> None:
    if why := problem():
        raise MappedIndexUnsafeError(why)


def _build(path: Path, stop: threading.Event, problem: Problem = _no_problem) -> IndexState:
    """Read `memory_fts`'s postings, rows and change log position in one read transaction."""
    while not _BUILDS.acquire(timeout=0.1):
        if stop.is_set():
            raise InterruptedError("stopped")
    try:
        return _read_state(path, _Watch(stop, problem))
    finally:
        _BUILDS.release()


def _read_state(path: Path, watch: _Watch) -> IndexState:
    """The state, read on a connection of its own. The store's `-shm` is checked before the
    connection opens and at each step: this process has it mapped, and a read of a file cut
    short under it would be a SIGBUS, not an error (`MappedIndexUnsafeError` instead)."""
    watch.is_set()
    conn = _open_reader(path)
    try:
        conn.execute(
            "CREATE VIRTUAL TABLE temp.memory_fts_instances "
            "USING fts5vocab(main, memory_fts, 'instance')"
        )
        watch.is_set()
        conn.execute("BEGIN")
        seq = int(conn.execute(_HEAD).fetchone()[0])
        rows = conn.execute(_ROWS).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        kinds = [str(r[1]) for r in rows]
        memory_ids = [None if r[2] is None else str(r[2]) for r in rows]
        del rows
        watch.is_set()
        cursor = conn.execute(INSTANCES.format("memory_fts_instances"))
        postings = read_postings(cursor, ids, watch)
        conn.execute("COMMIT")
        return IndexState(seq, ids, kinds, postings, memory_ids)
    finally:
        conn.close()


class LexicalIndex:
    """The in-memory BM25 index of one store's `memory_fts` (see the module docstring)."""

    def __init__(self, path: Path, problem: Problem = _no_problem) -> None:
        self._path = path
        self._problem = problem
        """Checked before and during each build (the store's `mapped_problem`)."""
        self._lock = threading.Lock()
        self._state: IndexState | None = None
        self._tokenizer = _Tokenizer()
        self._builder: threading.Thread | None = None
        self._stop = threading.Event()
        self._failed_at: float | None = None

    @property
    def ready(self) -> bool:
        """Whether a built state is there to answer from."""
        return self._state is not None

    def start_build(self) -> None:
        """Build (or rebuild) in a background thread unless a build is running."""
        with self._lock:
            if self._failed_at is not None and time.monotonic() - self._failed_at < RETRY_SECONDS:
                return
            self._spawn_builder()

    def build_now(self) -> None:
        """Build in this thread (tests, tools), after a background build already running (the
        one a store starts when it opens): finishing later, that one would put its older state
        back over this one, and while it runs no other build can start."""
        builder = self._builder
        if builder is not None:
            builder.join()
        state = _build(self._path, self._stop, self._problem)
        with self._lock:
            self._state = state
        release_free_memory()

    def wait_built(self, timeout: float | None = None) -> bool:
        """Wait for a running build; whether a state is there."""
        builder = self._builder
        if builder is not None:
            builder.join(timeout)
        return self._state is not None

    def _run_build(self) -> None:
        started = time.monotonic()
        try:
            state = _build(self._path, self._stop, self._problem)
        except InterruptedError:
            return
        except MappedIndexUnsafeError as exc:
            self._failed_at = time.monotonic()  # the index it had is kept; tried again later
            why = str(exc)
            log.error(
                "lexical_index_build_refused",
                path=str(self._path),
                file=str(self._path.with_name(self._path.name + "-shm")),
                error="mapped_index_unsafe",
                fix=why.split("; ", 1)[-1],
            )
            return
        except (sqlite3.Error, LookupError, ValueError) as exc:
            self._failed_at = time.monotonic()
            log.warning("lexical_index_build_failed", path=str(self._path), error=str(exc))
            return
        with self._lock:
            self._state = state
            self._failed_at = None
        release_free_memory()
        log.info(
            "lexical_index_built",
            path=str(self._path),
            rows=state.rows,
            postings=len(state.slots),
            memory_id_bytes=state.memory_ids.nbytes,
            seconds=round(time.monotonic() - started, 3),
        )

    def close(self) -> None:
        """Stop a running build and drop the index."""
        self._stop.set()
        builder = self._builder
        if builder is not None:
            builder.join()
        with self._lock:
            self._state = None
        self._tokenizer.close()

    def ranked_docs(
        self,
        conn: sqlite3.Connection,
        terms: Sequence[str],
        kinds: Sequence[str] | None,
        limit: int,
    ) -> list[tuple[int, float, str | None]] | None:
        """The `limit` best (doc id, score, memory id) of the snapshot of `conn` (in a read
        transaction), best first, the score higher-is-better, the memory id None where the
        index does not hold it; None when the index cannot answer (see the module docstring).
        Their memories may be deleted or of another project (`ranked_rows` and
        `reads.memories_of_docs` read and filter them)."""
        if self._state is None:
            self.start_build()
            return None
        tokens = self._tokenizer.tokens(terms)
        if tokens is None:
            return None
        with self._lock:
            state = self._state
            if state is None or not self._catch_up(conn, state):
                return None
            return state.ranked(tokens, kinds, limit)

    def ranked_rows(
        self,
        conn: sqlite3.Connection,
        project_id: str,
        terms: Sequence[str],
        kinds: Sequence[str] | None,
        limit: int,
    ) -> list[Any] | None:
        """`search.ranked_rows` from the index, or None when it cannot answer (see the module
        docstring). `conn` must be in a read transaction, which the memories are read in."""
        best = self.ranked_docs(conn, terms, kinds, limit)
        if not best:
            return best
        found = {
            row[0]: row[1:]
            for row in conn.execute(_MEMORIES, (json.dumps([d for d, _, _ in best]), project_id))
        }
        if kinds is not None and (
            len(found) < len(best) or any(row[4] not in kinds for row in found.values())
        ):
            return None
        return [(-score, doc, *found[doc]) for doc, score, _ in best if doc in found]

    def _catch_up(self, conn: sqlite3.Connection, state: IndexState) -> bool:
        """Apply the changes logged after `state.seq` (call holding the lock); whether the
        state now matches the transaction's snapshot."""
        head = int(conn.execute(_HEAD).fetchone()[0])
        if head == state.seq:
            return True
        if head < state.seq:
            return False  # a snapshot older than the index
        oldest = conn.execute(_OLDEST).fetchone()[0]
        changed = [int(r[0]) for r in conn.execute(_CHANGED, (state.seq,))]
        if (
            oldest is None
            or int(oldest) > state.seq + 1
            or len(changed) > CATCH_UP_MAX
            or SEARCH_RESET in changed
        ):
            self._spawn_builder()
            return False
        for doc_id in changed:
            state.remove(doc_id)
        present = conn.execute(_ROWS_TEXT, (json.dumps(changed),)).fetchall()
        if present:
            postings = self._tokenizer.postings([(r[0], r[1], r[2], r[3]) for r in present])
            ids = np.fromiter((r[0] for r in present), dtype=np.int64, count=len(present))
            memory_ids = [None if r[5] is None else str(r[5]) for r in present]
            state.add(ids, [str(r[4]) for r in present], postings, memory_ids)
        state.seq = head
        if state.wants_rebuild():
            self._spawn_builder()
        return True

    def _spawn_builder(self) -> None:
        """Start a build in a background thread unless one is running or the index is closed
        (call holding the lock)."""
        if self._stop.is_set() or (self._builder is not None and self._builder.is_alive()):
            return
        self._builder = threading.Thread(target=self._run_build, name="lexical-index", daemon=True)
        self._builder.start()
