"""An int8 copy of a flat index's vectors: a fast first pass whose error is bounded per query.

Every stored vector is kept as round(s * v), whole numbers in [-127, 127] with one scale `s` for
the index (127 over the largest component held), in FAISS's `QT_8bit_direct_signed` scalar
quantizer, which scores whole numbers without decoding them (a quarter of the float32 bytes to
stream). A query is rounded the same way with a scale of its own, so the first pass scores
the integer dot product n_q . n_v, exactly: every partial sum is a whole number below 2^24
while the dimension stays below 1,032 (beyond it a float rounding term is added to the bound).

Writing q = (n_q + e_q) / s_q and v = (n_v + e_v) / s with every |e| <= 1/2,

    s_q s (q . v) - n_q . n_v = n_q . e_v + e_q . n_v + e_q . e_v,

so the cosine differs from n_q . n_v / (s_q s) by at most
(|n_q|_1 / 2 + |n_v|_1 / 2 + dim / 4) / (s_q s), with |n_v|_1 bounded by the largest sum kept
for any stored vector. FAISS's own float32 score of a vector is within dim * 2^-24 of its cosine
(unit vectors), which the bound adds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from squirrel_memory.index.base import Vector

QT_INT8 = faiss.ScalarQuantizer.QT_8bit_direct_signed
LARGEST_CODE = 127.0
ROUNDS_WITHIN = LARGEST_CODE + 0.5
"""A scaled component up to this rounds (then clips) to a code within 1/2 of itself."""
FLOAT_UNIT = 2.0**-23
"""Twice float32's unit roundoff: a sum of `d` float32 terms is within d * this of exact."""
EXACT_SUMS_BELOW = 2**24
"""Whole numbers below this are exact in float32, so are the first pass's partial sums."""


Probes = tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]
"""An IVF search's lists to probe: the quantizer's scores and list numbers, shape (1, nprobe)."""


@dataclass(frozen=True)
class CopyState:
    """What an int8 copy holds beside its codes: codes are round(scale * v), and no stored
    vector's codes sum (in absolute value) above `most_l1`."""

    dim: int
    scale: float
    most_l1: float


@dataclass(frozen=True)
class Candidates:
    """The first pass's best vectors (int ids) and the score none left out can reach."""

    int_ids: npt.NDArray[np.int64]
    ceiling: float
    """A float32 exact score of any vector left out is at most this."""


