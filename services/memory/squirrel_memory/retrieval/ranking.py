"""A query's candidates placed in order by the spec's score, scored objects made on demand.

Ranking scores every candidate (a hundred or so per query) but a search returns a page of them:
each candidate is kept as a sort key and its `score_parts`, and `Ranking.scored` makes the
`ScoredMemory` of the places asked for only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from squirrel_memory.models import MemoryItem
from squirrel_memory.retrieval.relevance import Fused
from squirrel_memory.retrieval.results import (
    PageRow,
    ScoredMemory,
    search_reason,
    shown_terms,
)
from squirrel_memory.scoring import (
    PATH_EXACT,
    MemoryScore,
    PathMatcher,
    ScoreWeights,
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
) -> list[Placed]:
    """The matching memories of `live`, best first (score, then relevance, then id).

    A memory matches when its fused relevance reaches `floor`, (with `include_path_matches`)
    when one of its files is an active file or an exact scope path, or when a lexical or vector
    hit satisfies `keep`. `fused` is each hit's fused relevance (`Fused.relevance`; a memory
    neither search scored counts 0). `importance` is a memory's importance as ranked (default:
    stored).
    """
    paths = not matcher.empty
    scored = part_scorer(weights, now)
    order: list[Placed] = []
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
        score = scored(
            relevance,
            item.importance if importance is None else importance(item),
            item.updated_at,
            path_score,
        )
        order.append((-score[0], -score[1], memory_id, score))
    order.sort()
    return order


@dataclass(frozen=True, slots=True)
class Ranking:
    """A query's matching memories in order, and what their `ScoredMemory` are made of."""

    order: list[Placed]
    live: dict[str, MemoryItem]
    fused: Fused
    terms: tuple[str, ...]
    matcher: PathMatcher
    vector_used: bool

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

    def rows(self, places: Iterable[Placed]) -> list[PageRow]:
        """`places` (of `order`) as a page's rows: each memory, its rounded score and its
        reason (`search_reason`, the text `explain` gives its `ScoredMemory`), no
        `ScoredMemory` made."""
        live, parts_of, query_terms, matcher = self.live, self.fused.parts, self.terms, self.matcher
        paths = not matcher.empty
        out: list[PageRow] = []
        for _, _, memory_id, score in places:
            item = live[memory_id]
            terms = shown_terms(query_terms, item)
            # The cosine is named only when no term is: 0.0 otherwise keeps the reasons' cache
            # to one text per terms, paths and type.
            vector = 0.0 if terms else parts_of(memory_id)[2]
            touched = matcher.matched(item.file_paths) if paths else ()
            reason = search_reason(terms, vector, touched, item.type)
            out.append((item, round(score[0], 4), reason))
        return out
