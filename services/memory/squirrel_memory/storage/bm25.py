"""BM25 as SQLite's FTS5 computes it, and MaxScore pruning over it (both backends use it,
and so does the in-memory lexical index).

A term adds idf x f(k1 + 1) / (f + k1(1 - b + b·len/avg)) to a memory's score, which stays
below idf x (k1 + 1) however often the term occurs: its upper bound. With the `limit`-th best
score known to reach a threshold, a memory holding only terms whose bounds add up to no more
than the threshold cannot enter the results, so only memories holding one of the remaining
(essential) terms need a score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

K1 = 1.2
MIN_IDF = 1e-6
"""FTS5 counts a term in half the rows or more at this idf instead of zero or less."""
BOUND_MARGIN = 1e-6
"""Relative margin on a threshold, so rounding never leaves out a memory that ties it."""
SEED_ROWS_PER_RESULT = 5
"""Rows per wanted result that the rarest query terms should hold to learn a threshold."""


def idf(total: int, df: int) -> float:
    """FTS5's inverse document frequency of a term in `df` of `total` rows (at least
    `MIN_IDF`)."""
    total = max(total, df)
    return max(math.log((total - df + 0.5) / (df + 0.5)), MIN_IDF)


def upper_bound(total: int, df: int) -> float:
    """The most a term in `df` of `total` rows can add to a score: idf x (k1 + 1)."""
    return idf(total, df) * (K1 + 1)


def essential_terms(bounds: Mapping[str, float], threshold: float) -> set[str]:
    """The terms one of which a memory must hold to score above `threshold` (MaxScore).

    A memory holding only terms whose upper bounds add up to at most `threshold` scores below
    it: those terms, the smallest bounds first, are left out (with a margin for rounding).
    """
    total = 0.0
    optional: set[str] = set()
    for term, bound in sorted(bounds.items(), key=lambda item: item[1]):
        if total + bound > threshold * (1 - BOUND_MARGIN):
            break
        total += bound
        optional.add(term)
    return set(bounds) - optional


def max_score(
    present: Sequence[tuple[int, str]],
    bounds: Mapping[str, float],
    limit: int,
    score: Callable[[Any], float],
) -> Generator[Sequence[str] | None, list[Any], list[Any]]:
    """The `limit` best rows, as scoring every match gives them, scoring fewer (MaxScore).

    `present` holds (rows holding it, term) of each term found, the rarest first; `bounds` each
    term's upper bound; `score` a row's score, higher-is-better. The plan yields the terms
    whose matches a backend must score (None: every match) and is sent the `limit` best rows
    among them, best first. The matches holding the rarest terms are scored first, and the
    `limit`-th score among them is one the results reach; then only the matches holding a term
    whose bound could still beat it are scored.
    """
    seed: list[str] = []
    seen = 0
    for count, term in present:
        seed.append(term)
        seen += count
        if seen >= SEED_ROWS_PER_RESULT * limit:
            break
    if len(seed) == len(present):
        return (yield None)
    rows = yield seed
    if len(rows) < limit:
        return (yield None)
    needed = essential_terms(bounds, score(rows[-1]))
    if needed <= set(seed):
        return rows
    return (yield [term for _, term in present if term in needed])
