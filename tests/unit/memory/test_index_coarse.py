"""FaissIndex's int8 first pass: a large flat index answers exactly as its full scan does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt
import pytest

from squirrel_memory.index import FaissIndex, IndexKind, first_pass
from squirrel_memory.index.faiss_index import COARSE_ABOVE

DIM = 48
COUNT = COARSE_ABOVE + 1_000

Vectors = npt.NDArray[np.float32]


class _CountedScan:
    """The flat index, counting its full scans."""

    def __init__(self, index: Any) -> None:
        self._index = index
        self.scans = 0

    def search(self, *args: Any) -> Any:
        self.scans += 1
        return self._index.search(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._index, name)


def _unit(vectors: Vectors) -> Vectors:
    out: Vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    return out


def _clustered(count: int, seed: int) -> Vectors:
    """Unit vectors around a few dozen centres, as embedded memories cluster."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, DIM)).astype(np.float32)
    noise = 0.6 * rng.standard_normal((count, DIM)).astype(np.float32)
    return _unit(centres[rng.integers(0, 40, count)] + noise)


def _stored(vector: Vectors) -> Vectors:
    """A vector as the index keeps it (and a query as it searches with it)."""
    out: Vectors = (vector / float(np.linalg.norm(vector))).astype(np.float32)
    return out


class _FullScan:
    """What a plain flat index of the same vectors, in the same order, answers."""

    def __init__(self, ids: list[str], vectors: Vectors) -> None:
        self._ids = ids
        self._flat = faiss.IndexFlatIP(DIM)
        self._flat.add(np.stack([_stored(v) for v in vectors]))

    def search(self, query: Vectors, k: int) -> list[tuple[str, float]]:
        scores, rows = self._flat.search(_stored(query).reshape(1, DIM), k)
        found = zip(scores[0].tolist(), rows[0].tolist(), strict=True)
        return [(self._ids[r], float(s)) for s, r in found]


def _built(ids: list[str], vectors: Vectors, path: Path | None = None) -> FaissIndex:
    index = FaissIndex(DIM, "test-model", path)
    index.upsert(zip(ids, vectors, strict=True))
    return index


def _counted(index: FaissIndex) -> _CountedScan:
    counted = _CountedScan(index._index)
    index._index = counted
    return counted


def test_a_large_flat_index_answers_as_its_full_scan_to_the_bit() -> None:
    vectors = _clustered(COUNT, seed=1)
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _built(ids, vectors)
    scan = _counted(index)
    full = _FullScan(ids, vectors)
    queries = np.concatenate([_clustered(30, seed=2), vectors[:10]])
    for query in queries:
        for k in (1, 10, 50):
            assert index.search(query, k) == full.search(query, k)
    assert scan.scans < len(queries) * 3 // 2  # most were answered from the int8 copy


def test_the_exact_pass_scores_and_orders_as_the_flat_index_at_the_model_dimension() -> None:
    # The candidates are scored by FAISS's flat kernel called directly (no index made per
    # search): at 384 dimensions, with repeated vectors (equal scores) among them, the hits,
    # scores and order are a plain flat index's, for k below and above FAISS's heap limit.
    dim = 384
    rng = np.random.default_rng(11)
    centres = rng.standard_normal((30, dim)).astype(np.float32)
    vectors = _unit(centres[rng.integers(0, 30, COUNT)] + rng.standard_normal((COUNT, dim)))
    vectors[1::7] = vectors[0::7][: len(vectors[1::7])]  # ties
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = FaissIndex(dim, "test-model")
    index.upsert(zip(ids, vectors, strict=True))
    flat = faiss.IndexFlatIP(dim)
    flat.add(np.stack([_stored(v) for v in vectors]))
    scan = _counted(index)
    queries = np.concatenate([vectors[:12], _unit(rng.standard_normal((12, dim)))])
    for query in queries:
        for k in (1, 10, 50, 150):
            scores, rows = flat.search(_stored(query).reshape(1, dim), k)
            expected = [(ids[r], float(v)) for v, r in zip(scores[0], rows[0], strict=True)]
            assert index.search(query, k) == expected
    assert scan.scans < len(queries) * 2  # the int8 pass answered most of them


