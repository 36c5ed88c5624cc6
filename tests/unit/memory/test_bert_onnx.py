"""The int8 weights of the query encoder: per-column symmetric quantisation."""

from __future__ import annotations

import numpy as np
import pytest

from squirrel_memory.embedding.bert_onnx import quantize_columns


def test_each_column_is_rebuilt_within_half_a_step() -> None:
    rng = np.random.default_rng(3)
    weight = (rng.standard_normal((384, 64)) * rng.uniform(0.01, 2.0, 64)).astype(np.float32)
    q, scales = quantize_columns(weight)
    assert q.dtype == np.int8 and q.shape == weight.shape
    assert scales.dtype == np.float32 and scales.shape == (64,)
    assert int(np.abs(q.astype(np.int16)).max()) == 127  # each column uses the full range
    error = np.abs(q * scales - weight)
    assert bool(np.all(error <= scales / 2 + 1e-6))


def test_a_column_of_zeros_gets_scale_one_and_stays_zero() -> None:
    weight = np.zeros((8, 3), dtype=np.float32)
    weight[:, 1] = np.linspace(-1, 1, 8)
    q, scales = quantize_columns(weight)
    assert scales[0] == 1.0 and scales[2] == 1.0
    assert not q[:, 0].any() and not q[:, 2].any()
    assert q[:, 1].min() == -127 and q[:, 1].max() == 127


@pytest.mark.parametrize("bad", [np.inf, -np.inf])
def test_a_column_with_an_infinity_is_not_silently_kept(bad: float) -> None:
    weight = np.ones((4, 2), dtype=np.float32)
    weight[0, 0] = bad
    with pytest.raises(ValueError, match="finite"):
        quantize_columns(weight)
