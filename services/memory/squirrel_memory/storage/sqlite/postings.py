"""BM25 over the postings of `memory_fts`, with FTS5's own arithmetic.

`vocabulary.read_postings` decodes an FTS5 vocabulary into NumPy arrays; `IndexState` holds
them for one store with each row's length and type, takes rows out and in as the store changes,
and ranks a query's tokens as `bm25()` does, leaving unscored the rows that cannot enter the top
k where that saves work (MaxScore, `storage.bm25`) and keeping of the scored rows those reaching
a floor the rarest term's rows give; see `sqlite.lexical`, which keeps a state current and
answers searches from it.
"""

from __future__ import annotations

import bisect
import math
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from squirrel_memory.storage.bm25 import K1, MIN_IDF, SEED_ROWS_PER_RESULT, essential_terms
from squirrel_memory.storage.sqlite.slot_ids import SlotIds
from squirrel_memory.storage.sqlite.vocabulary import Floats, Ints, Postings

B = 0.75
"""FTS5's length normalisation."""
REBUILD_SHARE = 0.1
"""Rebuild once the rows added since the build, or those removed, pass this share of rows."""

_NO_SLOTS: Ints = np.zeros(0, dtype=np.int64)
_NO_SHARES: Floats = np.zeros(0, dtype=np.float64)

PART_CACHE_POSTINGS = 2_000_000
"""Postings whose per-term score shares `IndexState` keeps (16 bytes each: ~32 MB at most)."""
PRUNE_ABOVE_POSTINGS = 4_096
"""Queries whose terms hold more postings than this are pruned (MaxScore, `IndexState.best`);
below it, scoring every posting costs less than finding the rows to skip."""
SELECT_ABOVE_ROWS = 32_768
SELECT_SHARE = 2
"""A query's candidate rows are picked among its postings (`_contenders`) once the store holds
this many rows and at least `SELECT_SHARE` times more rows than the query's postings; below it,
one comparison over every row's score costs less than the selection's few extra calls (on the
bench stores: about 0.1 ms saved per query at 100,000 memories, a few microseconds lost at
10,000)."""
PRUNE_SHARE = 8
"""Pruning goes on only while the rows it scores, times the query's terms, stay under 1/8 of
the query's postings: each of those rows is looked up in every term's postings (a binary
search), where scoring every posting is one vectorised pass. On the 100k bench store (a
question's terms in tens of thousands of postings) that pass takes about half a millisecond
and pruning does not pay; it does where rare terms meet far larger postings."""


def _contenders(
    every: Ints, scores: Floats, kinds: npt.NDArray[np.int16], codes: Ints | None, n: int
) -> Ints:
    """The rows (sorted, each once) among the postings `every` (of the rows of kinds `codes`,
    None: all) whose score reaches the `n`-th best posting's, `n` the results asked for times
    the query's terms: every row that can be among the results.

    A row holds at most one posting per term, so the rows scoring more than the `limit`-th
    best row (fewer than `limit`) hold fewer than `n` postings: the `n`-th best posting scores
    at most the `limit`-th best row, which therefore passes, and so does every row tied with
    it. Only the query's postings are looked at, never every row of a large store."""
    if codes is not None:
        every = every[np.isin(kinds[every], codes)]
    if len(every) > n:
        values = scores[every]
        cut = len(values) - n
        every = every[values >= np.partition(values, cut)[cut]]
    return np.unique(every)


