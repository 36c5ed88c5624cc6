"""A search's first pass and its exact second one: the candidates of the int8 copy (`coarse`)
or of the 4-bit codes (`fast_scan`) scored again exactly, and where a flat index keeps the
vectors to score them.

Both answers score their candidates with the same kernel as the flat scan
(`knn_inner_product`, which `IndexFlatIP.search` calls) and as the IVF lists' scan (one
`fvec_inner_product` per stored vector), one query against a few vectors, so a hit's score is
its score in a full scan to the bit; candidates go in id order, and equal scores come ordered by
id as both scans' heaps order them. It is called directly: no index is made and filled per
search, and an IVF index's probed lists are not walked again (the candidates are in them: the
int8 copy holds each vector in the IVF index's own list).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from squirrel_memory.index.base import Vector
from squirrel_memory.index.coarse import Int8Copy, ivf_search, probes_of
from squirrel_memory.index.fast_scan import FastScanCopy
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy

# A flat index of more vectors than this is searched first in an int8 copy (a quarter of the
# bytes to stream, scored as whole numbers: `coarse`), and its best candidates then exactly.
# At 10k x 384 under load the float32 scan took 8.4 ms p50 against 1.4 ms for a float16 one
# (one thread, the 2 cores shared with other work); the int8 scan streams half the float16 bytes.
COARSE_ABOVE = 2_048
# The int8 pass's candidates for a top k: 2k + 32, then 8k + 64 when the first set cannot vouch
# for its k best (the bound is looser than float16's), then the full scan. An IVF index (its
# lists probed in an int8 copy too) starts wider, as set when its candidates were scored by a
# filtered scan of its lists (which cost more than scoring them from their own vectors now).
# On the search bench's 10k store (384-d, real and derived vectors, top 50) 2k + 16 vouched for
# 76 % of its questions and 2k + 32 for 93 % (`bench.first_set`): each set that cannot vouch
# costs a second int8 scan of every vector and the exact scores of 8k + 64 candidates.
COARSE_WIDTHS = ((2, 32), (8, 64))
IVF_COARSE_WIDTHS = ((4, 32), (16, 128))
# A flat index of more vectors than this is searched first in a copy of 4-bit codes (a quarter
# of the int8 copy's bytes: `fast_scan`) and its best 2k + 32 candidates then exactly. The
# answer is no longer vouched for: on the search bench's 10k store (real and derived vectors,
# a pool of 50) its top 10 was the exact search's for 150 of 150 questions, at 0.59 ms of
# thread CPU where the int8 way took 1.09 (`bench.index_costs --baseline`). Stores up to this
# size stay exact, as before; no measurement between 4k and 10k placed the threshold.
COMPACT_ABOVE = 4_096
COMPACT_WIDTH = (2, 32)
# An IVF index above `COMPACT_ABOVE` vectors is searched first in 4-bit codes of its probed
# lists (`ivf_fast_scan`, a larger share of its lists than its own search probes) and its best
# 4k + 32 candidates then exactly, as wide as its int8 pass's first set, and never fewer than
# a search's pool of 50 gets (232): a top 10 asked directly from 72 candidates found less of the
# exact top 10 than the int8 way, which is exact in its probed lists (`bench.search_floor`).
IVF_COMPACT_WIDTH = (4, 32)
IVF_COMPACT_LEAST = 232


Scored = tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]
"""Scores and int ids, shape (1, k), best first."""
Rows = Callable[[npt.NDArray[np.int64]], Vector | None]
"""The stored vectors of some int ids (sorted), or None when one is not held there."""


class FlatRows:
    """A flat index's stored vectors, gathered by int id in one step: the same floats
    `reconstruct_batch` copies out one id at a time through the id map's hash table. Made from
    the index as it is; its owner makes a new one after every change."""

    def __init__(self, index: Any, dim: int, next_id: int) -> None:
        """`index`: an `IndexIDMap2` of an `IndexFlatIP` (read as a NumPy view, no copy)."""
        flat: Any = faiss.downcast_index(index.index)
        count = int(flat.ntotal)
        self._stored: Vector = faiss.rev_swig_ptr(flat.get_xb(), count * dim).reshape(count, dim)
        held = faiss.vector_to_array(index.id_map).astype(np.int64)
        self._row_of = np.full(max(next_id, int(held.max(initial=-1)) + 1), -1, np.int64)
        """Each int id's row among the stored vectors (-1: none)."""
        self._row_of[held] = np.arange(count, dtype=np.int64)

    def rows(self, int_ids: npt.NDArray[np.int64]) -> Vector | None:
        """The stored vectors of `int_ids`; None when one is not held (`reconstruct_batch`
        raises then)."""
        row_of = self._row_of
        if len(int_ids) and (int(int_ids.max()) >= len(row_of) or int(int_ids.min()) < 0):
            return None
        rows = row_of[int_ids]
        if len(rows) and int(rows.min()) < 0:
            return None
        gathered: Vector = self._stored[rows]
        return gathered


