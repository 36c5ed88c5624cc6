"""The per-project FAISS vector index of memories in memory: exact while small, its first pass
over compact codes above `COMPACT_ABOVE`, IVF above `APPROXIMATE_ABOVE` (its files:
`faiss_files`)."""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt
import structlog

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.index.base import (
    Hit,
    IndexKind,
    IndexProblem,
    IndexUnusableError,
    Vector,
    VectorRefusedError,
)
from squirrel_memory.index.coarse import Int8Copy, ivf_search, probes_of
from squirrel_memory.index.copy_file import copy_bytes
from squirrel_memory.index.faiss_files import (
    index_files,
    read_index_files,
    write_copy_file,
    write_index_files,
)
from squirrel_memory.index.fast_scan import FastScanCopy, fast_scan_fits

log = structlog.get_logger()

# Measured (bench/index_bench.py, 384-d, k=10, one thread, 2 vCPU): exact search p95 is 4-5 ms
# at 50k, 7-17 ms at 100k and 13-14 ms at 150k, and with the other core busy it reached
# 19-22 ms at 75k-100k. Above this count the index is rebuilt as IVF-Flat (about 1 ms p95 at
# 100k), which supports remove_ids; HNSW cannot delete and took 1.5-3x longer to build.
APPROXIMATE_ABOVE = 50_000
# IVF probes this share of its nlist = 4*sqrt(n) lists. Recall@10 against exact search was 1.0
# for queries near stored vectors and 0.82 for queries unrelated to every vector (where the
# true top 10 are near-ties anyway); 20 % probes gave 0.92 at twice the latency.
IVF_PROBE_FRACTION = 0.1
# An IVF index is retrained once it has grown this many times beyond its training size.
IVF_RETRAIN_GROWTH = 2.0
# A flat index of more vectors than this is searched first in an int8 copy (a quarter of the
# bytes to stream, scored as whole numbers: `coarse.py`), and its best candidates then exactly.
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
# of the int8 copy's bytes: `fast_scan.py`) and its best 2k + 32 candidates then exactly. The
# answer is no longer vouched for: on the search bench's 10k store (real and derived vectors,
# top 50) it found 0.999 of the exact top 10 at a third of the int8 pass's CPU
# (`bench.index_costs`). Below it the exact int8 pass costs little more than the codes' scan.
COMPACT_ABOVE = 4_096
COMPACT_WIDTH = (2, 32)