class Int8Copy:
    """The int8 copy of a flat index (same int ids), kept in step with it by its owner."""

    def __init__(
        self, dim: int, vectors: Vector | None = None, int_ids: Any = None, *, ivf: Any = None
    ) -> None:
        """A copy of a flat index's `vectors`, or with `ivf` of that IVF-Flat index (every
        vector it holds, read from its lists): the same lists (its quantizer shared), each
        vector in the list the IVF index holds it in."""
        self._dim = dim
        self._ivf = ivf
        self._index: Any
        if ivf is None:
            self._index = faiss.IndexIDMap2(
                faiss.IndexScalarQuantizer(dim, QT_INT8, faiss.METRIC_INNER_PRODUCT)
            )
        else:
            self._index = faiss.IndexIVFScalarQuantizer(
                ivf.quantizer, dim, ivf.nlist, QT_INT8, faiss.METRIC_INNER_PRODUCT, False
            )
            self._index.is_trained = True  # the quantizer is the IVF index's; codes need none
            self._index.nprobe = ivf.nprobe
            self._index.set_direct_map_type(faiss.DirectMap.Hashtable)  # type: ignore[attr-defined]
        self._scale = 0.0
        """Stored codes are round(scale * v); 0 until the first vector comes."""
        self._most_l1 = 0.0
        """The largest sum of absolute codes of any vector added (removals keep it a bound)."""
        lists = None
        if ivf is not None:
            vectors, int_ids, lists = ivf_contents(ivf)
        if vectors is not None and len(vectors):
            largest = float(np.abs(vectors).max())
            self._scale = LARGEST_CODE / largest if largest > 0 else 1.0
            self._add(vectors, np.asarray(int_ids, dtype=np.int64), lists)

    @classmethod
    def restored(cls, state: CopyState, codes: Any, *, ivf: Any = None) -> Int8Copy | None:
        """A copy of `state` around `codes`, a FAISS index of int8 codes read back from a file
        this class's `faiss_index` was written to (with `ivf`, the copy of that IVF index:
        the same lists); None when `codes` is not such an index."""
        inner: Any = None
        if ivf is None and isinstance(codes, faiss.IndexIDMap2):
            inner = faiss.downcast_index(codes.index)
        elif ivf is not None and isinstance(codes, faiss.IndexIVFScalarQuantizer):
            inner = codes if codes.nlist == ivf.nlist else None
        if not isinstance(inner, faiss.IndexScalarQuantizer | faiss.IndexIVFScalarQuantizer):
            return None
        metric = inner.metric_type == faiss.METRIC_INNER_PRODUCT
        if inner.sq.qtype != QT_INT8 or codes.d != state.dim or not metric:
            return None
        copy = cls(state.dim)
        copy._ivf = ivf
        copy._index = codes
        if ivf is not None:
            codes.nprobe = ivf.nprobe
            codes.set_direct_map_type(faiss.DirectMap.Hashtable)  # type: ignore[attr-defined]
        copy._scale = state.scale
        copy._most_l1 = state.most_l1
        return copy

    @property
    def state(self) -> CopyState:
        """The scale and bound a saved copy needs beside its codes."""
        return CopyState(self._dim, self._scale, self._most_l1)

    @property
    def faiss_index(self) -> Any:
        """The FAISS index of the codes (to save it; its owner changes it only through this
        class)."""
        return self._index

    def fits(self, vectors: Vector) -> bool:
        """Whether `vectors` can be added at the present scale (else the copy is made again)."""
        if not len(vectors) or self._scale == 0.0:
            return True
        return float(np.abs(vectors).max()) * self._scale <= ROUNDS_WITHIN

    def add(self, vectors: Vector, int_ids: npt.NDArray[np.int64]) -> None:
        """Add vectors that `fits` accepted (the first ones set the scale)."""
        if not len(vectors):
            return
        if self._scale == 0.0:
            largest = float(np.abs(vectors).max())
            self._scale = LARGEST_CODE / largest if largest > 0 else 1.0
        self._add(vectors, int_ids)

    def remove(self, int_ids: npt.NDArray[np.int64]) -> None:
        self._index.remove_ids(int_ids)

    def candidates(
        self, query: Vector, wide: int, probes: Probes | None = None
    ) -> Candidates | None:
        """The `wide` best vectors by the int8 pass (of an IVF copy: in the lists `probes`
        names), or None when it returned fewer."""
        largest = float(np.abs(query).max())
        query_scale = LARGEST_CODE / largest if largest > 0 else 1.0
        codes = np.rint(query * query_scale).astype(np.float32).reshape(1, self._dim)
        if probes is None:
            scores, found = self._index.search(codes, wide)
        else:
            scores, found = self._index.search_preassigned(codes, wide, probes[1], probes[0])
        picked = found[0][found[0] >= 0]
        if len(picked) < wide:
            return None
        query_l1 = float(np.abs(codes).sum())
        slack = 0.5 * query_l1 + 0.5 * self._most_l1 + 0.25 * self._dim
        if self._dim * LARGEST_CODE * LARGEST_CODE >= EXACT_SUMS_BELOW:
            slack += self._dim * FLOAT_UNIT * LARGEST_CODE * query_l1
        scale = query_scale * self._scale
        ceiling = (float(scores[0][wide - 1]) + slack) / scale + self._dim * FLOAT_UNIT
        return Candidates(picked.astype(np.int64), ceiling)

    def _add(
        self,
        vectors: Vector,
        int_ids: npt.NDArray[np.int64],
        lists: npt.NDArray[np.int64] | None = None,
    ) -> None:
        codes = np.clip(np.rint(vectors * self._scale), -LARGEST_CODE, LARGEST_CODE)
        self._most_l1 = max(self._most_l1, float(np.abs(codes).sum(axis=1).max()))
        codes = np.ascontiguousarray(codes, dtype=np.float32)
        int_ids = np.ascontiguousarray(int_ids, dtype=np.int64)
        if self._ivf is None:
            self._index.add_with_ids(codes, int_ids)
            return
        # The IVF index's own lists: the quantizer on the codes might place a vector elsewhere.
        if lists is None:
            found = (self._ivf.direct_map.get(i) >> 32 for i in int_ids.tolist())
            lists = np.fromiter(found, np.int64, len(int_ids))
        self._index.add_core(
            len(codes), faiss.swig_ptr(codes), faiss.swig_ptr(int_ids), faiss.swig_ptr(lists)
        )


def ivf_contents(
    ivf: Any,
) -> tuple[Vector, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every vector of an IVF-Flat index, its int id and its list, read list by list."""
    vectors: list[Vector] = []
    int_ids: list[npt.NDArray[np.int64]] = []
    lists: list[npt.NDArray[np.int64]] = []
    inverted = ivf.invlists
    for list_no in range(ivf.nlist):
        size = inverted.list_size(list_no)
        if not size:
            continue
        codes = faiss.rev_swig_ptr(inverted.get_codes(list_no), size * inverted.code_size)
        vectors.append(np.frombuffer(codes.tobytes(), np.float32).reshape(size, ivf.d))
        int_ids.append(faiss.rev_swig_ptr(inverted.get_ids(list_no), size).astype(np.int64))
        lists.append(np.full(size, list_no, np.int64))
    if not vectors:
        return np.zeros((0, ivf.d), np.float32), np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(vectors), np.concatenate(int_ids), np.concatenate(lists)


def probes_of(ivf: Any, query: Vector) -> Probes:
    """The lists an IVF search of `query` probes, as its own search finds them."""
    scores, lists = ivf.quantizer.search(query, ivf.nprobe)
    return scores, lists


def ivf_search(
    ivf: Any, query: Vector, k: int, probes: Probes
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """The IVF index's top `k` of every vector in the lists `probes` names, by its own scan (so
    to the bit what its `search` answers)."""
    scores = np.empty((1, k), np.float32)
    int_ids = np.empty((1, k), np.int64)
    lists = np.ascontiguousarray(probes[1], dtype=np.int64)
    distances = np.ascontiguousarray(probes[0], dtype=np.float32)
    ivf.search_preassigned_c(
        1,
        faiss.swig_ptr(query),
        k,
        faiss.swig_ptr(lists),
        faiss.swig_ptr(distances),
        faiss.swig_ptr(scores),
        faiss.swig_ptr(int_ids),
        False,
        None,
    )
    return scores, int_ids
