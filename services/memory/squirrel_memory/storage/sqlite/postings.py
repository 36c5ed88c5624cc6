"""The postings of `memory_fts` and BM25 over them, with FTS5's own arithmetic.

`read_postings` decodes an FTS5 vocabulary (`fts5vocab ... 'instance'`, grouped by `INSTANCES`)
into NumPy arrays; `IndexState` holds them for one store with each row's length and type, takes
rows out and in as the store changes, and ranks a query's tokens as `bm25()` does (see
`sqlite.lexical`, which keeps a state current and answers searches from it).
"""

from __future__ import annotations

import bisect
import math
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from squirrel_memory.storage.bm25 import K1, MIN_IDF

B = 0.75
"""FTS5's length normalisation."""
COLUMN_WEIGHTS = (2.0, 1.0, 1.5, 0.0)
"""bm25() weights of `memory_fts`'s columns: key, content, tags, type (unindexed)."""
REBUILD_SHARE = 0.1
"""Rebuild once the rows added since the build, or those removed, pass this share of rows."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

# One row per term, in term order: the term and, for each of its instances (in rowid, then
# column, then offset order), the rowid times 4 plus the column number, as 16 hex digits.
INSTANCES = (
    "SELECT term, group_concat(printf('%016x', doc * 4 + "
    "CASE col WHEN 'key' THEN 0 WHEN 'content' THEN 1 ELSE 2 END), '') FROM {} GROUP BY term"
)
CHUNK_TERMS = 512
PART_CACHE_POSTINGS = 2_000_000
"""Postings whose per-term score shares `IndexState` keeps (12 bytes each: ~24 MB at most)."""


@dataclass
class Postings:
    """The postings of some rows read from an FTS5 vocabulary, grouped by term.

    The rows are given beforehand as a sorted array of rowids; a posting names its row by the
    row's place in that array."""

    terms: list[str]
    sizes: Ints  # postings of each term
    rows: npt.NDArray[np.int32]  # the row of each posting (term by term, rows ascending)
    freqs: npt.NDArray[np.float32]  # the column-weighted count (exact: sums of halves)
    lengths: Floats  # tokens of each row (FTS5's column sizes, summed)


def read_postings(
    cursor: sqlite3.Cursor, ids: Ints, stop: threading.Event | None = None
) -> Postings:
    """The postings of the rows `ids` (sorted rowids) from an `INSTANCES` query, read a chunk
    of terms at a time."""
    weights = np.asarray(COLUMN_WEIGHTS, dtype=np.float64)
    terms: list[str] = []
    sizes: list[Ints] = []
    rows: list[npt.NDArray[np.int32]] = []
    freqs: list[npt.NDArray[np.float32]] = []
    lengths = np.zeros(len(ids), dtype=np.float64)
    while chunk := cursor.fetchmany(CHUNK_TERMS):
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
        return Postings(
            [],
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int32),
            np.zeros(0, dtype=np.float32),
            lengths,
        )
    return Postings(
        terms, np.concatenate(sizes), np.concatenate(rows), np.concatenate(freqs), lengths
    )


class IndexState:
    """Postings and row statistics as of one position (`seq`) of the change log.

    Rows are numbered by slot: the rows read at the build, in rowid order, then the rows added
    since, in the order they were applied. Removed rows stay in the postings, marked dead.
    """

    def __init__(self, seq: int, ids: Ints, kinds: Sequence[str], postings: Postings) -> None:
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
        self._parts: OrderedDict[int, tuple[Ints, Floats]] = OrderedDict()
        self._parts_key = (0, 0, 0, 0)
        self._parts_held = 0

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

    def add(self, ids: Ints, kinds: Sequence[str], postings: Postings) -> None:
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

    def _term_part(self, token: str) -> tuple[Ints, Floats]:
        """The live slots holding `token` and, for each, (f (k1 + 1)) / (f + k1 (1 - b +
        b·len/avgdl)): the term's share of a score before its idf. Kept for the terms asked most
        recently, up to `PART_CACHE_POSTINGS` postings, while the statistics stay the same."""
        key = (self.rows, self.tokens, self.used, self.dead)
        if key != self._parts_key:
            self._parts.clear()
            self._parts_key = key
            self._parts_held = 0
        term_id = self._term_id(token)
        if term_id is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        part = self._parts.get(term_id)
        if part is not None:
            self._parts.move_to_end(term_id)
            return part
        slots, freqs = self._postings(token)
        part = (slots, (freqs * (K1 + 1.0)) / (freqs + self._norms()[slots]))
        self._parts[term_id] = part
        self._parts_held += len(slots)
        while self._parts_held > PART_CACHE_POSTINGS and len(self._parts) > 1:
            _, (dropped, _) = self._parts.popitem(last=False)
            self._parts_held -= len(dropped)
        return part

    def best(self, tokens: Sequence[str], kinds: Sequence[str] | None, limit: int) -> list[Any]:
        """The `limit` best (rowid, score) among the rows of `kinds` (None: all), best first.

        bm25 as `fts5Bm25Function` computes it: per phrase (here one token each, repeats kept),
        idf x (f (k1 + 1)) / (f + k1 (1 - b + b·len/avgdl)), summed in phrase order."""
        if self.rows <= 0:
            return []
        hit_slots: list[Ints] = []
        hit_scores: list[Floats] = []
        for token in tokens:
            slots, part = self._term_part(token)
            hits = len(slots)
            if not hits:
                continue
            idf = math.log((self.rows - hits + 0.5) / (hits + 0.5))
            if idf <= 0.0:
                idf = MIN_IDF
            hit_slots.append(slots)
            hit_scores.append(idf * part)
        if not hit_slots:
            return []
        every = np.concatenate(hit_slots)
        scores = np.bincount(every, weights=np.concatenate(hit_scores), minlength=self.used)
        held = np.zeros(self.used, dtype=bool)
        held[every] = True
        found = np.flatnonzero(held)
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
