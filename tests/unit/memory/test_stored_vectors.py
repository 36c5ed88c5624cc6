"""`FaissIndex.stored_vectors`: vectors taken ahead of a query give the cosines `similarities`
reads under the lock, to the bit, and are not used once the index has been written."""

from __future__ import annotations

import numpy as np
import pytest

from squirrel_memory.index import FaissIndex, IndexKind

DIM = 384


def _filled(approximate_above: int, count: int = 300) -> tuple[FaissIndex, np.ndarray]:
    rng = np.random.default_rng(11)
    vectors = rng.normal(size=(count, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = FaissIndex(DIM, "m", approximate_above=approximate_above)
    index.upsert((f"m{n}", v) for n, v in enumerate(vectors))
    return index, vectors


def _unit(rng: np.random.Generator) -> np.ndarray:
    vector = rng.normal(size=DIM).astype(np.float32)
    return vector / np.linalg.norm(vector)


@pytest.mark.parametrize("approximate_above", [50_000, 100])
def test_taken_vectors_give_the_same_cosines_to_the_bit(approximate_above: int) -> None:
    index, _ = _filled(approximate_above)
    assert index.kind is (IndexKind.IVF if approximate_above == 100 else IndexKind.FLAT)
    index.remove(["m5"])
    rng = np.random.default_rng(3)
    for _ in range(200):
        taken = [f"m{n}" for n in rng.integers(0, 320, size=int(rng.integers(1, 60)))]
        stored = index.stored_vectors(taken)
        query = _unit(rng)
        # any part of what was taken, repeats and unknown ids (m5, m300-m319) included
        asked = [m for m in taken if rng.random() < 0.7]
        plain = index.similarities(query, asked)
        got = index.similarities(query, asked, stored)
        assert list(got.items()) == list(plain.items())  # same ids, order and doubles


def test_a_write_after_taking_is_seen() -> None:
    index, vectors = _filled(50_000)
    query = vectors[0]
    stored = index.stored_vectors(["m1", "m2", "m3"])
    index.upsert([("m1", vectors[0])])  # m1 now holds m0's vector
    index.remove(["m2"])
    got = index.similarities(query, ["m1", "m2", "m3"], stored)
    assert set(got) == {"m1", "m3"}
    assert got["m1"] == pytest.approx(1.0, abs=1e-5)
    stored = index.stored_vectors(["m3"])
    index.rebuild((f"m{n}", v) for n, v in enumerate(vectors[:3]))  # m3 gone
    assert index.similarities(query, ["m3"], stored) == {}


def test_a_memory_not_taken_is_read_from_the_index() -> None:
    index, vectors = _filled(50_000)
    query = vectors[7]
    stored = index.stored_vectors(["m1", "m2"])
    got = index.similarities(query, iter(["m1", "m7"]), stored)  # an iterator, read once
    assert list(got) == ["m1", "m7"]
    assert got == index.similarities(query, ["m1", "m7"])
    assert got["m7"] == pytest.approx(1.0, abs=1e-5)


def test_nothing_known_taken() -> None:
    index, vectors = _filled(50_000)
    stored = index.stored_vectors(["gone", "unknown"])
    assert stored.rows.shape == (0, DIM)
    assert index.similarities(vectors[0], ["gone"], stored) == {}
    assert index.similarities(vectors[0], [], stored) == {}
