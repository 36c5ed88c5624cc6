"""A flat index above `compact_above` vectors searches its 4-bit codes first, then its best
candidates exactly: its hits carry the flat scan's scores, it finds nearly all of the exact top
k, removed vectors never come back, and the codes follow the index through writes and loads."""

from __future__ import annotations

from pathlib import Path

import faiss
import numpy as np
import pytest

from squirrel_memory.index import FaissIndex, IndexKind
from squirrel_memory.index.fast_scan import DEAD_ROWS_KEPT, FastScanCopy, fast_scan_fits
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy

DIM = 64
COUNT = 1_500
ABOVE = 1_000


def _vectors(count: int, seed: int = 3) -> np.ndarray:
    """Unit vectors in clusters, as sentence vectors lie."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((24, DIM)).astype(np.float32)
    picked = centres[rng.integers(0, len(centres), count)]
    vectors = picked + 0.6 * rng.standard_normal((count, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors.astype(np.float32)


def _index(vectors: np.ndarray, above: int = ABOVE) -> FaissIndex:
    index = FaissIndex(DIM, "test-model", compact_above=above)
    index.rebuild((f"mem_{n}", v) for n, v in enumerate(vectors))
    return index


def _exact(vectors: np.ndarray, names: list[str], query: np.ndarray, k: int) -> dict[str, float]:
    """The top k of a plain flat scan of the vectors as the index holds them (made unit)."""
    unit = FaissIndex(DIM, "test-model")._checked_vector
    flat = faiss.IndexFlatIP(DIM)
    flat.add(np.stack([unit(v) for v in vectors]))
    scores, rows = flat.search(unit(query).reshape(1, DIM), k)
    return {names[r]: float(s) for s, r in zip(scores[0], rows[0], strict=True)}


def test_hits_carry_the_flat_scans_scores_and_nearly_all_of_its_top_k() -> None:
    vectors = _vectors(COUNT)
    index = _index(vectors)
    assert index._compact is not None and len(index._compact) == COUNT
    names = [f"mem_{n}" for n in range(COUNT)]
    queries = _vectors(60, seed=11)
    for k in (10, 50):
        found = 0
        for query in queries:
            hits = index.search(query, k)
            exact = _exact(vectors, names, query, k)
            assert len(hits) == k
            assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
            for name, score in hits:
                if name in exact:
                    assert score == exact[name]
            found += len(set(exact) & {name for name, _ in hits})
        assert found / (k * len(queries)) >= 0.9  # a scan of random rows finds 0.04


def test_a_stored_vector_finds_itself_first_after_writes() -> None:
    vectors = _vectors(COUNT)
    index = _index(vectors)
    moved = _vectors(40, seed=5)
    index.upsert((f"mem_{n}", moved[n]) for n in range(40))  # replaced: old rows skipped
    index.upsert((f"new_{n}", v) for n, v in enumerate(_vectors(30, seed=6)))
    index.remove([f"mem_{n}" for n in range(40, 90)])
    assert index._compact is not None and len(index._compact) == len(index) == COUNT - 50 + 30
    for n in range(40):
        assert index.search(moved[n], 1)[0][0] == f"mem_{n}"
    for n, vector in enumerate(_vectors(30, seed=6)):
        assert index.search(vector, 1)[0][0] == f"new_{n}"
    removed = set(range(40, 90))
    for n in range(40, 90):
        hits = index.search(vectors[n], 50)
        assert f"mem_{n}" not in {name for name, _ in hits}
        # the codes themselves skip them (a removed id among the candidates would send the
        # search to the full scan)
        candidates = index._compact.candidates(index._checked_vector(vectors[n]), 132)
        assert len(candidates) == 132 and not removed & set(candidates.tolist())


def test_many_removals_recode_and_the_answers_stay_right() -> None:
    vectors = _vectors(COUNT)
    index = _index(vectors, above=400)
    copy = index._compact
    assert copy is not None
    index.remove([f"mem_{n}" for n in range(DEAD_ROWS_KEPT)])
    assert index._compact is copy and len(copy._ids) == COUNT
    index.remove([f"mem_{DEAD_ROWS_KEPT}"])
    assert index._compact is copy and len(copy._ids) == COUNT - DEAD_ROWS_KEPT - 1
    for n in range(DEAD_ROWS_KEPT + 1, DEAD_ROWS_KEPT + 40):
        assert index.search(vectors[n], 1)[0][0] == f"mem_{n}"


def test_the_codes_come_and_go_with_the_size_and_kind(tmp_path: Path) -> None:
    vectors = _vectors(COUNT)
    index = FaissIndex(DIM, "test-model", tmp_path / "i.faiss", compact_above=ABOVE)
    index.upsert((f"mem_{n}", v) for n, v in enumerate(vectors[:ABOVE]))
    assert index._compact is None
    index.upsert([(f"mem_{ABOVE}", vectors[ABOVE])])
    assert index._compact is not None and len(index._compact) == ABOVE + 1
    index.save()
    loaded = FaissIndex.load(tmp_path / "i.faiss", DIM, "test-model", compact_above=ABOVE)
    assert loaded._compact is not None and len(loaded._compact) == ABOVE + 1
    assert loaded.search(vectors[7], 1)[0][0] == "mem_7"
    index.remove(["mem_0", "mem_1"])
    assert index._compact is None
    big = FaissIndex(DIM, "test-model", approximate_above=1_200, compact_above=ABOVE)
    big.rebuild((f"mem_{n}", v) for n, v in enumerate(vectors))
    # An IVF index keeps codes of its own lists instead (`test_index_ivf_fast_scan`).
    assert big.kind is IndexKind.IVF and isinstance(big._compact, IvfFastScanCopy)
    assert big._coarse is None


def test_below_the_threshold_the_search_is_the_flat_scan() -> None:
    vectors = _vectors(COUNT)
    index = _index(vectors, above=COUNT)
    assert index._compact is None
    names = [f"mem_{n}" for n in range(COUNT)]
    query = _vectors(1, seed=9)[0]
    assert dict(index.search(query, 10)) == _exact(vectors, names, query, 10)


def test_the_copy_refuses_dimensions_it_cannot_pair() -> None:
    assert fast_scan_fits(384) and not fast_scan_fits(7)
    with pytest.raises(ValueError, match="pairs"):
        FastScanCopy(7, np.zeros((3, 7), np.float32), np.arange(3, dtype=np.int64))
    odd = FaissIndex(7, "test-model", compact_above=10)
    odd.rebuild((f"m{n}", np.eye(7, dtype=np.float32)[n % 7] + 0.01 * n) for n in range(40))
    assert odd._compact is None and len(odd.search(np.ones(7, np.float32), 5)) == 5