def int8_answer(
    index: Any,
    copy: Int8Copy,
    vector: Vector,
    k: int,
    *,
    count: int,
    widths: Sequence[tuple[int, int]],
    rows: Rows | None,
) -> Scored | None:
    """The index's answer from the int8 copy's best candidates, each set of `widths` (k times,
    plus) in turn until one vouches for its `k` best; an IVF index (`rows` None: its candidates
    are reconstructed) then scans its probed lists, a flat one returns None (the caller scans
    every vector)."""
    probes = probes_of(index, vector) if rows is None else None
    for times, plus in widths:
        wide = times * k + plus
        if wide >= count:
            break
        found = copy.candidates(vector, wide, probes)
        if found is None:
            break
        picked = np.sort(found.int_ids)
        rows_of = None if rows is None else rows(picked)
        if rows_of is None:
            rows_of = np.asarray(index.reconstruct_batch(picked), np.float32)
        scores, at = faiss.knn(vector, rows_of, k, metric=faiss.METRIC_INNER_PRODUCT)
        if scores[0][k - 1] > found.ceiling:
            return scores, picked[at]
    return ivf_search(index, vector, k, probes) if probes is not None else None


def compact_answer(
    codes: FastScanCopy, vector: Vector, k: int, *, count: int, width: tuple[int, int], rows: Rows
) -> Scored | None:
    """The exact top `k` of the 4-bit codes' best `width` (k times, plus) candidates, or None
    when that is every vector or a candidate is not among `rows` (the caller scans them all)."""
    times, plus = width
    wide = times * k + plus
    if wide >= count:
        return None
    picked = np.sort(codes.candidates(vector, wide))
    rows_of = rows(picked)
    if rows_of is None or len(picked) < k:
        return None
    scores, at = faiss.knn(vector, rows_of, k, metric=faiss.METRIC_INNER_PRODUCT)
    return scores, picked[at]


def ivf_compact_answer(
    index: Any, codes: IvfFastScanCopy, vector: Vector, k: int, *, width: tuple[int, int]
) -> Scored:
    """The exact top `k` of the 4-bit codes' best `width` (k times, plus; at least
    `IVF_COMPACT_LEAST`) candidates of an IVF index (their vectors reconstructed from it); when
    the codes name fewer than `k`, the IVF index's own scan of its probed lists."""
    times, plus = width
    probes = codes.probes(vector)
    wide = max(times * k + plus, IVF_COMPACT_LEAST)
    picked = np.sort(codes.candidates(vector, wide, probes))
    if len(picked) < k:
        own = int(index.nprobe)
        return ivf_search(index, vector, k, (probes[0][:, :own], probes[1][:, :own]))
    rows_of = np.asarray(index.reconstruct_batch(picked), np.float32)
    scores, at = faiss.knn(vector, rows_of, k, metric=faiss.METRIC_INNER_PRODUCT)
    return scores, picked[at]