def test_the_int8_copy_follows_updates_removals_a_rebuild_and_a_reload(tmp_path: Path) -> None:
    vectors = _clustered(COUNT, seed=3)
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _built(ids, vectors, tmp_path / "index.faiss")
    moved = _clustered(200, seed=4)
    index.upsert(zip(ids[:200], moved, strict=True))  # replaced: now last in the flat index
    index.remove(ids[200:400])
    live_ids = ids[400:] + ids[:200]
    live = np.concatenate([vectors[400:], moved])
    index.save()
    reloaded = FaissIndex.load(tmp_path / "index.faiss", DIM, "test-model")
    rebuilt = FaissIndex(DIM, "test-model")
    rebuilt.rebuild(zip(live_ids, live, strict=True))
    full = _FullScan(live_ids, live)
    for query in _clustered(20, seed=5):
        expected = full.search(query, 50)
        assert index.search(query, 50) == expected
        assert reloaded.search(query, 50) == expected
        assert rebuilt.search(query, 50) == expected


def test_a_vector_larger_than_the_scale_allows_makes_the_copy_again() -> None:
    vectors = _clustered(COUNT, seed=8)
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _built(ids, vectors)
    spikes = _clustered(40, seed=9)
    spikes[:, 0] = 0.0
    spikes = _unit(spikes * 0.05 + np.eye(DIM, dtype=np.float32)[0])  # a component near 1
    index.upsert((f"spike_{n}", v) for n, v in enumerate(spikes))
    live_ids = ids + [f"spike_{n}" for n in range(40)]
    full = _FullScan(live_ids, np.concatenate([vectors, spikes]))
    scan = _counted(index)
    queries = np.concatenate([spikes[:10], _clustered(10, seed=10)])
    for query in queries:
        assert index.search(query, 20) == full.search(query, 20)
    assert scan.scans < len(queries)
    # Codes clipped at the old scale would score the spikes too low: the ceiling must still hold.
    assert index._coarse is not None
    exact = faiss.IndexFlatIP(DIM)
    exact.add(np.concatenate([vectors, spikes]))
    mixed = _unit(spikes[:10] + _clustered(10, seed=11))
    for query in np.concatenate([queries, mixed]):
        scores = exact.reconstruct_n(0, COUNT + 40) @ _stored(query)  # int ids are the rows
        for wide in (1, 4, 16):
            found = index._coarse.candidates(_stored(query), wide)
            assert found is not None
            left_out = np.setdiff1d(np.arange(COUNT + 40), found.int_ids)
            assert scores[left_out].max() <= found.ceiling


def test_candidates_the_first_set_cannot_vouch_for_are_found_in_a_wider_one() -> None:
    vectors = _clustered(COUNT, seed=6)
    vectors[100:400] = vectors[0]  # 301 equal vectors: more than the first 2k + 16 candidates
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _built(ids, vectors)
    scan = _counted(index)

    assert index.search(vectors[0], 50) == _FullScan(ids, vectors).search(vectors[0], 50)
    assert scan.scans == 0


def test_the_first_set_holds_a_few_more_than_twice_k(monkeypatch: pytest.MonkeyPatch) -> None:
    # 125 equal vectors: the first set vouches for the top 50 only past them (2k + 32 = 132,
    # where 2k + 16 = 116 cannot), so one int8 pass answers, and as the full scan does.
    vectors = _clustered(COUNT, seed=6)
    vectors[100:225] = vectors[0]
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _built(ids, vectors)
    scan = _counted(index)
    widths: list[int] = []
    assert index._coarse is not None
    real = type(index._coarse).candidates

    def counted(copy: Any, query: Vectors, wide: int, probes: Any = None) -> Any:
        widths.append(wide)
        return real(copy, query, wide, probes)

    monkeypatch.setattr(type(index._coarse), "candidates", counted)

    assert index.search(vectors[0], 50) == _FullScan(ids, vectors).search(vectors[0], 50)
    assert widths == [2 * 50 + 32]
    assert scan.scans == 0


def test_candidates_no_set_can_vouch_for_are_found_by_the_full_scan() -> None:
    vectors = _clustered(COUNT, seed=6)
    vectors[100:700] = vectors[0]  # 601 equal vectors: more than 8k + 64 candidates hold
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _built(ids, vectors)
    scan = _counted(index)

    assert index.search(vectors[0], 50) == _FullScan(ids, vectors).search(vectors[0], 50)
    assert scan.scans == 1


