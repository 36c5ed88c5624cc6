"""The int8 copy's ceiling: no vector it leaves out scores above it, exactly as FAISS scores."""

from __future__ import annotations

import faiss
import numpy as np
import numpy.typing as npt
import pytest

from squirrel_memory.index.coarse import Int8Copy

Vectors = npt.NDArray[np.float32]


def _unit(vectors: Vectors) -> Vectors:
    out: Vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    return out


def _spiky(count: int, dim: int, rng: np.random.Generator) -> Vectors:
    """Unit vectors with a few large components, which set the copy's scale, and many small."""
    vectors = rng.standard_normal((count, dim)).astype(np.float32)
    vectors[rng.integers(0, count, count // 20), rng.integers(0, dim, count // 20)] *= 12.0
    return _unit(vectors)


def _left_out_scores(
    vectors: Vectors, query: Vectors, copy: Int8Copy, wide: int, first_id: int = 0
) -> tuple[npt.NDArray[np.float32], float]:
    """FAISS's exact scores of the vectors the first pass left out (vectors numbered from
    `first_id` on), and its ceiling."""
    found = copy.candidates(query, wide)
    assert found is not None
    assert len(found.int_ids) == wide
    exact = faiss.IndexFlatIP(vectors.shape[1])
    exact.add(vectors)
    scores, rows = exact.search(query.reshape(1, -1), len(vectors))
    by_row = np.empty(len(vectors), np.float32)
    by_row[rows[0]] = scores[0]
    left_out = np.setdiff1d(np.arange(len(vectors)), found.int_ids - first_id)
    return by_row[left_out], found.ceiling


@pytest.mark.parametrize("dim", [48, 384, 1100])
def test_no_vector_left_out_scores_above_the_ceiling(dim: int) -> None:
    rng = np.random.default_rng(dim)
    vectors = _spiky(3_000, dim, rng)
    copy = Int8Copy(dim, vectors, np.arange(len(vectors), dtype=np.int64))
    queries = np.concatenate([_spiky(20, dim, rng), vectors[:20]])
    for query in queries:
        for wide in (1, 16, 116):
            left_out, ceiling = _left_out_scores(vectors, query, copy, wide)
            assert left_out.max() <= ceiling


def test_the_ceiling_is_near_enough_to_vouch_for_close_vectors() -> None:
    rng = np.random.default_rng(3)
    vectors = _spiky(3_000, 384, rng)
    copy = Int8Copy(384, vectors, np.arange(len(vectors), dtype=np.int64))
    for query in vectors[:20]:
        _, ceiling = _left_out_scores(vectors, query, copy, 16)
        assert ceiling < 0.5  # far below the 1.0 of the query's own vector, which is picked


def test_a_vector_beyond_the_scale_does_not_fit_and_removals_keep_the_ceiling() -> None:
    rng = np.random.default_rng(4)
    vectors = _unit(rng.standard_normal((200, 64)).astype(np.float32))
    copy = Int8Copy(64)
    assert copy.fits(vectors)  # the first vectors set the scale
    copy.add(vectors[:100], np.arange(100, dtype=np.int64))
    assert all(copy.fits(v.reshape(1, -1)) for v in vectors[:100])
    spike = _unit((vectors[100] + 20 * np.eye(64, dtype=np.float32)[5]).reshape(1, -1))
    assert not copy.fits(spike)
    copy.remove(np.arange(0, 40, dtype=np.int64))
    for query in vectors[40:60]:
        left_out, ceiling = _left_out_scores(vectors[40:100], query, copy, 10, first_id=40)
        assert left_out.max() <= ceiling
