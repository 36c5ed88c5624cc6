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
from `memory_fts_docs` is logged by the write itself (`schema.index_memory_text`), whichever
connection or process made it (an older Squirrel refuses the newer schema). Before answering, the
index applies the changes logged since its state, inside the query's own read transaction, so
it ranks the same snapshot the memories are then read from. `ranked_rows` returns None, and
the caller runs the FTS5 query, while the index is being built (in a background thread), when
it is far behind (it rebuilds), when a query term is not exactly one token, or when the
transaction's snapshot is older than the index.
"""

from __future__ import annotations

import bisect
import json
import math
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import structlog

from squirrel_memory.heap import release_free_memory
from squirrel_memory.storage.bm25 import K1, MIN_IDF
from squirrel_memory.storage.sqlite.connection import BUSY_TIMEOUT_MS, harden
from squirrel_memory.storage.sqlite.reads import MEMORY_COLUMNS_OF_M
from squirrel_memory.storage.sqlite.schema import FTS_TOKENIZER, SEARCH_RESET

log = structlog.get_logger()

B = 0.75
"""FTS5's length normalisation."""
COLUMN_WEIGHTS = (2.0, 1.0, 1.5, 0.0)
"""bm25() weights of `memory_fts`'s columns: key, content, tags, type (unindexed)."""
CATCH_UP_MAX = 5_000
"""Changed rows applied inside a query; beyond that the index is rebuilt in the background."""
REBUILD_SHARE = 0.1
"""Rebuild once the rows added since the build, or those removed, pass this share of rows."""
TOKEN_CACHE_SIZE = 4_096
RETRY_SECONDS = 60.0
"""Wait after a failed build before a query may start another."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# One row per term, in term order: the term and, for each of its instances (in rowid, then
# column, then offset order), the rowid times 4 plus the column number, as 16 hex digits.
_INSTANCES = (
    "SELECT term, group_concat(printf('%016x', doc * 4 + "
    "CASE col WHEN 'key' THEN 0 WHEN 'content' THEN 1 ELSE 2 END), '') FROM {} GROUP BY term"
)
_CHUNK_TERMS = 512
_HEAD = "SELECT coalesce(max(seq), 0) FROM memory_fts_changes"
_OLDEST = "SELECT min(seq) FROM memory_fts_changes"
_CHANGED = "SELECT DISTINCT doc_id FROM memory_fts_changes WHERE seq > ?"
_ROWS = "SELECT rowid, type FROM memory_fts ORDER BY rowid"
_ROWS_TEXT = (
    "SELECT rowid, key, content, tags, type FROM memory_fts "
    "WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid"
)
# The memories of ranked rows, as `search._BEST_MATCHES` joins and filters them.
_MEMORIES = (
    "SELECT d.doc_id, " + MEMORY_COLUMNS_OF_M + " "
    "FROM json_each(?) j CROSS JOIN memory_fts_docs d CROSS JOIN memory_items m "
    "WHERE d.doc_id = j.value AND m.id = d.memory_id AND m.project_id = ? AND m.deleted = 0"
)


@dataclass
class _Postings:
    """The postings of some rows read from an FTS5 vocabulary, grouped by term.

    The rows are given beforehand as a sorted array of rowids; a posting names its row by the
    row's place in that array."""

    terms: list[str]
    sizes: Ints  # postings of each term
    rows: npt.NDArray[np.int32]  # the row of each posting (term by term, rows ascending)
    freqs: npt.NDArray[np.float32]  # the column-weighted count (exact: sums of halves)
    lengths: Floats  # tokens of each row (FTS5's column sizes, summed)


