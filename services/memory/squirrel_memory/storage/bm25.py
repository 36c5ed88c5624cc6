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
from dataclasses import dataclass
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


MAX_TERM_SETS = 64
"""Most sets of terms one pass may name; past it a query is pruned by single terms
(`max_score`)."""
MAX_SET_TERMS = 12
"""Most query terms whose sets are listed (4,096 subsets); a longer query uses `max_score`."""
SEED_CAP_PER_RESULT = 50
"""Matches per wanted result that a seed pass scores at most: any of them give a threshold."""


@dataclass(frozen=True)
class TermSets:
    """One pass of `term_set_plan`: the matches holding every term of one of `sets` (None:
    every match), at most `cap` of them (None: all), of which the `limit` best are wanted."""

    sets: tuple[tuple[str, ...], ...] | None
    cap: int | None = None


def qualifying_sets(
    bounds: Mapping[str, float], threshold: float, most: int = MAX_TERM_SETS
) -> tuple[tuple[str, ...], ...] | None:
    """The smallest sets of terms whose bounds add up to more than `threshold` (with a margin
    for rounding): a row holding every term of none of them scores below `threshold`. None
    when there are more than `most` of them or more than `MAX_SET_TERMS` terms."""
    if len(bounds) > MAX_SET_TERMS:
        return None
    ordered = sorted(bounds.items(), key=lambda item: (-item[1], item[0]))
    rest = [0.0] * (len(ordered) + 1)
    for n in range(len(ordered) - 1, -1, -1):
        rest[n] = rest[n + 1] + ordered[n][1]
    above = threshold * (1 - BOUND_MARGIN)
    found: list[tuple[str, ...]] = []

    def walk(start: int, chosen: tuple[str, ...], total: float) -> bool:
        # Terms are added largest bound first, so a set is smallest once it passes: without
        # its last (smallest) term it did not.
        for n in range(start, len(ordered)):
            term, bound = ordered[n]
            if total + bound > above:
                found.append((*chosen, term))
                if len(found) > most:
                    return False
            elif total + rest[n] > above and not walk(n + 1, (*chosen, term), total + bound):
                return False
        return True

    return tuple(found) if walk(0, (), 0.0) else None


def _estimated_rows(
    sets: Sequence[tuple[str, ...]], counts: Mapping[str, int], total: int
) -> float:
    """Rows holding every term of one of `sets`, were the terms independent."""
    return sum(total * math.prod(counts[t] / max(total, 1) for t in terms) for terms in sets)


def term_set_plan(
    present: Sequence[tuple[int, str]],
    bounds: Mapping[str, float],
    total: int,
    limit: int,
    score: Callable[[Any], float],
    *,
    overestimate: float = 1.0,
) -> Generator[TermSets, tuple[list[Any], bool], list[Any]]:
    """The `limit` best rows, as scoring every match gives them, scoring few (MaxScore over
    sets of terms).

    A row's score stays below the sum of the bounds of the terms it holds, so above a
    threshold only the rows holding every term of one of its `qualifying_sets` can score. The
    seed pass takes the highest threshold, halving from the sum of every bound, whose sets
    hold about `SEED_ROWS_PER_RESULT` x `limit` rows (the terms taken as independent), and
    scores at most `SEED_CAP_PER_RESULT` x `limit` of them: the `limit`-th score among any
    rows is one the results reach. When all of the seed's rows were scored and that score
    reaches the threshold they are the results; otherwise the rows holding a set that could
    beat the score are ranked. Each pass is sent the `limit` best rows it names (best first)
    and whether it scored all of them. Queries of more terms, or of sets too many to list,
    are pruned by single terms (`max_score`).

    With `overestimate` above 1 the last pass takes the score times it as its threshold (as
    WAND's threshold factor does): fewer rows are ranked, and a row whose score beats the seed's
    but not by that factor can be missed; the results are the best of both passes' rows.
    """
    counts = {term: count for count, term in present}
    top = sum(bounds.values())
    wanted = SEED_ROWS_PER_RESULT * limit
    threshold = top
    while threshold > top * 2**-10:
        threshold /= 2
        sets = qualifying_sets(bounds, threshold)
        if sets is None:
            break
        everything = len(sets) == len(bounds) and all(len(s) == 1 for s in sets)
        if not everything and _estimated_rows(sets, counts, total) < wanted:
            continue
        rows, complete = yield TermSets(sets, SEED_CAP_PER_RESULT * limit)
        if len(rows) < limit:
            if complete and everything:
                return rows  # fewer matches than wanted: all of them
            continue
        reached = score(rows[limit - 1])
        if complete and reached >= threshold:
            return rows
        needed = qualifying_sets(bounds, reached * overestimate)
        if needed is None:
            break
        best, _ = yield TermSets(needed)
        if overestimate == 1.0:
            return best
        return sorted({*rows, *best}, key=lambda row: (-score(row), row))[:limit]
    plan = max_score(present, bounds, limit, score)
    step = next(plan)
    while True:
        reply, _ = yield TermSets(None if step is None else tuple((t,) for t in step))
        try:
            step = plan.send(reply)
        except StopIteration as done:
            result: list[Any] = done.value
            return result
