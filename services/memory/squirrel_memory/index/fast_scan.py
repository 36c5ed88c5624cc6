"""A 4-bit product-quantized copy of a large flat index, scanned first by FAISS's fast scan.

Each vector is kept as `dim / 2` codes of 4 bits: every 2 components are replaced by the
nearest of 16 centroids learnt for them (`IndexPQFastScan`), 96 bytes for 384 dimensions, a
quarter of the int8 copy's bytes. FAISS scores a query against the codes with SIMD table
look-ups (no multiplication per component), so a scan of 10,000 vectors streams under a
megabyte instead of 3.8 MB. (Groups of 4 components, half the bytes again, left more of the
exact top 10 out with the same number of candidates scored again, in trials no bench prints.)

The scores are approximate and, unlike the int8 pass's, carry no bound that could vouch for
the vectors left out: the copy names `wide` candidates, its owner scores them again exactly and
keeps the best. A vector of the true top k is lost only when the copy ranks it below `wide`;
`bench.index_costs` and `bench.search_floor` print what that costs in recall@10 against an exact
search.

Training (16 centroids for each pair of components, `TRAIN_ITERATIONS` rounds of k-means) runs
on at most `TRAIN_SAMPLE` vectors drawn with a fixed seed, so a copy of the same vectors is the
same copy. It is made when the flat index grows past its owner's threshold, and saved beside
the index (`codes_file`) so a load reads it back instead of training it again (`restored`); a
load trains it only when no saved file belongs to the index; its centroids are learnt again
once it holds `RETRAIN_GROWTH` times the vectors they were learnt from. A removed vector keeps
its codes and is skipped by its row (a search asks the codes for as many more candidates as
there are such rows); once there are more than `DEAD_ROWS_KEPT`, the codes are written again
from the live vectors (the centroids kept).
"""

from __future__ import annotations

from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from squirrel_core.codes_file import COMPONENTS_PER_CODE, DEAD_ROWS_KEPT
from squirrel_memory.index.base import Vector

__all__ = [
    "COMPONENTS_PER_CODE",
    "DEAD_ROWS_KEPT",
    "RETRAIN_GROWTH",
    "TRAIN_ITERATIONS",
    "TRAIN_SAMPLE",
    "TRAIN_SEED",
    "FastScanCopy",
    "fast_scan_fits",
    "trained_codes",
]

TRAIN_SAMPLE = 2_048
"""At most this many vectors train the centroids (128 per centroid)."""
TRAIN_ITERATIONS = 10
TRAIN_SEED = 7
RETRAIN_GROWTH = 2.0
"""The centroids are learnt again once the copy holds more than this many times the vectors
they were learnt from (as an IVF index is trained again): saved codes are no longer trained
anew at each load, so a store that grows keeps centroids of its newer vectors this way."""


def trained_codes(dim: int, vectors: Vector) -> Any:
    """An empty `IndexPQFastScan` whose centroids are learnt from `vectors` (a sample of them)."""
    index: Any = faiss.IndexPQFastScan(
        dim, dim // COMPONENTS_PER_CODE, 4, faiss.METRIC_INNER_PRODUCT
    )
    index.pq.cp.niter = TRAIN_ITERATIONS
    sample = vectors
    if len(vectors) > TRAIN_SAMPLE:
        rng = np.random.default_rng(TRAIN_SEED)
        sample = vectors[np.sort(rng.choice(len(vectors), TRAIN_SAMPLE, replace=False))]
    index.train(np.ascontiguousarray(sample, dtype=np.float32))
    return index


def fast_scan_fits(dim: int) -> bool:
    """Whether vectors of `dim` components split into groups of `COMPONENTS_PER_CODE`."""
    return dim >= COMPONENTS_PER_CODE and dim % COMPONENTS_PER_CODE == 0


