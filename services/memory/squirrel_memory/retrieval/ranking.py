"""A query's candidates placed in order by the spec's score, scored objects made on demand.

Ranking weighs every candidate (a hundred or so per query) but a search returns a page of them:
only the candidates that can reach the places asked for are scored in full, each kept as a sort
key and its `score_parts`, and `Ranking.scored` makes the `ScoredMemory` of those places only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from squirrel_memory.models import MemoryItem
from squirrel_memory.retrieval.relevance import Fused
from squirrel_memory.retrieval.results import ScoredMemory
from squirrel_memory.scoring import (
    PATH_EXACT,
    MemoryScore,
    PartBounds,
    PathMatcher,
    ScoreWeights,
    part_bounds,
    part_scorer,
)

Placed = tuple[float, float, str, tuple[float, float, float, float, float]]
"""A ranked memory: its sort key (-score, -relevance, id) and its `score_parts`."""


def placed(
    live: Mapping[str, MemoryItem],
    fused: Mapping[str, float],
    matcher: PathMatcher,
    *,
    keep: Callable[[MemoryItem], bool] | None,
    include_path_matches: bool,
    floor: float,
    weights: ScoreWeights,
    importance: Callable[[MemoryItem], float] | None,
    now: datetime,
    needed: int | None = None,
) -> tuple[list[Placed], int]:
    """The matching memories of `live`, best first (score, then relevance, then id), and how
    many match; with `needed`, only the first `needed` of them. `fused` is each hit's fused
    relevance (`Fused.relevance`; a memory neither search scored counts 0).

    A memory matches when its fused relevance reaches `floor`, (with `include_path_matches`)
    when one of its files is an active file or an exact scope path, or when a lexical or vector
    hit satisfies `keep`. `importance` is a memory's importance as ranked (default: stored).

    With `needed`, a candidate whose highest possible score (`part_bounds`: its recency at 1)
    is below the `needed`-th best lowest possible score (recency at 0) is left unscored: at
    least `needed` candidates score above it, so the places kept are the same floats in the
    same order as scoring every candidate gives."""
    paths = not matcher.empty
    matching: list[tuple[str, MemoryItem, float, float, float]] = []
    for memory_id, item in live.items():
        found = fused.get(memory_id)
        relevance = 0.0 if found is None else found
        path_score = matcher.score(item.file_paths) if paths else 0.0
        if (
            relevance < floor
            and not (include_path_matches and path_score >= PATH_EXACT)
            and not (keep is not None and found is not None and keep(item))
        ):
            continue
        worth = item.importance if importance is None else importance(item)
        matching.append((memory_id, item, relevance, worth, path_score))
    count = len(matching)
    if needed is not None and count > needed:
        matching = _within_reach(matching, needed, part_bounds(weights))
    scored = part_scorer(weights, now)
    order: list[Placed] = []
    for memory_id, item, relevance, worth, path_score in matching:
        score = scored(relevance, worth, item.updated_at, path_score)
        order.append((-score[0], -score[1], memory_id, score))
    order.sort()
    if needed is not None:
        del order[needed:]
    return order, count


def _within_reach(
    matching: list[tuple[str, MemoryItem, float, float, float]], needed: int, bounds: PartBounds
) -> list[tuple[str, MemoryItem, float, float, float]]:
    """The candidates whose highest possible score reaches the `needed`-th best lowest one."""
    if needed <= 0:
        return []
    ranged = [bounds(relevance, worth, path) for _, _, relevance, worth, path in matching]
    reach = sorted([low for low, _ in ranged], reverse=True)[needed - 1]
    return [c for c, (_, high) in zip(matching, ranged, strict=True) if high >= reach]


@dataclass(frozen=True, slots=True)
class Ranking:
    """A query's matching memories in order (the places asked for), how many matched (at most
    the caller's limit), and what their `ScoredMemory` are made of."""

    order: list[Placed]
    live: dict[str, MemoryItem]
    fused: Fused
    terms: tuple[str, ...]
    matcher: PathMatcher
    vector_used: bool
    total: int

    def scored(self, start: int, stop: int | None) -> list[ScoredMemory]:
        """The `ScoredMemory` of places `start` to `stop` (None: to the end)."""
        out: list[ScoredMemory] = []
        for _, _, memory_id, parts in self.order[start:stop]:
            item = self.live[memory_id]
            _, lexical, vector = self.fused.parts(memory_id)
            out.append(
                ScoredMemory(
                    item=item,
                    score=MemoryScore(*parts),
                    lexical=lexical,
                    vector=vector,
                    query_terms=self.terms,
                    matched_paths=self.matcher.matched(item.file_paths),
                )
            )
        return out
