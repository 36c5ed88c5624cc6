"""bench/ivf_rescore.py: both ways of scoring an IVF index's candidates answer alike."""

from __future__ import annotations

import numpy as np

from bench.ivf_rescore import filtered_scan, reconstructed
from squirrel_memory.index import FaissIndex, IndexKind
from squirrel_memory.index.coarse import probes_of
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy

DIM = 32
COUNT = 3_000


def test_the_filtered_scan_and_the_reconstructed_candidates_give_the_same_top_k() -> None:
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((COUNT, DIM)).astype(np.float32)
    vectors[10:40] = vectors[0]  # equal scores: ordered by id both ways
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = FaissIndex(DIM, "test-model", approximate_above=COUNT - 500)
    index.upsert((f"m{n}", v) for n, v in enumerate(vectors))
    assert index.kind is IndexKind.IVF and index._coarse is not None
    for query in (vectors[0], vectors[5], vectors[2_000]):
        q = query.reshape(1, DIM)
        probes = probes_of(index._index, q)
        found = index._coarse.candidates(q, 4 * 20 + 32, probes)
        assert found is not None
        s1, i1 = filtered_scan(index._index, q, 20, probes, found.int_ids)
        s2, i2 = reconstructed(index._index, q, 20, found.int_ids)
        assert np.array_equal(s1, s2)
        assert np.array_equal(i1, i2)
        assert set(i2[0].tolist()) <= set(found.int_ids.tolist())


def test_both_ways_agree_on_the_candidates_of_an_ivf_index_s_4_bit_codes() -> None:
    """Above `compact_above` the candidates come from the codes, in more lists than the IVF
    index's own share: the filtered scan walks those lists too, and both ways agree."""
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((COUNT, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = FaissIndex(DIM, "test-model", approximate_above=COUNT - 500, compact_above=1_000)
    index.upsert((f"m{n}", v) for n, v in enumerate(vectors))
    codes = index._compact
    assert index.kind is IndexKind.IVF and isinstance(codes, IvfFastScanCopy)
    for query in (vectors[1], vectors[700], rng.standard_normal(DIM).astype(np.float32)):
        q = (query / np.linalg.norm(query)).reshape(1, DIM)
        probes = codes.probes(q)
        assert probes[1].shape[1] > index._index.nprobe
        found = codes.candidates(q, 4 * 20 + 32, probes)
        s1, i1 = filtered_scan(index._index, q, 20, probes, found)
        s2, i2 = reconstructed(index._index, q, 20, found)
        assert np.array_equal(s1, s2) and np.array_equal(i1, i2)
