"""Two sides' times on the same questions, compared question by question.

When two trees are timed on the same questions, each question's pair (this side's call, the
other side's) ran in the same cycle, seconds apart, so whatever the shared machine was doing
weighs on both. The median of the per-question differences, with a bootstrap interval, shows a
change of a few per cent that two p50s taken over minutes of a noisy machine hide: at a load
of 8 on two cores, one tree's p50 against itself read up to 7 % apart.

The interval resamples the questions with a fixed seed (the same figures on every run of the
same times) and is the 2.5th to 97.5th percentile of the resampled medians. "Faster" is the
share of questions where this side's call took less time than the other's.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: Resamples for the interval, and its seed.
ROUNDS = 2000
SEED = 20261206


@dataclass(frozen=True)
class Paired:
    """This side against the other, question by question: the median difference (ms, this
    minus other), its 95 % bootstrap interval, the median ratio and the share of questions
    where this side was faster."""

    questions: int
    median_diff: float
    low: float
    high: float
    median_ratio: float
    faster: float

    def line(self) -> str:
        return (
            f"{self.median_diff:+.3f} ms [{self.low:+.3f}, {self.high:+.3f}] "
            f"ratio {self.median_ratio:.3f} faster on {100 * self.faster:.0f}% "
            f"of {self.questions}"
        )


def paired(this: Sequence[float], other: Sequence[float], rounds: int = ROUNDS) -> Paired:
    """`this` against `other`, each the times of the same questions in the same order."""
    if len(this) != len(other) or not this:
        raise ValueError("paired times need the same questions on both sides, at least one")
    diffs = [a - b for a, b in zip(this, other, strict=True)]
    ratios = [a / b for a, b in zip(this, other, strict=True) if b > 0]
    rng = random.Random(SEED)
    medians = sorted(
        statistics.median(rng.choices(diffs, k=len(diffs))) for _ in range(max(1, rounds))
    )
    return Paired(
        questions=len(diffs),
        median_diff=statistics.median(diffs),
        low=medians[int(0.025 * (len(medians) - 1))],
        high=medians[int(0.975 * (len(medians) - 1))],
        median_ratio=statistics.median(ratios) if ratios else float("nan"),
        faster=sum(d < 0 for d in diffs) / len(diffs),
    )
