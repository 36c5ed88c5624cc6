"""bench/search_floor.py's vector recall: against the searched query's own exact top 10, and
against exact float search, which also counts what an off query encoder loses."""

from __future__ import annotations

import math

import numpy as np

from bench.search_floor import vector_figures


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_a_flat_index_loses_nothing_of_its_own_truth_but_an_off_encoder_shows_against_floats() -> (
    None
):
    rng = np.random.default_rng(5)
    vectors = _unit(rng.standard_normal((2_000, 32)))
    floats = _unit(rng.standard_normal((40, 32)))
    # an encoder whose query vectors are near, not equal, to the float ones
    off = _unit(floats + 0.4 * _unit(rng.standard_normal((40, 32))))
    found = vector_figures(vectors, off, "model-a", flat=True, float_queries=floats)
    assert found.recall == 1.0
    assert 0.0 < found.recall_float < 0.95


def test_the_float_queries_themselves_read_full_recall_both_ways() -> None:
    rng = np.random.default_rng(6)
    vectors = _unit(rng.standard_normal((2_000, 32)))
    floats = _unit(rng.standard_normal((40, 32)))
    found = vector_figures(vectors, floats, "model-a", flat=True, float_queries=floats)
    assert (found.recall, found.recall_float) == (1.0, 1.0)


def test_without_float_queries_the_float_recall_is_not_made_up() -> None:
    rng = np.random.default_rng(7)
    vectors = _unit(rng.standard_normal((500, 16)))
    found = vector_figures(vectors, vectors[:10], "model-a", flat=True)
    assert found.recall == 1.0
    assert math.isnan(found.recall_float)
