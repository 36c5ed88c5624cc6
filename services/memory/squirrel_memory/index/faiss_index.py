"""The per-project FAISS vector index of memories in memory: exact while small, its first pass
over compact codes above `COMPACT_ABOVE`, IVF above `APPROXIMATE_ABOVE`. Its ids, writes,
searches and files are here (the files' format: `faiss_files`); how its parts are made, grown
and re-coded as its size changes is `faiss_layout`."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, KeysView
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
    StoredVectors,
    Vector,
    unit_vector,
)
from squirrel_memory.index.coarse import Int8Copy
from squirrel_memory.index.faiss_files import (
    index_files,
    read_index_files,
    side_files,
    write_index_files,
    write_side_files,
)
from squirrel_memory.index.faiss_layout import IndexLayout
from squirrel_memory.index.fast_scan import FastScanCopy, fast_scan_fits
from squirrel_memory.index.first_pass import (
    COARSE_ABOVE,
    COARSE_WIDTHS,
    COMPACT_ABOVE,
    COMPACT_WIDTH,
    IVF_COARSE_WIDTHS,
    IVF_COMPACT_WIDTH,
    FlatRows,
    Scored,
    compact_answer,
    int8_answer,
    ivf_compact_answer,
)
from squirrel_memory.index.ivf import APPROXIMATE_ABOVE
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy

__all__ = [  # the thresholds and widths, where the benches and tests have always read them
    "APPROXIMATE_ABOVE",
    "COARSE_ABOVE",
    "COARSE_WIDTHS",
    "COMPACT_ABOVE",
    "COMPACT_WIDTH",
    "IVF_COARSE_WIDTHS",
    "IVF_COMPACT_WIDTH",
    "FaissIndex",
]

log = structlog.get_logger()


class FaissIndex(IndexLayout):
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
        """An int8 copy of the index (same ids, and lists if IVF), kept in step with it; none
        while the 4-bit codes answer the first pass (no search reads it then)."""
        self._compact: FastScanCopy | IvfFastScanCopy | None = None
        """The 4-bit codes above `compact_above` vectors (none otherwise): a flat index's, or
        in an IVF index's lists."""
        self._stored: FlatRows | None = None
        """A flat index's stored vectors by int id (a view, no copy); made by the first search
        after a change (`_rows`)."""
        self._copy_restored = False
        self._codes_restored = False
        self._loaded_sha256 = ""
        """The SHA-256 of the index file `load` read (empty for an index not loaded)."""
        self._version = 0
        """Bumped by every write (`upsert`, `remove`, `rebuild`): `StoredVectors` taken under
        another version are not used."""

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

    def held(self) -> KeysView[str]:
        """The memory ids held now, as a live view: `in` on it is `in` on the index without a
        Python call per id (a search asks it of each lexical hit)."""
        return self._ids.keys()

    @property
    def copy_restored(self) -> bool:
        """Whether `load` read the int8 copy from its file (else it made it from the index, or
        the index keeps none: a flat one with 4-bit codes)."""
        return self._copy_restored

    @property
    def codes_restored(self) -> bool:
        """Whether `load` read the 4-bit codes from their file (else it trained them, or the
        index has none)."""
        return self._codes_restored

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
            self._version += 1
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
            self._version += 1
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
            self._version += 1
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
            found = self._first_pass(vector, k)
            scores, int_ids = found if found is not None else self._index.search(vector, k)
        # `tolist` gives Python floats and ints; -1 (no hit) names no memory.
        names = self._names
        return [
            (name, score)
            for score, int_id in zip(scores[0].tolist(), int_ids[0].tolist(), strict=True)
            if (name := names.get(int_id)) is not None
        ]

    def similarities(
        self,
        query: npt.ArrayLike,
        memory_ids: Iterable[str],
        stored: StoredVectors | None = None,
    ) -> dict[str, float]:
        """The cosine of `query` to each given memory the index holds (others are left out).
        `stored`: `stored_vectors` of (at least) those memories taken before, used when the
        index has not been written since (the same vectors, so the same cosines to the bit)."""
        vector = self._checked_vector(query)
        wanted = list(dict.fromkeys(memory_ids))  # once: `memory_ids` may be an iterator
        if stored is not None and stored.version == self._version:
            # Not written since: what the index holds now (a write racing this call is one it
            # could as well have waited for, as the read under the lock below would have).
            at, asked = stored.at, stored.asked
            if asked.issuperset(wanted):  # else: a memory not taken, read below
                known = [m for m in wanted if m in at]
                if not known:
                    return {}
                scores = stored.rows[[at[m] for m in known]] @ vector
                return dict(zip(known, scores.tolist(), strict=True))
        with self._lock:
            held = self._ids
            pairs = [(m, held[m]) for m in wanted if m in held]
            if not pairs:
                return {}
            keys = np.fromiter((int_id for _, int_id in pairs), dtype=np.int64, count=len(pairs))
            found = self._index.reconstruct_batch(keys)  # one call: ~15x faster than one by one
        scores = np.asarray(found, np.float32) @ vector
        return {m: float(s) for (m, _), s in zip(pairs, scores.tolist(), strict=True)}

    def stored_vectors(self, memory_ids: Iterable[str]) -> StoredVectors:
        """The stored vectors of the given memories the index holds, taken now (before the
        query's vector is known) for a later `similarities`: a search's lexical side takes
        those of its hits while the query is still being embedded."""
        asked = frozenset(memory_ids)
        with self._lock:
            held = self._ids
            known = [m for m in asked if m in held]
            keys = np.fromiter((held[m] for m in known), dtype=np.int64, count=len(known))
            rows = (
                np.asarray(self._index.reconstruct_batch(keys), np.float32)
                if known
                else np.zeros((0, self._dim), np.float32)
            )
            return StoredVectors(self._version, asked, {m: n for n, m in enumerate(known)}, rows)

    def vector(self, memory_id: str) -> Vector:
        """The stored vector of one memory (raises `KeyError` for an unknown id)."""
        with self._lock:
            out: Vector = np.asarray(self._index.reconstruct(self._ids[memory_id]), np.float32)
            return out

    def _first_pass(self, vector: Vector, k: int) -> Scored | None:
        """The answer of the 4-bit codes or of the int8 copy (`first_pass`), or None when the
        index is to be scanned in full (too small for either, or a first set that cannot vouch
        for its `k` best)."""
        count = len(self._ids)
        flat = self._kind is IndexKind.FLAT
        if isinstance(self._compact, IvfFastScanCopy):
            return ivf_compact_answer(
                self._index, self._compact, vector, k, width=IVF_COMPACT_WIDTH
            )
        if self._compact is not None:
            return compact_answer(
                self._compact, vector, k, count=count, width=COMPACT_WIDTH, rows=self._rows
            )
        if self._coarse is None or count <= COARSE_ABOVE:
            return None
        widths = COARSE_WIDTHS if flat else IVF_COARSE_WIDTHS
        rows = self._rows if flat else None
        return int8_answer(
            self._index, self._coarse, vector, k, count=count, widths=widths, rows=rows
        )

    def _rows(self, int_ids: npt.NDArray[np.int64]) -> Vector | None:
        """A flat index's stored vectors of `int_ids` (`FlatRows`, made again after a change)."""
        if self._stored is None:
            self._stored = FlatRows(self._index, self._dim, self._next_id)
        return self._stored.rows(int_ids)

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
                    self._compact,
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

    def _save_made_parts(self) -> None:
        """Write the int8 copy and the 4-bit codes `load` made (none read from a file that
        belongs to the index) beside the index file it read, unchanged since, so the next load
        reads them. A failure is logged and changes nothing (the next load makes them again)."""
        if self.path is None:
            return
        sha = self._loaded_sha256
        with self._save_lock:
            with self._lock:
                copy = None if self._copy_restored else self._coarse
                codes = None if self._codes_restored else self._compact
                files = side_files(copy, codes, sha)
            write_side_files(self.path, files, count=len(self._ids))

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
        codes_above = compact_above if fast_scan_fits(dim) else None
        saved = read_index_files(path, dim, model_id, codes_above=codes_above)
        if saved.codes_problem is not None:
            log.warning("vector_index_codes_unusable", reason=saved.codes_problem)
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
        index._coarse = saved.copy
        if saved.copy is None and not index._codes_wanted():
            index._coarse = index._new_copy()
        index._compact = saved.codes
        index._codes_restored = saved.codes is not None
        index._keep_compact()  # trains the codes when none were read and the index wants them
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
        index._save_made_parts()
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
        return unit_vector(vector, self._dim)

    def _remove_int_ids(self, int_ids: npt.NDArray[np.int64]) -> None:
        self._stored = None
        if self._compact is not None:  # first: an IVF index's codes read its lists to recode
            self._compact.remove(int_ids)
        self._index.remove_ids(int_ids)
        if self._coarse is not None:
            self._coarse.remove(int_ids)
