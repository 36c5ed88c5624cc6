"""4-bit codes of an IVF index's vectors, in the IVF index's own lists, scanned first by FAISS's
fast scan.

The IVF index (`ivf`) keeps its vectors in float32; its first pass was the int8 copy of its
probed lists (`coarse`, a quarter of the bytes). This copy keeps each vector as `dim / 2` codes
of 4 bits (16 centroids for each pair of components, as the flat index's codes, `fast_scan`) in
FAISS's `IndexIVFPQFastScan`, which shares the IVF index's quantizer, so each vector sits in the
same list as in the IVF index: 96 bytes a vector for 384 dimensions, scored by SIMD table
look-ups. A search probes `FAST_SCAN_PROBE_FRACTION` of the lists (more than the IVF index's own
share, since the codes are cheap to scan), takes the codes' best candidates and scores them
again exactly from the IVF index's stored vectors, so each hit's score is the exact one. No
bound vouches for the vectors left out: `bench.index_costs` and `bench.search_floor` print the
recall@10 against exact search beside the time.

Unlike the flat copy's, no dead rows are kept: a removal codes the lists that held the removed
vectors again from the IVF index's own vectors of those lists. The centroids are
learnt once, on at most `TRAIN_SAMPLE` vectors drawn with a fixed seed, when the IVF index is
built or trained again; the copy is saved beside the index (`codes_file`, the same file and
checks as the flat copy's) so a load reads it instead of training and encoding every vector.
"""

from __future__ import annotations

import math
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from squirrel_memory.index.base import Vector
from squirrel_memory.index.fast_scan import (
    COMPONENTS_PER_CODE,
    TRAIN_ITERATIONS,
    TRAIN_SAMPLE,
    TRAIN_SEED,
    fast_scan_fits,
)

FAST_SCAN_PROBE_FRACTION = 0.15
"""The share of an IVF index's lists the codes are searched in (the IVF index's own search
probes `ivf.IVF_PROBE_FRACTION`, 0.1). On the search bench's 100k store (a pool of 50, 2k + 32...
4k + 32 candidates scored exactly) probing 0.1 of the lists found less of the exact top 10 than
the int8 pass over the same lists; 0.15 found more, for about half the int8 pass's CPU."""

Probes = tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]
"""The quantizer's scores and list numbers of the lists to probe, shape (1, nprobe)."""


def fast_scan_probes(nlist: int) -> int:
    """How many of an IVF index's `nlist` lists its codes are searched in."""
    return max(1, min(nlist, math.ceil(FAST_SCAN_PROBE_FRACTION * nlist)))


