"""The linear probe's arithmetic, its fold split and the threshold choice."""

from __future__ import annotations

import numpy as np
import pytest

from bench.linear_probe import (
    Standardizer,
    balanced,
    choose_threshold,
    fit,
    out_of_fold,
    sigmoid,
    unit_folds,
)


def _separable() -> tuple[np.ndarray, list[bool]]:
    x = np.array([[-2.0, 0.1], [-1.0, -0.3], [-1.5, 0.2], [1.0, 0.0], [2.0, -0.1], [1.5, 0.4]])
    return x, [False, False, False, True, True, True]


def test_sigmoid_is_finite_and_symmetric_at_the_extremes() -> None:
    z = np.array([-1000.0, -1.0, 0.0, 1.0, 1000.0])
    s = sigmoid(z)
    assert np.all(np.isfinite(s))
    assert s[2] == pytest.approx(0.5)
    assert s[1] + s[3] == pytest.approx(1.0)
    assert s[0] == pytest.approx(0.0) and s[4] == pytest.approx(1.0)


def test_the_fit_reaches_a_zero_gradient_of_the_penalised_loss() -> None:
    x, y = _separable()
    probe = fit(x, y, l2=0.5)
    p = probe.scores(x)
    target = np.asarray(y, dtype=float)
    # gradient of sum logloss + l2/2 |w|^2 (intercept unpenalised, up to its tiny ridge)
    assert np.allclose(x.T @ (p - target) + 0.5 * probe.weights, 0.0, atol=1e-8)
    assert float(np.sum(p - target)) == pytest.approx(0.0, abs=1e-6)
    assert probe.steps < 30


def test_the_fit_separates_the_classes_and_a_larger_penalty_shrinks_the_weights() -> None:
    x, y = _separable()
    loose, tight = fit(x, y, l2=0.1), fit(x, y, l2=100.0)
    assert list(loose.scores(x) >= 0.5) == y
    assert np.linalg.norm(tight.weights) < np.linalg.norm(loose.weights)


def test_the_fit_is_byte_identical_when_run_again() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(40, 5))
    y = list(x[:, 0] + 0.3 * rng.normal(size=40) > 0)
    first, second = fit(x, y, l2=1.0), fit(x, y, l2=1.0)
    assert first.weights.tobytes() == second.weights.tobytes()
    assert first.bias == second.bias


def test_row_weights_count_like_repeated_rows() -> None:
    x, y = _separable()
    weights = np.array([1.0, 2.0, 1.0, 1.0, 1.0, 3.0])
    weighted = fit(x, y, l2=1.0, row_weights=weights)
    repeated = fit(
        np.repeat(x, [1, 2, 1, 1, 1, 3], axis=0), list(np.repeat(y, [1, 2, 1, 1, 1, 3])), l2=1.0
    )
    assert np.allclose(weighted.weights, repeated.weights)
    assert weighted.bias == pytest.approx(repeated.bias)


def test_balanced_weights_give_each_class_the_same_total() -> None:
    w = balanced([True, False, False, False])
    assert w[0] == pytest.approx(2.0)
    assert w[1:].sum() == pytest.approx(2.0)
    assert np.allclose(balanced([False, False]), 1.0)


def test_a_bad_penalty_or_shape_is_refused() -> None:
    x, y = _separable()
    with pytest.raises(ValueError):
        fit(x, y, l2=0.0)
    with pytest.raises(ValueError):
        fit(x, y[:-1], l2=1.0)


def test_the_standardizer_learns_from_its_rows_and_leaves_a_constant_column_alone() -> None:
    train = np.array([[1.0, 5.0], [3.0, 5.0]])
    scaler = Standardizer.learn(train)
    assert np.allclose(scaler.apply(train), [[-1.0, 0.0], [1.0, 0.0]])
    assert np.allclose(scaler.apply(np.array([[5.0, 7.0]])), [[3.0, 2.0]])


def test_a_unit_never_straddles_two_folds_and_every_row_is_in_one() -> None:
    units = ["b", "a", "c", "a", "d", "b", "e", "a"]
    folds = unit_folds(units, 3)
    assert sorted(i for f in folds for i in f) == list(range(len(units)))
    for name in set(units):
        holding = [f for f in folds if any(units[i] == name for i in f)]
        assert len(holding) == 1
    # sorted units dealt round-robin: a→0, b→1, c→2, d→0, e→1
    assert folds[0] == [1, 3, 4, 7]
    with pytest.raises(ValueError):
        unit_folds(units, 1)


def test_out_of_fold_scores_never_come_from_a_model_that_saw_the_row() -> None:
    units = ["a", "a", "b", "c", "c"]
    seen: list[tuple[list[int], list[int]]] = []

    def train_and_score(train: list[int], test: list[int]) -> np.ndarray:
        seen.append((train, test))
        assert not set(train) & set(test)
        return np.full(len(test), float(len(train)))

    scores = out_of_fold(units, 2, train_and_score)
    assert sorted(t for _, test in seen for t in test) == [0, 1, 2, 3, 4]
    # a→fold 0, b→fold 1, c→fold 0: fold 0 trains on b alone, fold 1 on a and c
    assert list(scores) == [1.0, 1.0, 4.0, 1.0, 1.0]


def test_the_threshold_with_the_most_gain_wins_and_ties_go_to_fewer_picks() -> None:
    scores = np.array([0.95, 0.9, 0.7, 0.6])
    good = np.array([True, True, False, False])

    def gain(picks: np.ndarray) -> float:
        return float(np.sum(picks & good) - 2 * np.sum(picks & ~good))

    assert choose_threshold(scores, gain, (0.5, 0.65, 0.8, 0.92)) == 0.8
    # nothing gains: the highest threshold (no pick) is kept
    assert choose_threshold(scores, lambda p: -float(p.sum()), (0.5, 0.8)) == 0.8
