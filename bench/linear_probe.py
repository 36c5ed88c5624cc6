"""A linear probe: L2-regularised logistic regression in NumPy, fitted by a fixed number of
Newton steps, plus the fold split and the threshold choice its benches use.

Deterministic: no random start, no shuffling; the same rows in the same order give the same
weights, byte for byte, on the same machine. The intercept is not penalised. Rows can carry
weights (`balanced` gives each class the same total weight), so a rare positive class is not
drowned by the negatives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]
Vector = npt.NDArray[np.float64]

#: Newton steps: an L2-regularised logistic loss is strictly convex, and a few hundred rows of a
#: few hundred features settle in well under this many.
STEPS = 30
#: A step smaller than this (max-norm) ends the fit early; the result is still deterministic.
SETTLED = 1e-10


@dataclass(frozen=True)
class Probe:
    """Fitted weights: `score(x) = sigmoid(x @ weights + bias)`."""

    weights: Vector
    bias: float
    steps: int

    def scores(self, rows: Matrix) -> Vector:
        """The probability of the positive class for each row."""
        return sigmoid(rows @ self.weights + self.bias)


def sigmoid(z: Vector) -> Vector:
    """The logistic function, without overflow for large |z|."""
    out = np.empty_like(z, dtype=np.float64)
    positive = z >= 0
    out[positive] = 1.0 / (1.0 + np.exp(-z[positive]))
    e = np.exp(z[~positive])
    out[~positive] = e / (1.0 + e)
    return out


def balanced(labels: Sequence[bool]) -> Vector:
    """Row weights giving the positives and the negatives the same total weight (mean 1)."""
    y = np.asarray(labels, dtype=bool)
    n, pos = len(y), int(y.sum())
    if pos in (0, n):
        return np.ones(n)
    return np.where(y, n / (2.0 * pos), n / (2.0 * (n - pos)))


def fit(
    rows: Matrix,
    labels: Sequence[bool],
    *,
    l2: float,
    row_weights: Vector | None = None,
    steps: int = STEPS,
    start: Probe | None = None,
) -> Probe:
    """Minimise sum_i w_i * logloss(y_i, sigmoid(x_i.b + c)) + l2/2 * |b|^2 by Newton's method,
    from zero or from `start` (a nearby fit: the loss is strictly convex, so only the number of
    steps changes, not where they end)."""
    x = np.asarray(rows, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    if x.ndim != 2 or len(x) != len(y):
        raise ValueError("rows must be a matrix with one row per label")
    if l2 <= 0:
        raise ValueError("l2 must be positive (it keeps the Newton system solvable)")
    s = np.ones(len(y)) if row_weights is None else np.asarray(row_weights, dtype=np.float64)
    n, d = x.shape
    design = np.hstack([x, np.ones((n, 1))])
    penalty = np.full(d + 1, l2)
    penalty[d] = 1e-8  # the intercept: (almost) free, yet the system stays definite
    theta = np.zeros(d + 1) if start is None else np.append(start.weights, start.bias)
    if len(theta) != d + 1:
        raise ValueError("the start has another number of features")
    taken = 0
    for taken in range(1, steps + 1):  # noqa: B007 (the count is returned)
        p = sigmoid(design @ theta)
        gradient = design.T @ (s * (p - y)) + penalty * theta
        curvature = s * p * (1.0 - p)
        hessian = (design.T * curvature) @ design
        hessian[np.diag_indices_from(hessian)] += penalty
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if float(np.max(np.abs(step))) < SETTLED:
            break
    return Probe(theta[:d].copy(), float(theta[d]), taken)


@dataclass(frozen=True)
class Standardizer:
    """Per-column centring and scaling learnt from training rows only."""

    mean: Vector
    scale: Vector

    @classmethod
    def learn(cls, rows: Matrix) -> Standardizer:
        mean = rows.mean(axis=0)
        scale = rows.std(axis=0)
        return cls(mean, np.where(scale > 1e-12, scale, 1.0))

    def apply(self, rows: Matrix) -> Matrix:
        return (rows - self.mean) / self.scale


def unit_folds(units: Sequence[str], count: int) -> list[list[int]]:
    """Rows split into `count` folds by unit: every row of a unit lands in the same fold, the
    units taken in sorted order and dealt round-robin (deterministic, no shuffling)."""
    if count < 2:
        raise ValueError("at least two folds")
    names = sorted(set(units))
    fold_of = {name: i % count for i, name in enumerate(names)}
    folds: list[list[int]] = [[] for _ in range(min(count, len(names)))]
    for row, unit in enumerate(units):
        folds[fold_of[unit]].append(row)
    return folds


def out_of_fold(
    units: Sequence[str],
    count: int,
    train_and_score: Callable[[list[int], list[int]], Vector],
) -> Vector:
    """Every row's score from a model that did not train on its unit's fold."""
    scores = np.zeros(len(units))
    for held in unit_folds(units, count):
        held_set = set(held)
        train = [i for i in range(len(units)) if i not in held_set]
        scores[held] = train_and_score(train, held)
    return scores


#: Thresholds a bench chooses from: probabilities from 0.50 to 0.99.
THRESHOLDS = tuple(round(0.5 + 0.01 * i, 2) for i in range(50))


def choose_threshold(
    scores: Vector,
    gain: Callable[[npt.NDArray[np.bool_]], float],
    thresholds: Sequence[float] = THRESHOLDS,
) -> float:
    """The threshold whose picks (`scores >= t`) have the most `gain`; ties go to the higher
    threshold (fewer picks)."""
    best_t, best = thresholds[-1], gain(scores >= thresholds[-1])
    for t in reversed(thresholds[:-1]):
        value = gain(scores >= t)
        if value > best:
            best_t, best = t, value
    return best_t