class IvfFastScanCopy:
    """The 4-bit codes of an IVF-Flat index's vectors (same int ids, same lists), kept in step
    with it by its owner."""

    def __init__(self, ivf: Any, vectors: Vector, int_ids: npt.NDArray[np.int64]) -> None:
        """Learn the centroids from `vectors` (a sample of them) and hold the codes of every
        vector of `ivf` (`vectors`, `int_ids`: all of them)."""
        dim = int(ivf.d)
        if not fast_scan_fits(dim):
            raise ValueError(f"{dim} dimensions do not split into pairs")
        codes: Any = faiss.IndexIVFPQFastScan(
            ivf.quantizer, dim, ivf.nlist, dim // COMPONENTS_PER_CODE, 4, faiss.METRIC_INNER_PRODUCT
        )
        codes.by_residual = False
        codes.pq.cp.niter = TRAIN_ITERATIONS
        # The sample is drawn in int id order: the same vectors train the same centroids,
        # whatever order they come in (list by list at a load, as written at a build).
        sample = vectors[np.argsort(int_ids, kind="stable")]
        if len(vectors) > TRAIN_SAMPLE:
            rng = np.random.default_rng(TRAIN_SEED)
            sample = sample[np.sort(rng.choice(len(vectors), TRAIN_SAMPLE, replace=False))]
        # The quantizer is the IVF index's, trained: only the codes' centroids are learnt.
        codes.train(np.ascontiguousarray(sample, dtype=np.float32))
        self._ivf = ivf
        """Holds the shared quantizer alive as long as the codes use it."""
        self._index: Any = codes
        self.trained_on = len(vectors)
        self._nprobe = fast_scan_probes(int(ivf.nlist))
        codes.nprobe = self._nprobe
        self.add(vectors, int_ids)

    @classmethod
    def restored(cls, codes: Any, ivf: Any, trained_on: int) -> IvfFastScanCopy:
        """The copy whose `IndexIVFPQFastScan` is `codes` (read from its file and checked to
        belong to `ivf`), its centroids learnt from `trained_on` vectors, no training."""
        copy = cls.__new__(cls)
        copy._ivf = ivf
        copy._index = codes
        copy.trained_on = trained_on
        copy._nprobe = fast_scan_probes(int(ivf.nlist))
        codes.nprobe = copy._nprobe
        return copy

    @property
    def faiss_index(self) -> Any:
        """The codes' FAISS index (to save or check it; changed only through this class)."""
        return self._index

    def file_parts(self) -> tuple[Any, npt.NDArray[np.int64], int]:
        """What its file holds (`codes_file.encode_codes`): the codes, every int id they hold
        (list by list) and how many vectors the centroids were learnt from."""
        return self._index, list_ids(self._index), self.trained_on

    def __len__(self) -> int:
        return int(self._index.ntotal)

    retrain_due = False
    """An IVF index's codes are made again with the index when it is trained again."""
    recode_due = False
    """A removed vector leaves its list: no dead rows to recode."""

    def add(self, vectors: Vector, int_ids: npt.NDArray[np.int64]) -> None:
        """Add vectors of int ids this copy does not hold (a replaced one: `remove` first); each
        goes to the list the shared quantizer names, as in the IVF index."""
        if not len(vectors):
            return
        self._index.add_with_ids(
            np.ascontiguousarray(vectors, dtype=np.float32),
            np.ascontiguousarray(int_ids, dtype=np.int64),
        )

    def remove(self, int_ids: npt.NDArray[np.int64]) -> None:
        """Drop these int ids (unknown ids are ignored); call it before the IVF index drops
        them. Each list that holds one is coded again from the IVF index's vectors of that list
        less them: FAISS's own `remove_ids` moves codes within the packed blocks of 4-bit codes
        so that a vector moved there is no longer found (FAISS 1.15)."""
        gone = np.asarray(int_ids, dtype=np.int64)
        lists: set[int] = set()
        for int_id in gone.tolist():
            try:
                lists.add(int(self._ivf.direct_map.get(int_id)) >> 32)
            except RuntimeError:  # an id the IVF index does not hold
                continue
        for list_no in sorted(lists):
            self._recode_list(list_no, gone)

    def _recode_list(self, list_no: int, gone: npt.NDArray[np.int64]) -> None:
        ivf, inverted = self._ivf, self._ivf.invlists
        size = inverted.list_size(list_no)
        ids = faiss.rev_swig_ptr(inverted.get_ids(list_no), size).astype(np.int64)
        raw = faiss.rev_swig_ptr(inverted.get_codes(list_no), size * inverted.code_size)
        vectors = np.frombuffer(raw.tobytes(), np.float32).reshape(size, int(ivf.d))
        kept = ~np.isin(ids, gone)
        codes = self._index
        held = codes.invlists.list_size(list_no)
        codes.invlists.resize(list_no, 0)
        codes.ntotal = codes.ntotal - held
        self.add(vectors[kept], ids[kept])

    def probes(self, query: Vector) -> Probes:
        """The lists the codes are searched in for `query`, best first (the IVF index's own
        probes are the first `ivf.nprobe` of them)."""
        scores, lists = self._ivf.quantizer.search(query, self._nprobe)
        return scores, lists

    def candidates(self, query: Vector, wide: int, probes: Probes) -> npt.NDArray[np.int64]:
        """The int ids of the (at most) `wide` vectors the codes score best in the lists
        `probes` names, best first."""
        _, found = self._index.search_preassigned(query, wide, probes[1], probes[0])
        picked: npt.NDArray[np.int64] = found[0][found[0] >= 0].astype(np.int64)
        return picked


def list_ids(codes: Any) -> npt.NDArray[np.int64]:
    """Every int id an IVF index's lists hold, list by list."""
    inverted = codes.invlists
    held = [
        faiss.rev_swig_ptr(inverted.get_ids(n), inverted.list_size(n)).astype(np.int64)
        for n in range(codes.nlist)
        if inverted.list_size(n)
    ]
    return np.concatenate(held) if held else np.zeros(0, np.int64)
