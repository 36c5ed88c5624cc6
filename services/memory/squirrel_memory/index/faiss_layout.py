"""What a `FaissIndex` is made of as its size changes, and how it is made again: a flat index
(`IndexIDMap2(IndexFlatIP)`) while small, IVF above `approximate_above` (trained again as it
grows), and beside it the first pass's copy, kept in step: the int8 copy, or above
`compact_above` vectors the 4-bit codes instead (`fast_scan` for a flat index, `ivf_fast_scan`
in an IVF index's lists; `first_pass`).

`IndexLayout` is the part of `FaissIndex` (`faiss_index`) that builds, grows and re-codes these
parts holding the index's lock; `FaissIndex` adds the ids, writes, searches and files.
"""

from __future__ import annotations

from typing import Any

import faiss
import numpy as np
import numpy.typing as npt
import structlog

from squirrel_memory.index.base import IndexKind, Vector
from squirrel_memory.index.coarse import Int8Copy, ivf_contents
from squirrel_memory.index.fast_scan import FastScanCopy, fast_scan_fits
from squirrel_memory.index.first_pass import FlatRows
from squirrel_memory.index.ivf import IVF_RETRAIN_GROWTH, built_ivf
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy

log = structlog.get_logger()


class IndexLayout:
    """The flat or IVF index and its first pass's copy, made, grown and re-coded (every method
    runs holding the index's lock). The fields are `FaissIndex`'s, set in its `__init__`."""

    approximate_above: int
    compact_above: int
    _dim: int
    _build_threads: int
    _ids: dict[str, int]
    _names: dict[int, str]
    _trained_on: int
    _kind: IndexKind
    _index: Any
    _coarse: Int8Copy | None
    _compact: FastScanCopy | IvfFastScanCopy | None
    _stored: FlatRows | None

    def _new_flat(self) -> Any:
        return faiss.IndexIDMap2(faiss.IndexFlatIP(self._dim))

    def _new_copy(
        self, vectors: Vector | None = None, int_ids: npt.NDArray[np.int64] | None = None
    ) -> Int8Copy:
        """An int8 copy of the index: of `vectors` (every one the flat index holds, read from it
        when not given), or of the IVF index's lists."""
        if self._kind is IndexKind.IVF:
            return Int8Copy(self._dim, ivf=self._index)
        if vectors is None:
            vectors, int_ids = self._all_vectors() if self._ids else (None, None)
        return Int8Copy(self._dim, vectors, int_ids)

    def _codes_wanted(self, count: int | None = None) -> bool:
        """Whether an index of `count` vectors (the ones held when None) has 4-bit codes."""
        held = len(self._ids) if count is None else count
        return held > self.compact_above and fast_scan_fits(self._dim)

    def _keep_compact(self) -> None:
        """Make, recode or drop the 4-bit codes as the kind and count now ask (holding the
        lock): held by an index of more than `compact_above` vectors only (of the kind the
        index is), and the int8 copy only when there are none (made again from the index when
        the codes go)."""
        if not self._codes_wanted():
            self._compact = None
            if self._coarse is None:
                self._coarse = self._new_copy()
            return
        self._coarse = None
        compact = self._compact
        ivf = self._kind is IndexKind.IVF
        if compact is not None and isinstance(compact, IvfFastScanCopy) is not ivf:
            compact = self._compact = None  # made for the other kind of index
        if compact is None or compact.retrain_due or compact.recode_due:
            vectors, int_ids = self._all_vectors()
            faiss.omp_set_num_threads(1)
            if ivf:
                self._compact = IvfFastScanCopy(self._index, vectors, int_ids)
            elif isinstance(compact, FastScanCopy) and not compact.retrain_due:
                compact.recode(vectors, int_ids)
            else:
                self._compact = FastScanCopy(self._dim, vectors, int_ids)

    def _all_vectors(self) -> tuple[Vector, npt.NDArray[np.int64]]:
        """Every vector the index holds and its int id."""
        if self._kind is IndexKind.FLAT:
            # IndexIDMap2 keeps vectors in insertion order; map them back through its id table.
            stored = faiss.vector_to_array(self._index.id_map).astype(np.int64)
            vectors = self._index.index.reconstruct_n(0, self._index.ntotal)
            return np.asarray(vectors, dtype=np.float32), stored
        vectors, held, _ = ivf_contents(self._index)  # list by list, not id by id
        return vectors, held

    def _maybe_change_kind(self) -> None:
        count = len(self._ids)
        grow = self._kind is IndexKind.FLAT and count > self.approximate_above
        retrain = self._kind is IndexKind.IVF and count > IVF_RETRAIN_GROWTH * self._trained_on
        if grow or retrain:
            vectors, int_ids = self._all_vectors()
            self._build(vectors, int_ids)
            log.info("vector_index_retrained", count=count, kind=self._kind.value)

    def _build(self, vectors: Vector, int_ids: npt.NDArray[np.int64]) -> None:
        self._stored = None
        self._compact = None
        count = len(int_ids)
        if count <= self.approximate_above:
            index = self._new_flat()
            if count:
                index.add_with_ids(vectors, int_ids)
            self._index, self._kind, self._trained_on = index, IndexKind.FLAT, 0
            wanted = self._codes_wanted(count)
            self._coarse = None if wanted else self._new_copy(vectors, int_ids)
            return
        ivf = built_ivf(vectors, int_ids, self._build_threads)
        self._index, self._kind, self._trained_on = ivf, IndexKind.IVF, count
        if self._codes_wanted(count):
            self._coarse = None
            faiss.omp_set_num_threads(1)
            self._compact = IvfFastScanCopy(ivf, vectors, int_ids)
        else:
            self._coarse = self._new_copy()