class FastScanCopy:
    """The 4-bit codes of a flat index's vectors (same int ids), kept in step by its owner."""

    def __init__(self, dim: int, vectors: Vector, int_ids: npt.NDArray[np.int64]) -> None:
        """Learn the centroids from `vectors` (a sample of them) and hold their codes."""
        if not fast_scan_fits(dim):
            raise ValueError(f"{dim} dimensions do not split into pairs")
        self._dim = dim
        self._index: Any = trained_codes(dim, vectors)
        self.trained_on = len(vectors)
        """How many vectors the centroids were learnt from (a sample of them)."""
        self._ids = np.zeros(0, np.int64)
        """Each row's int id (rows in the order they were added)."""
        self._alive = np.zeros(0, np.bool_)
        self._row_of: dict[int, int] = {}
        """Each live int id's row."""
        self.add(vectors, int_ids)

    @classmethod
    def restored(cls, codes: Any, row_ids: npt.NDArray[np.int64], trained_on: int) -> FastScanCopy:
        """The copy whose `IndexPQFastScan` is `codes` (read from its file, checked), whose
        rows hold `row_ids` (-1: a removed vector's row) and whose centroids were learnt from
        `trained_on` vectors, no training."""
        copy = cls.__new__(cls)
        copy._dim = int(codes.d)
        copy.trained_on = trained_on
        copy._index = codes
        copy._ids = np.asarray(row_ids, dtype=np.int64).copy()
        copy._alive = copy._ids >= 0
        live = np.flatnonzero(copy._alive)
        copy._row_of = dict(zip(copy._ids[live].tolist(), live.tolist(), strict=True))
        return copy

    def file_parts(self) -> tuple[Any, npt.NDArray[np.int64], int]:
        """What its file holds (`codes_file.encode_codes`): the codes, each row's int id (-1 for
        a removed vector's row) and how many vectors the centroids were learnt from."""
        row_ids = np.where(self._alive, self._ids, -1).astype(np.int64)
        return self._index, row_ids, self.trained_on

    def __len__(self) -> int:
        return len(self._row_of)

    @property
    def retrain_due(self) -> bool:
        """Whether the copy holds more than `RETRAIN_GROWTH` times the vectors its centroids
        were learnt from (its owner then makes it again, centroids and all)."""
        return len(self._row_of) > RETRAIN_GROWTH * self.trained_on

    @property
    def recode_due(self) -> bool:
        """Whether more rows than `DEAD_ROWS_KEPT` hold removed vectors (see `recode`)."""
        return len(self._ids) - len(self._row_of) > DEAD_ROWS_KEPT

    def add(self, vectors: Vector, int_ids: npt.NDArray[np.int64]) -> None:
        """Add vectors of int ids this copy does not hold (a replaced one: `remove` first)."""
        if not len(vectors):
            return
        first = len(self._ids)
        self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        ids = np.asarray(int_ids, dtype=np.int64)
        self._ids = np.concatenate([self._ids, ids])
        self._alive = np.concatenate([self._alive, np.ones(len(ids), np.bool_)])
        self._row_of.update(zip(ids.tolist(), range(first, first + len(ids)), strict=True))

    def remove(self, int_ids: npt.NDArray[np.int64]) -> None:
        """Skip these int ids' rows from now on (unknown ids are ignored)."""
        for int_id in np.asarray(int_ids, dtype=np.int64).tolist():
            row = self._row_of.pop(int_id, None)
            if row is not None:
                self._alive[row] = False

    def recode(self, vectors: Vector, int_ids: npt.NDArray[np.int64]) -> None:
        """Drop every row and hold `vectors` (the live ones) with the centroids learnt."""
        self._index.reset()
        self._ids = np.zeros(0, np.int64)
        self._alive = np.zeros(0, np.bool_)
        self._row_of = {}
        self.add(vectors, int_ids)

    def candidates(self, query: Vector, wide: int) -> npt.NDArray[np.int64]:
        """The int ids of the (at most) `wide` live vectors the codes score best, best first."""
        rows = len(self._ids)
        want = min(rows, wide + rows - len(self._row_of))
        if want <= 0:
            return np.zeros(0, np.int64)
        _, found = self._index.search(query.reshape(1, self._dim), want)
        picked = found[0]
        picked = picked[picked >= 0]
        picked = picked[self._alive[picked]][:wide]
        out: npt.NDArray[np.int64] = self._ids[picked]
        return out