class FaissIndex:
    """IndexIDMap2(IndexFlatIP) while small, IndexIVFFlat (hashtable direct map) when large.

    Memory ids map to int64 ids kept in a JSON sidecar together with the model id, dimension
    and the SHA-256 of the index bytes, so a torn or foreign file is detected on load. Searches
    run with one OpenMP thread. All methods block; call them off the event loop. A lock makes
    concurrent calls from several threads safe.
    """

    def __init__(
        self,
        dim: int,
        model_id: str,
        path: Path | None = None,
        *,
        approximate_above: int = APPROXIMATE_ABOVE,
        build_threads: int | None = None,
        compact_above: int = COMPACT_ABOVE,
    ) -> None:
        if dim <= 0:
            raise InvalidArgumentError("dim must be positive")
        if not model_id:
            raise InvalidArgumentError("model_id must be non-empty")
        self._dim = dim
        self._model_id = model_id
        self.path = path
        self.approximate_above = approximate_above
        self.compact_above = compact_above
        self._build_threads = build_threads or os.cpu_count() or 1
        self._lock = threading.RLock()
        self._save_lock = threading.Lock()
        self._ids: dict[str, int] = {}
        self._names: dict[int, str] = {}
        self._next_id = 0
        self._trained_on = 0
        self._kind = IndexKind.FLAT
        self._index: Any = self._new_flat()
        self._coarse: Int8Copy | None = Int8Copy(dim)
        """An int8 copy of the index (same ids, and lists if IVF), kept in step with it."""
        self._compact: FastScanCopy | None = None
        """A flat index's 4-bit codes above `compact_above` vectors (none otherwise)."""
        self._stored: tuple[npt.NDArray[np.int64], Vector] | None = None
        """A flat index's vectors as FAISS stores them (a view, no copy) and each int id's row
        among them (-1: none); made by the first search after a change (`_flat_rows`)."""
        self._copy_restored = False
        self._loaded_sha256 = ""
        """The SHA-256 of the index file `load` read (empty for an index not loaded)."""

    # -- properties -------------------------------------------------------------------------

    @property
    def dim(self) -> int:
        """Length of every vector."""
        return self._dim

    @property
    def model_id(self) -> str:
        """The embedder whose vectors this index holds."""
        return self._model_id

    @property
    def kind(self) -> IndexKind:
        """Exact (flat) or approximate (IVF)."""
        return self._kind

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._ids

    @property
    def copy_restored(self) -> bool:
        """Whether `load` read the int8 copy from its file (else it made it from the index)."""
        return self._copy_restored

    def memory_ids(self) -> set[str]:
        """Every memory id held (to diff against SQLite)."""
        with self._lock:
            return set(self._ids)

    # -- writing ----------------------------------------------------------------------------

    def upsert(self, items: Iterable[tuple[str, npt.ArrayLike]]) -> int:
        """Add or replace vectors by memory id; the last vector of a repeated id wins."""
        batch = dict(self._checked_items(items))
        if not batch:
            return 0
        with self._lock:
            replaced = [self._ids[m] for m in batch if m in self._ids]
            if replaced:
                self._remove_int_ids(np.asarray(replaced, dtype=np.int64))
            int_ids = np.empty(len(batch), dtype=np.int64)
            for row, memory_id in enumerate(batch):
                int_ids[row] = self._int_id_for(memory_id)
            vectors = np.stack(list(batch.values()))
            self._stored = None
            self._index.add_with_ids(vectors, int_ids)
            if self._coarse is not None and self._coarse.fits(vectors):
                self._coarse.add(vectors, int_ids)
            elif self._coarse is not None:
                self._coarse = self._new_copy()
            if self._compact is not None:
                self._compact.add(vectors, int_ids)
            self._maybe_change_kind()
            self._keep_compact()
            return len(batch)

    def remove(self, memory_ids: Iterable[str]) -> int:
        """Drop memory ids; unknown ids are ignored."""
        with self._lock:
            known = [m for m in dict.fromkeys(memory_ids) if m in self._ids]
            if not known:
                return 0
            int_ids = np.asarray([self._ids[m] for m in known], dtype=np.int64)
            self._remove_int_ids(int_ids)
            for memory_id, int_id in zip(known, int_ids.tolist(), strict=True):
                del self._ids[memory_id]
                del self._names[int_id]
            self._keep_compact()
            return len(known)

    def rebuild(self, items: Iterable[tuple[str, npt.ArrayLike]]) -> int:
        """Replace everything with `items` (e.g. every live memory's vector from SQLite)."""
        batch = dict(self._checked_items(items))
        ids = {memory_id: int_id for int_id, memory_id in enumerate(batch)}
        vectors = np.stack(list(batch.values())) if batch else np.zeros((0, self._dim), np.float32)
        with self._lock:
            self._build(vectors, np.arange(len(ids), dtype=np.int64))
            self._ids = ids
            self._names = {int_id: memory_id for memory_id, int_id in ids.items()}
            self._next_id = len(ids)
            self._keep_compact()
            log.info("vector_index_rebuilt", count=len(batch), kind=self._kind.value)
            return len(batch)

    # -- reading ----------------------------------------------------------------------------

    def search(self, query: npt.ArrayLike, k: int) -> list[Hit]:
        """The `k` nearest memory ids and their cosine similarity, best first."""
        if k <= 0:
            raise InvalidArgumentError("k must be positive")
        vector = self._checked_vector(query).reshape(1, self._dim)
        with self._lock:
            if not self._ids:
                return []
            faiss.omp_set_num_threads(1)
            k = min(k, len(self._ids))
            if self._compact is not None:
                found = self._compact_search(self._compact, vector, k)
            else:
                found = self._coarse_search(vector, k) if self._coarse is not None else None
            scores, int_ids = found if found is not None else self._index.search(vector, k)
        # `tolist` gives Python floats and ints; -1 (no hit) names no memory.
        names = self._names
        return [
            (name, score)
            for score, int_id in zip(scores[0].tolist(), int_ids[0].tolist(), strict=True)
            if (name := names.get(int_id)) is not None
        ]

    def similarities(self, query: npt.ArrayLike, memory_ids: Iterable[str]) -> dict[str, float]:
        """The cosine of `query` to each given memory the index holds (others are left out)."""
        vector = self._checked_vector(query)
        with self._lock:
            known = [(m, self._ids[m]) for m in dict.fromkeys(memory_ids) if m in self._ids]
            if not known:
                return {}
            keys = np.fromiter((int_id for _, int_id in known), dtype=np.int64, count=len(known))
            rows = self._index.reconstruct_batch(keys)  # one call: ~15x faster than one by one
        scores = np.asarray(rows, np.float32) @ vector
        return {m: float(s) for (m, _), s in zip(known, scores.tolist(), strict=True)}

    def vector(self, memory_id: str) -> Vector:
        """The stored vector of one memory (raises `KeyError` for an unknown id)."""
        with self._lock:
            out: Vector = np.asarray(self._index.reconstruct(self._ids[memory_id]), np.float32)
            return out

    def _coarse_search(
        self, vector: Vector, k: int
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]] | None:
        """The index's answer from the int8 copy's best candidates (scored again exactly), or
        None for a flat index when a vector left out might still belong among the `k` best
        (then the caller scans every vector) or it is too small to gain from the copy."""
        count = len(self._ids)
        if self._coarse is None or count <= COARSE_ABOVE:
            return None
        ivf = self._kind is IndexKind.IVF
        probes = probes_of(self._index, vector) if ivf else None
        for times, plus in IVF_COARSE_WIDTHS if ivf else COARSE_WIDTHS:
            wide = times * k + plus
            if wide >= count:
                break
            found = self._coarse.candidates(vector, wide, probes)
            if found is None:
                break
            # The same kernel as the flat scan (`knn_inner_product`, which `IndexFlatIP.search`
            # calls) and as the IVF lists' scan (one `fvec_inner_product` per stored vector),
            # one query against a few vectors, so the scores are the same to the bit; candidates
            # in id order, and equal scores ordered by id as both scans' heaps order them.
            # Called directly: no index is made and filled per search, and an IVF index's
            # probed lists are not walked again (the candidates are in them: the int8 copy
            # holds each vector in the IVF index's own list).
            picked = np.sort(found.int_ids)
            rows_of = None if ivf else self._stored_rows(picked)
            if rows_of is None:
                rows_of = np.asarray(self._index.reconstruct_batch(picked), np.float32)
            scores, rows = faiss.knn(vector, rows_of, k, metric=faiss.METRIC_INNER_PRODUCT)
            if scores[0][k - 1] > found.ceiling:
                return scores, picked[rows]
        return ivf_search(self._index, vector, k, probes) if probes is not None else None

    def _compact_search(
        self, compact: FastScanCopy, vector: Vector, k: int
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]] | None:
        """The exact top `k` of the 4-bit codes' best 2k + 32 candidates (scored as the flat
        scan scores them, so a hit's score is its score there), or None when that is every
        vector (the caller scans them all)."""
        times, plus = COMPACT_WIDTH
        wide = times * k + plus
        if wide >= len(self._ids):
            return None
        picked = np.sort(compact.candidates(vector, wide))
        rows_of = self._stored_rows(picked)
        if rows_of is None or len(picked) < k:
            return None
        scores, rows = faiss.knn(vector, rows_of, k, metric=faiss.METRIC_INNER_PRODUCT)
        return scores, picked[rows]

    def _stored_rows(self, int_ids: npt.NDArray[np.int64]) -> Vector | None:
        """The flat index's stored vectors of `int_ids`, gathered in one step: the same floats
        `reconstruct_batch` copies out one id at a time through the id map's hash table; None
        when an id is not held (`reconstruct_batch` raises then, as it did)."""
        row_of, stored = self._flat_rows()
        if len(int_ids) and (int(int_ids.max()) >= len(row_of) or int(int_ids.min()) < 0):
            return None
        rows = row_of[int_ids]
        if len(rows) and int(rows.min()) < 0:
            return None
        gathered: Vector = stored[rows]
        return gathered

    def _flat_rows(self) -> tuple[npt.NDArray[np.int64], Vector]:
        """The flat index's stored vectors (a NumPy view of FAISS's own array, valid until the
        index changes) and each int id's row among them (-1: none); call holding the lock."""
        if self._stored is None:
            flat: Any = faiss.downcast_index(self._index.index)
            count = int(flat.ntotal)
            stored = faiss.rev_swig_ptr(flat.get_xb(), count * self._dim).reshape(count, self._dim)
            held = faiss.vector_to_array(self._index.id_map).astype(np.int64)
            row_of = np.full(max(self._next_id, int(held.max(initial=-1)) + 1), -1, np.int64)
            row_of[held] = np.arange(count, dtype=np.int64)
            self._stored = (row_of, stored)
        return self._stored

    # -- persistence (the files: `faiss_files`) ------------------------------------------

    def save(self, path: Path | None = None) -> Path:
        """Write index and sidecar atomically (temp file, fsync, rename); return the index path."""
        target = path or self.path
        if target is None:
            raise InvalidArgumentError("no path to save the vector index to")
        with self._save_lock:
            with self._lock:
                files = index_files(
                    self._index,
                    self._coarse,
                    model_id=self._model_id,
                    dim=self._dim,
                    kind=self._kind,
                    ids=self._ids,
                    next_id=self._next_id,
                    trained_on=self._trained_on,
                )
            write_index_files(target, files)
            self.path = target
        log.info("vector_index_saved", count=files.meta["count"], size_bytes=len(files.blob))
        return target

    def _save_loaded_copy(self, index_sha256: str) -> None:
        """Write the int8 copy `load` made beside the index file it read (whose SHA-256 is
        `index_sha256`; the index unchanged since), so the next load reads it. A failure is
        logged and changes nothing (the next load makes the copy again)."""
        if self.path is None or self._coarse is None:
            return
        with self._save_lock:
            with self._lock:
                blob = copy_bytes(self._coarse, index_sha256)
            try:
                write_copy_file(self.path, blob)
            except OSError as exc:
                log.warning("vector_index_copy_not_saved", error_type=type(exc).__name__)
                return
        log.info("vector_index_copy_saved", count=len(self._ids), size_bytes=len(blob))

    @classmethod
    def load(
        cls,
        path: Path,
        dim: int,
        model_id: str,
        *,
        approximate_above: int = APPROXIMATE_ABOVE,
        build_threads: int | None = None,
        compact_above: int = COMPACT_ABOVE,
    ) -> FaissIndex:
        """Read an index saved by `save`; raise `IndexUnusableError` saying what is wrong
        (`faiss_files.read_index_files`: FAISS never parses bytes the sidecar does not vouch
        for)."""
        saved = read_index_files(path, dim, model_id)
        index = cls(
            dim,
            model_id,
            path,
            approximate_above=approximate_above,
            build_threads=build_threads,
            compact_above=compact_above,
        )
        index._index = saved.raw
        index._stored = None
        index._kind = saved.kind
        index._ids = saved.ids
        index._names = {int_id: name for name, int_id in saved.ids.items()}
        index._next_id = saved.next_id
        index._trained_on = saved.trained_on
        index._copy_restored = saved.copy is not None
        index._loaded_sha256 = saved.sha256
        index._coarse = saved.copy if saved.copy is not None else index._new_copy()
        index._keep_compact()
        return index

    @classmethod
    def open(
        cls,
        path: Path,
        dim: int,
        model_id: str,
        *,
        approximate_above: int = APPROXIMATE_ABOVE,
        compact_above: int = COMPACT_ABOVE,
    ) -> tuple[FaissIndex, IndexProblem | None]:
        """Load `path`, or return an empty index and the problem so the caller rebuilds it."""
        try:
            index = cls.load(
                path,
                dim,
                model_id,
                approximate_above=approximate_above,
                compact_above=compact_above,
            )
        except IndexUnusableError as exc:
            log.warning("vector_index_unusable", problem=exc.problem.value)
            empty = cls(dim, model_id, path, approximate_above=approximate_above)
            empty.compact_above = compact_above
            return empty, exc.problem
        if not index.copy_restored:
            index._save_loaded_copy(index._loaded_sha256)
        return index, None

    # -- internals --------------------------------------------------------------------------

    def _int_id_for(self, memory_id: str) -> int:
        existing = self._ids.get(memory_id)
        if existing is not None:
            return existing
        int_id = self._next_id
        self._next_id += 1
        self._ids[memory_id] = int_id
        self._names[int_id] = memory_id
        return int_id

    def _checked_items(
        self, items: Iterable[tuple[str, npt.ArrayLike]]
    ) -> list[tuple[str, Vector]]:
        checked: list[tuple[str, Vector]] = []
        for memory_id, vector in items:
            if not isinstance(memory_id, str) or not memory_id:
                raise InvalidArgumentError("memory ids must be non-empty strings")
            checked.append((memory_id, self._checked_vector(vector)))
        return checked

    def _checked_vector(self, vector: npt.ArrayLike) -> Vector:
        try:
            array = np.asarray(vector, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise VectorRefusedError("a vector must be numeric") from exc
        if array.size != self._dim or array.ndim not in (1, 2):
            raise VectorRefusedError(f"vectors must have {self._dim} dimensions")
        flat = array.reshape(self._dim)
        # The squared norm `np.linalg.norm` takes the root of: finite unless an element is not
        # (or the sum overflows float32, where the elements are checked one by one).
        squared = flat.dot(flat)
        if not math.isfinite(squared) and not np.all(np.isfinite(flat)):
            raise VectorRefusedError("vectors must be finite")
        norm = float(np.sqrt(squared))
        unit: Vector = (flat / norm if norm > 0 else flat).astype(np.float32)
        return unit

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

    def _remove_int_ids(self, int_ids: npt.NDArray[np.int64]) -> None:
        self._stored = None
        self._index.remove_ids(int_ids)
        if self._coarse is not None:
            self._coarse.remove(int_ids)
        if self._compact is not None:
            self._compact.remove(int_ids)

    def _keep_compact(self) -> None:
        """Make, recode or drop the 4-bit codes as the kind and count now ask (holding the
        lock): held by a flat index of more than `compact_above` vectors only."""
        wanted = (
            self._kind is IndexKind.FLAT
            and len(self._ids) > self.compact_above
            and fast_scan_fits(self._dim)
        )
        if not wanted:
            self._compact = None
        elif self._compact is None or self._compact.recode_due:
            vectors, int_ids = self._all_vectors()
            faiss.omp_set_num_threads(1)
            if self._compact is None:
                self._compact = FastScanCopy(self._dim, vectors, int_ids)
            else:
                self._compact.recode(vectors, int_ids)

    def _all_vectors(self) -> tuple[Vector, npt.NDArray[np.int64]]:
        int_ids = np.fromiter(self._names.keys(), dtype=np.int64, count=len(self._names))
        if self._kind is IndexKind.FLAT:
            # IndexIDMap2 keeps vectors in insertion order; map them back through its id table.
            stored = faiss.vector_to_array(self._index.id_map).astype(np.int64)
            vectors = self._index.index.reconstruct_n(0, self._index.ntotal)
            return np.asarray(vectors, dtype=np.float32), stored
        vectors = np.stack([self._index.reconstruct(int(i)) for i in int_ids])
        return np.asarray(vectors, dtype=np.float32), int_ids

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
            self._coarse = self._new_copy(vectors, int_ids)
            return
        nlist = max(16, round(4 * math.sqrt(count)))
        quantizer = faiss.IndexFlatIP(self._dim)
        ivf = faiss.IndexIVFFlat(quantizer, self._dim, nlist, faiss.METRIC_INNER_PRODUCT)
        ivf.nprobe = max(1, math.ceil(IVF_PROBE_FRACTION * nlist))
        faiss.omp_set_num_threads(self._build_threads)
        try:
            sample = vectors
            if count > 256 * nlist:
                rng = np.random.default_rng(0)
                sample = vectors[rng.choice(count, 256 * nlist, replace=False)]
            ivf.train(sample)
            ivf.set_direct_map_type(faiss.DirectMap.Hashtable)  # type: ignore[attr-defined]
            ivf.add_with_ids(vectors, int_ids)
        finally:
            faiss.omp_set_num_threads(1)
        self._index, self._kind, self._trained_on = ivf, IndexKind.IVF, count
        self._coarse = self._new_copy()