class IndexState:
    """Postings and row statistics as of one position (`seq`) of the change log.

    Rows are numbered by slot: the rows read at the build, in rowid order, then the rows added
    since, in the order they were applied. Removed rows stay in the postings, marked dead. Each
    slot keeps its row's memory id where it was given (`memory_ids`, `ranked`).
    """

    def __init__(
        self,
        seq: int,
        ids: Ints,
        kinds: Sequence[str],
        postings: Postings,
        memory_ids: Sequence[str | None] = (),
    ) -> None:
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
        self.memory_ids = SlotIds(capacity, memory_ids)
        self.used = self.base_count
        self.added: dict[int, int] = {}  # rowid -> slot, for rows added since the build
        self.extra: dict[int, tuple[list[int], list[float]]] = {}  # term -> added postings
        self.dead = 0
        self.rows = self.base_count
        self.tokens = int(postings.lengths.sum())
        self._norm: tuple[tuple[int, int, int], Floats] | None = None
        self._parts: OrderedDict[int, tuple[Ints, Floats, float]] = OrderedDict()
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

    def add(
        self,
        ids: Ints,
        kinds: Sequence[str],
        postings: Postings,
        memory_ids: Sequence[str | None] = (),
    ) -> None:
        """Append the rows `ids` (sorted rowids, none of them present) of types `kinds`, with
        their postings and their memory ids (where given)."""
        first = self.used
        need = first + len(ids)
        if need > len(self.doc_ids):
            size = max(need, len(self.doc_ids) * 2)
            for name in ("doc_ids", "lengths", "kinds", "alive"):
                old = getattr(self, name)
                grown = np.zeros(size, dtype=old.dtype)
                grown[: len(old)] = old
                setattr(self, name, grown)
            self.memory_ids.grow(size)
        self.memory_ids.put(first, memory_ids)
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

    def _term_shares(self, token: str) -> tuple[Ints, Floats, float]:
        """The live slots holding `token`, the term's share of each one's score (idf x (f (k1 +
        1)) / (f + k1 (1 - b + b·len/avgdl))) and the largest share (the term's upper bound).
        Kept for the terms asked most recently, up to `PART_CACHE_POSTINGS` postings, while the
        statistics (and so each idf) stay the same."""
        key = (self.rows, self.tokens, self.used, self.dead)
        if key != self._parts_key:
            self._parts.clear()
            self._parts_key = key
            self._parts_held = 0
        term_id = self._term_id(token)
        if term_id is None:
            return _NO_SLOTS, _NO_SHARES, 0.0
        part = self._parts.get(term_id)
        if part is not None:
            self._parts.move_to_end(term_id)
            return part
        slots, freqs = self._postings(token)
        hits = len(slots)
        if not hits:
            return _NO_SLOTS, _NO_SHARES, 0.0
        idf = math.log((self.rows - hits + 0.5) / (hits + 0.5))
        if idf <= 0.0:
            idf = MIN_IDF
        shares = idf * ((freqs * (K1 + 1.0)) / (freqs + self._norms()[slots]))
        part = (slots, shares, float(shares.max()))
        self._parts[term_id] = part
        self._parts_held += hits
        while self._parts_held > PART_CACHE_POSTINGS and len(self._parts) > 1:
            _, (dropped, _, _) = self._parts.popitem(last=False)
            self._parts_held -= len(dropped)
        return part

    def best(self, tokens: Sequence[str], kinds: Sequence[str] | None, limit: int) -> list[Any]:
        """The `limit` best (rowid, score) among the rows of `kinds` (None: all), best first.

        bm25 as `fts5Bm25Function` computes it: per phrase (here one token each, repeats kept),
        idf x (f (k1 + 1)) / (f + k1 (1 - b + b·len/avgdl)), summed in phrase order. A query
        whose terms hold more than `PRUNE_ABOVE_POSTINGS` postings scores only the rows that
        can still enter the results (`_pruned`); the rows and scores are the same."""
        slots, scores = self._top(tokens, kinds, limit)
        return list(zip(self.doc_ids[slots].tolist(), scores.tolist(), strict=True))

    def ranked(
        self, tokens: Sequence[str], kinds: Sequence[str] | None, limit: int
    ) -> list[tuple[int, float, str | None]]:
        """`best` with each row's memory id (None where the index was not given it)."""
        slots, scores = self._top(tokens, kinds, limit)
        docs = self.doc_ids[slots].tolist()
        return list(zip(docs, scores.tolist(), self.memory_ids.of(slots), strict=True))

    def _top(
        self, tokens: Sequence[str], kinds: Sequence[str] | None, limit: int
    ) -> tuple[Ints, Floats]:
        """The slots of `best`'s rows, best first, and their scores."""
        if self.rows <= 0:
            return _NO_SLOTS, _NO_SHARES
        asked = [self._term_shares(token) for token in tokens]
        held = [(slots, shares) for slots, shares, _ in asked if len(slots)]
        if not held:
            return _NO_SLOTS, _NO_SHARES
        codes = None
        if kinds is not None:
            codes = np.asarray([self.kind_codes[k] for k in kinds if k in self.kind_codes])
        if sum(len(slots) for slots, _ in held) > PRUNE_ABOVE_POSTINGS:
            pruned = self._pruned(tokens, asked, codes, limit)
            if pruned is not None:
                return self._listed(*pruned, limit)
        every = np.concatenate([slots for slots, _ in held])
        weights = np.concatenate([shares for _, shares in held])
        scores: Floats = np.bincount(every, weights=weights, minlength=self.used).astype(
            np.float64, copy=False
        )
        floor = self._rarest_floor(held, scores, codes, limit)
        if floor is not None:
            # Every row of the results scores at least the floor (`_rarest_floor`), ties kept.
            found = np.flatnonzero(scores >= floor)
            if codes is not None:
                found = found[np.isin(self.kinds[found], codes)]
        elif self.used >= SELECT_ABOVE_ROWS and self.used >= SELECT_SHARE * len(every):
            found = _contenders(every, scores, self.kinds, codes, limit * len(held))
        else:
            # The rows holding a term are those scoring above 0: every share is positive (the
            # idf is at least MIN_IDF, a posting's column-weighted count is positive, as every
            # indexed column weighs more than 0, and so is the length norm), and so is a sum
            # of shares. One vectorised comparison, where marking each posting's row was a
            # scattered write.
            found = np.flatnonzero(scores > 0.0)
            if codes is not None:
                found = found[np.isin(self.kinds[found], codes)]
        if len(found) > limit:
            values = scores[found]
            cut = len(values) - limit
            found = found[values >= np.partition(values, cut)[cut]]
        return self._listed(found, scores[found], limit)

    def _rarest_floor(
        self, held: Sequence[tuple[Ints, Floats]], scores: Floats, codes: Ints | None, limit: int
    ) -> float | None:
        """A score the `limit`-th best row reaches: the `limit`-th best whole score among the
        rows (of the kinds `codes`, None: all) of the rarest query term holding that many, or
        None where no term does.

        Those rows are `limit` rows scoring at least it, so a row scoring less is not among the
        results; a row scoring exactly it may be (ties go by rowid) and is kept. The floor is
        one of `scores` itself, so the comparison is exact. Found among the rarest term's rows
        alone, it lets one comparison over the scores pick the few rows left, where the rows
        holding any term were gathered and partitioned."""
        if limit < 1:
            return None
        for holding, _ in sorted(held, key=lambda part: len(part[0])):
            if len(holding) < limit:
                continue
            rows = holding if codes is None else holding[np.isin(self.kinds[holding], codes)]
            if len(rows) < limit:
                continue
            values = scores[rows]
            cut = len(values) - limit
            return float(np.partition(values, cut)[cut])
        return None

    def _listed(self, found: Ints, scores: Floats, limit: int) -> tuple[Ints, Floats]:
        """The `limit` best of the rows `found` scoring `scores`, ties by rowid, best first, as
        their slots and scores."""
        order = np.lexsort((self.doc_ids[found], -scores))[:limit]
        return found[order], scores[order]

    def _pruned(
        self,
        tokens: Sequence[str],
        asked: Sequence[tuple[Ints, Floats, float]],
        codes: Ints | None,
        limit: int,
    ) -> tuple[Ints, Floats] | None:
        """The rows (slots) that can be among the `limit` best and their scores (MaxScore,
        `storage.bm25`), or None when pruning would not save work.

        The rows holding the rarest terms are scored on every term first; the `limit`-th of
        their scores is one the results reach. A row holding only terms whose upper bounds add
        up to less than it cannot enter, so only the rows holding one of the other (essential)
        terms are scored then. None when those rows hold too many of the postings
        (`PRUNE_SHARE`) for pruning to save work."""
        bounds: dict[str, float] = {}
        holding: dict[str, Ints] = {}
        for token, (slots, _, top) in zip(tokens, asked, strict=True):
            if len(slots):
                bounds[token] = bounds.get(token, 0.0) + top
                holding[token] = slots
        seed: list[str] = []
        seen = 0
        for term in sorted(holding, key=lambda t: (len(holding[t]), t)):
            seed.append(term)
            seen += len(holding[term])
            if seen >= SEED_ROWS_PER_RESULT * limit:
                break
        total = sum(len(slots) for slots in holding.values())
        if len(seed) == len(holding) or PRUNE_SHARE * seen * len(holding) > total:
            return None
        found, scores = self._scored(self._union(holding, seed), asked, codes)
        if len(found) < limit:
            return None
        needed = essential_terms(bounds, -float(np.partition(-scores, limit - 1)[limit - 1]))
        if needed <= set(seed):
            return found, scores
        if PRUNE_SHARE * sum(len(holding[t]) for t in needed) * len(holding) > total:
            return None
        return self._scored(self._union(holding, needed), asked, codes)

    def _union(self, holding: dict[str, Ints], terms: Sequence[str] | set[str]) -> Ints:
        """The slots holding any of `terms`, in order, each once."""
        if len(terms) == 1:
            return holding[next(iter(terms))]
        marked = np.zeros(self.used, dtype=bool)
        for term in terms:
            marked[holding[term]] = True
        return np.flatnonzero(marked)

    def _scored(
        self, slots: Ints, asked: Sequence[tuple[Ints, Floats, float]], codes: Ints | None
    ) -> tuple[Ints, Floats]:
        """The rows `slots` (sorted) of the kinds `codes` (None: all) and their scores, each
        term's share added in phrase order, as scoring every posting adds them."""
        if codes is not None:
            slots = slots[np.isin(self.kinds[slots], codes)]
        scores = np.zeros(len(slots), dtype=np.float64)
        for held, shares, _ in asked:
            if not len(held):
                continue
            place = np.minimum(np.searchsorted(held, slots), len(held) - 1)
            hit = held[place] == slots
            scores[hit] += shares[place[hit]]
        return slots, scores