def test_a_small_index_is_scanned_in_full() -> None:
    count = COARSE_ABOVE // 2
    vectors = _clustered(count, seed=7)
    ids = [f"mem_{n}" for n in range(count)]
    index = _built(ids, vectors)
    scan = _counted(index)

    assert index.search(vectors[3], 10) == _FullScan(ids, vectors).search(vectors[3], 10)
    assert scan.scans == 1


def _own_ivf_answer(index: FaissIndex, query: Vectors, k: int) -> list[tuple[str, float]]:
    """What the IVF index's own search answers (its lists scanned in float32)."""
    scores, int_ids = index._index.search(_stored(query).reshape(1, DIM), k)
    found = zip(scores[0].tolist(), int_ids[0].tolist(), strict=True)
    return [(index._names[i], float(s)) for s, i in found if i >= 0]


def _ivf(ids: list[str], vectors: Vectors, path: Path | None = None) -> FaissIndex:
    index = FaissIndex(DIM, "test-model", path, approximate_above=COUNT - 500)
    index.upsert(zip(ids, vectors, strict=True))
    assert index.kind is IndexKind.IVF
    return index


class _FullIvfScans:
    """Counts the IVF scans of every vector in the probed lists."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.scans = 0
        real = first_pass.ivf_search

        def counted(ivf: Any, query: Vectors, k: int, probes: Any) -> Any:
            self.scans += 1
            return real(ivf, query, k, probes)

        monkeypatch.setattr(first_pass, "ivf_search", counted)


def test_an_ivf_index_answers_as_its_own_scan_to_the_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    vectors = _clustered(COUNT, seed=12)
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _ivf(ids, vectors)
    scans = _FullIvfScans(monkeypatch)
    queries = np.concatenate([_clustered(30, seed=13), vectors[:10]])
    for query in queries:
        for k in (1, 10, 50):
            assert index.search(query, k) == _own_ivf_answer(index, query, k)
    assert scans.scans < len(queries) * 3 // 2  # most were answered from the int8 copy


def test_ivf_candidates_of_equal_scores_come_in_the_order_of_its_own_scan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 150 equal vectors: the int8 pass's first set (4k + 32 = 232) vouches for the top 50 past
    # them, and they are scored again from the candidates alone, not by walking the probed lists
    vectors = _clustered(COUNT, seed=18)
    vectors[100:250] = vectors[0]
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _ivf(ids, vectors)
    scans = _FullIvfScans(monkeypatch)
    for query in (vectors[0], vectors[120], _clustered(1, seed=19)[0]):
        for k in (10, 50):
            assert index.search(query, k) == _own_ivf_answer(index, query, k)
    assert scans.scans == 0


def test_the_ivf_copy_follows_updates_removals_and_a_reload(tmp_path: Path) -> None:
    vectors = _clustered(COUNT, seed=14)
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _ivf(ids, vectors, tmp_path / "index.faiss")
    moved = _clustered(200, seed=15)
    moved[:5, 0] = 4.0  # a component beyond the copy's scale: it is made again
    moved = _unit(moved)
    index.upsert(zip(ids[:5], moved[:5], strict=True))
    assert index._coarse is not None and index._coarse.fits(moved[5:])
    index.upsert(zip(ids[5:200], moved[5:], strict=True))  # added to the copy's lists
    index.remove(ids[200:400])
    index.save()
    reloaded = FaissIndex.load(
        tmp_path / "index.faiss", DIM, "test-model", approximate_above=COUNT - 500
    )
    assert reloaded.kind is IndexKind.IVF
    for query in np.concatenate([_clustered(20, seed=16), moved[:5], moved[5:15]]):
        expected = _own_ivf_answer(index, query, 50)
        assert not {name for name, _ in expected} & set(ids[200:400])
        assert index.search(query, 50) == expected
        assert reloaded.search(query, 50) == expected


def test_ivf_candidates_no_set_can_vouch_for_are_found_by_its_own_scan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    vectors = _clustered(COUNT, seed=17)
    vectors[100:1100] = vectors[0]  # 1,001 equal vectors: more than 16k + 128 candidates hold
    ids = [f"mem_{n}" for n in range(COUNT)]
    index = _ivf(ids, vectors)
    scans = _FullIvfScans(monkeypatch)

    assert index.search(vectors[0], 50) == _own_ivf_answer(index, vectors[0], 50)
    assert scans.scans == 1