def _read_postings(
    cursor: sqlite3.Cursor, ids: Ints, stop: threading.Event | None = None
) -> _Postings:
    """The postings of the rows `ids` (sorted rowids) from an `_INSTANCES` query, read a chunk
    of terms at a time."""
    weights = np.asarray(COLUMN_WEIGHTS, dtype=np.float64)
    terms: list[str] = []
    sizes: list[Ints] = []
    rows: list[npt.NDArray[np.int32]] = []
    freqs: list[npt.NDArray[np.float32]] = []
    lengths = np.zeros(len(ids), dtype=np.float64)
    while chunk := cursor.fetchmany(_CHUNK_TERMS):
        if stop is not None and stop.is_set():
            raise InterruptedError("stopped")
        terms.extend(str(row[0]) for row in chunk)
        counts = np.fromiter((len(row[1]) // 16 for row in chunk), dtype=np.int64, count=len(chunk))
        packed = np.frombuffer(bytes.fromhex("".join(row[1] for row in chunk)), dtype=">u8")
        term_of = np.repeat(np.arange(len(chunk), dtype=np.int64), counts)
        place = np.searchsorted(ids, (packed >> 2).astype(np.int64))
        if len(place) and (place.max() >= len(ids) or not np.array_equal(ids[place], packed >> 2)):
            raise LookupError("the FTS5 index holds rows its table does not")
        starts = np.ones(len(place), dtype=bool)
        starts[1:] = (term_of[1:] != term_of[:-1]) | (place[1:] != place[:-1])
        group = np.cumsum(starts) - 1
        lengths += np.bincount(place, minlength=len(ids))
        sizes.append(np.bincount(term_of[starts], minlength=len(chunk)))
        rows.append(place[starts].astype(np.int32))
        freqs.append(np.bincount(group, weights=weights[packed & 3]).astype(np.float32))
    if not terms:
        return _Postings(
            [],
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int32),
            np.zeros(0, dtype=np.float32),
            lengths,
        )
    return _Postings(
        terms, np.concatenate(sizes), np.concatenate(rows), np.concatenate(freqs), lengths
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

    def postings(self, rows: Sequence[tuple[int, str, str, str]]) -> _Postings:
        """The postings of (rowid, key, content, tags) rows, given in rowid order."""
        ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        with self._lock:
            try:
                self._conn.executemany(
                    "INSERT INTO t(rowid, key, content, tags) VALUES (?, ?, ?, ?)", rows
                )
                return _read_postings(self._conn.execute(_INSTANCES.format("v")), ids)
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
        try:
            self._conn.executemany(
                "INSERT INTO t(rowid, key, content, tags) VALUES (?, '', ?, '')",
                enumerate(phrases),
            )
            seen: dict[int, list[str]] = {}
            for doc, term in self._conn.execute("SELECT doc, term FROM v"):
                seen.setdefault(int(doc), []).append(str(term))
        finally:
            self._conn.execute("INSERT INTO t(t) VALUES ('delete-all')")
        for n, phrase in enumerate(phrases):
            tokens = seen.get(n, [])
            self._cache[phrase] = tokens[0] if len(tokens) == 1 else None
        while len(self._cache) > TOKEN_CACHE_SIZE:
            self._cache.popitem(last=False)

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class _State:
    """Postings and row statistics as of one position (`seq`) of the change log.

    Rows are numbered by slot: the rows read at the build, in rowid order, then the rows added
    since, in the order they were applied. Removed rows stay in the postings, marked dead.
    """

    def __init__(self, seq: int, ids: Ints, kinds: Sequence[str], postings: _Postings) -> None:
        self.seq = seq
        self.kind_codes: dict[str, int] = {}
        self.terms = postings.terms  # FTS5's order (UTF-8 bytes, so code points): sorted
        if any(a >= b for a, b in zip(self.terms, self.terms[1:], strict=False)):
            raise LookupError("the FTS5 vocabulary is not in term order")
        self.new_terms: dict[str, int] = {}  # terms first seen since the build
        self.offsets = np.zeros(len(postings.terms) + 1, dtype=np.int64)
        np.cumsum(postings.sizes, out=self.offsets[1:])
        self.slots = postings.rows
        self.freqs = postings.freqs
        self.base_count = len(ids)
        capacity = max(16, self.base_count + self.base_count // 8)
        self.doc_ids = np.zeros(capacity, dtype=np.int64)
        self.doc_ids[: self.base_count] = ids
        self.lengths = np.zeros(capacity, dtype=np.float64)
        self.lengths[: self.base_count] = postings.lengths
        self.kinds = np.zeros(capacity, dtype=np.int16)
        self.kinds[: self.base_count] = [self._kind(kind) for kind in kinds]
        self.alive = np.zeros(capacity, dtype=bool)
        self.alive[: self.base_count] = True
        self.used = self.base_count
        self.added: dict[int, int] = {}  # rowid -> slot, for rows added since the build
        self.extra: dict[int, tuple[list[int], list[float]]] = {}  # term -> added postings
        self.dead = 0
        self.rows = self.base_count
        self.tokens = int(postings.lengths.sum())
        self._norm: tuple[tuple[int, int, int], Floats] | None = None

    def _kind(self, kind: str) -> int:
        return self.kind_codes.setdefault(kind, len(self.kind_codes))

    def slot_of(self, doc_id: int) -> int | None:
        slot = self.added.get(doc_id)
        if slot is not None:
            return slot
        n = int(np.searchsorted(self.doc_ids[: self.base_count], doc_id))
        if n < self.base_count and self.doc_ids[n] == doc_id and self.alive[n]:
            return n
        return None

    def remove(self, doc_id: int) -> None:
        slot = self.slot_of(doc_id)
        if slot is None:
            return
        self.added.pop(doc_id, None)
        self.alive[slot] = False
        self.rows -= 1
        self.tokens -= int(self.lengths[slot])
        self.dead += 1

    def add(self, ids: Ints, kinds: Sequence[str], postings: _Postings) -> None:
        """Append the rows `ids` (sorted rowids, none of them present) of types `kinds`, with
        their postings."""
        first = self.used
        need = first + len(ids)
        if need > len(self.doc_ids):
            size = max(need, len(self.doc_ids) * 2)
            for name in ("doc_ids", "lengths", "kinds", "alive"):
                old = getattr(self, name)
                grown = np.zeros(size, dtype=old.dtype)
                grown[: len(old)] = old
                setattr(self, name, grown)
        self.doc_ids[first:need] = ids
        self.lengths[first:need] = postings.lengths
        self.kinds[first:need] = [self._kind(kind) for kind in kinds]
        self.alive[first:need] = True
        self.used = need
        self.rows += len(ids)
        self.tokens += int(postings.lengths.sum())
        self.added.update((doc_id, first + n) for n, doc_id in enumerate(ids.tolist()))
        start = 0
        for term, size in zip(postings.terms, postings.sizes.tolist(), strict=True):
            term_id = self._term_id(term)
            if term_id is None:
                term_id = len(self.terms) + len(self.new_terms)
                self.new_terms[term] = term_id
            slots, freqs = self.extra.setdefault(term_id, ([], []))
            slots.extend((postings.rows[start : start + size] + first).tolist())
            freqs.extend(postings.freqs[start : start + size].tolist())
            start += size

    def wants_rebuild(self) -> bool:
        rows = max(self.base_count, 1)
        return self.dead > REBUILD_SHARE * rows or len(self.added) > REBUILD_SHARE * rows

    def _norms(self) -> Floats:
        """k1 (1 - b + b·len/avgdl) of every slot, as FTS5 computes it (cached per statistics)."""
        key = (self.rows, self.tokens, self.used)
        if self._norm is None or self._norm[0] != key:
            avgdl = float(self.tokens) / float(self.rows)
            self._norm = (key, K1 * ((1 - B) + (B * self.lengths[: self.used]) / avgdl))
        return self._norm[1]

    def _term_id(self, term: str) -> int | None:
        n = bisect.bisect_left(self.terms, term)
        if n < len(self.terms) and self.terms[n] == term:
            return n
        return self.new_terms.get(term)

    def _postings(self, token: str) -> tuple[Ints, Floats]:
        term_id = self._term_id(token)
        if term_id is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        parts_s: list[Any] = []
        parts_f: list[Any] = []
        if term_id < len(self.offsets) - 1:
            start, end = int(self.offsets[term_id]), int(self.offsets[term_id + 1])
            parts_s.append(self.slots[start:end])
            parts_f.append(self.freqs[start:end])
        extra = self.extra.get(term_id)
        if extra is not None:
            parts_s.append(np.asarray(extra[0], dtype=np.int32))
            parts_f.append(np.asarray(extra[1], dtype=np.float64))
        slots = np.concatenate(parts_s) if len(parts_s) > 1 else parts_s[0]
        freqs = np.concatenate(parts_f) if len(parts_f) > 1 else parts_f[0]
        if self.dead:
            live = self.alive[slots]
            slots, freqs = slots[live], freqs[live]
        return slots.astype(np.int64), freqs.astype(np.float64)

    def best(self, tokens: Sequence[str], kinds: Sequence[str] | None, limit: int) -> list[Any]:
        """The `limit` best (rowid, score) among the rows of `kinds` (None: all), best first.

        bm25 as `fts5Bm25Function` computes it: per phrase (here one token each, repeats kept),
        idf x (f (k1 + 1)) / (f + k1 (1 - b + b·len/avgdl)), summed in phrase order."""
        if self.rows <= 0:
            return []
        norms = self._norms()
        hit_slots: list[Ints] = []
        hit_scores: list[Floats] = []
        for token in tokens:
            slots, freqs = self._postings(token)
            hits = len(slots)
            if not hits:
                continue
            idf = math.log((self.rows - hits + 0.5) / (hits + 0.5))
            if idf <= 0.0:
                idf = MIN_IDF
            hit_slots.append(slots)
            hit_scores.append(idf * ((freqs * (K1 + 1.0)) / (freqs + norms[slots])))
        if not hit_slots:
            return []
        scores = np.bincount(
            np.concatenate(hit_slots), weights=np.concatenate(hit_scores), minlength=self.used
        )
        found = np.flatnonzero(scores)
        if kinds is not None:
            codes = [self.kind_codes[k] for k in kinds if k in self.kind_codes]
            found = found[np.isin(self.kinds[found], codes)]
        if len(found) > limit:
            values = scores[found]
            cut = len(values) - limit
            found = found[values >= np.partition(values, cut)[cut]]
        order = np.lexsort((self.doc_ids[found], -scores[found]))[:limit]
        best = found[order]
        return list(zip(self.doc_ids[best].tolist(), scores[best].tolist(), strict=True))


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


def _build(path: Path, stop: threading.Event) -> _State:
    """Read `memory_fts`'s postings, rows and change log position in one read transaction."""
    while not _BUILDS.acquire(timeout=0.1):
        if stop.is_set():
            raise InterruptedError("stopped")
    try:
        return _read_state(path, stop)
    finally:
        _BUILDS.release()


def _read_state(path: Path, stop: threading.Event) -> _State:
    conn = _open_reader(path)
    try:
        conn.execute(
            "CREATE VIRTUAL TABLE temp.memory_fts_instances "
            "USING fts5vocab(main, memory_fts, 'instance')"
        )
        conn.execute("BEGIN")
        seq = int(conn.execute(_HEAD).fetchone()[0])
        rows = conn.execute(_ROWS).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        kinds = [str(r[1]) for r in rows]
        del rows
        cursor = conn.execute(_INSTANCES.format("memory_fts_instances"))
        postings = _read_postings(cursor, ids, stop)
        conn.execute("COMMIT")
        return _State(seq, ids, kinds, postings)
    finally:
        conn.close()


class LexicalIndex:
    """The in-memory BM25 index of one store's `memory_fts` (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._state: _State | None = None
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
        """Build in this thread (tests, tools)."""
        state = _build(self._path, self._stop)
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
            state = _build(self._path, self._stop)
        except InterruptedError:
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
            best = state.best(tokens, kinds, limit)
        if not best:
            return []
        found = {
            row[0]: row[1:]
            for row in conn.execute(_MEMORIES, (json.dumps([d for d, _ in best]), project_id))
        }
        if kinds is not None and (
            len(found) < len(best) or any(row[4] not in kinds for row in found.values())
        ):
            return None
        return [(-score, doc, *found[doc]) for doc, score in best if doc in found]

    def _catch_up(self, conn: sqlite3.Connection, state: _State) -> bool:
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
            state.add(ids, [str(r[4]) for r in present], postings)
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
