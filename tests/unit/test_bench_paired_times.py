"""Two sides compared question by question: a steady gain shows through noise that both sides
share, the figures are the same on every run, and mismatched times are refused."""

from __future__ import annotations

import random

import pytest

from bench.paired_times import paired
from bench.search_floor import Row, Times, VectorFigures, format_paired


def _noisy(seed: int, count: int) -> tuple[list[float], list[float]]:
    """Times of two sides whose questions share a large noise; this side 3 % faster."""
    rng = random.Random(seed)
    shared = [4.0 + rng.expovariate(0.5) for _ in range(count)]
    other = [s * rng.uniform(0.98, 1.02) for s in shared]
    this = [s * 0.97 * rng.uniform(0.98, 1.02) for s in shared]
    return this, other


def test_a_small_steady_gain_shows_through_shared_noise() -> None:
    this, other = _noisy(1, 150)
    found = paired(this, other)
    assert found.high < 0  # the whole interval says faster
    assert 0.95 < found.median_ratio < 0.99
    assert found.faster > 0.8
    assert found.questions == 150


def test_the_same_times_give_the_same_figures() -> None:
    this, other = _noisy(2, 60)
    assert paired(this, other) == paired(this, other)


def test_no_difference_has_an_interval_around_zero() -> None:
    this, other = _noisy(3, 150)
    same = [t / 0.97 for t in this]
    found = paired(same, other)
    assert found.low < 0 < found.high


def test_mismatched_or_empty_times_are_refused() -> None:
    with pytest.raises(ValueError, match="same questions"):
        paired([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="same questions"):
        paired([], [])


def _row(side: str, search: list[float]) -> Row:
    figures = VectorFigures("flat", 0.1, 0.2, 1.0)
    times = Times(search, [1.0] * len(search))
    return Row(400, side, times, times, times, "1", "1", 1.0, figures, figures)


def test_the_paired_lines_need_a_baseline_at_the_same_size() -> None:
    assert format_paired([_row("this", [2.0, 3.0])]) == ""
    lines = format_paired([_row("this", [2.0, 3.0]), _row("baseline", [2.5, 3.5])]).splitlines()
    assert lines[0].startswith("paired, per question")
    assert lines[1].split()[:2] == ["400", "search"]
    assert "-0.500 ms" in lines[1]
    assert "faster on 100% of 2" in lines[1]
