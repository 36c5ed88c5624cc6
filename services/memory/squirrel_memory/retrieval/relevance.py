"""How relevant a search hit is: cosines rescaled past the unrelated-text floor, BM25 and vector
parts fused, and which vector hits can reach `min_similarity` at all (only those are read)."""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from squirrel_memory.index import FaissIndex, StoredVectors, Vector, VectorIndex
from squirrel_memory.retrieval.results import RELEVANT_LEXICAL_ONLY, RELEVANT_WITH_VECTORS
from squirrel_memory.scoring import (
    FusionMethod,
    FusionWeights,
    clip01,
    rank_fusion,
    score_fusion,
    score_fusion_parts,
)

if TYPE_CHECKING:
    from squirrel_memory.retrieval.settings import RetrievalSettings

VectorRelevance = Callable[[list[tuple[str, float]]], Mapping[str, float]]
"""The fused relevance of vector hits that are no lexical hits, by memory id."""


def rescaled(settings: RetrievalSettings, cosine: float) -> float:
    """A cosine rescaled so that `vector_floor` (an unrelated text's cosine) counts as 0."""
    floor = settings.vector_floor
    return max(0.0, (cosine - floor) / (1.0 - floor))


def rescaled_hits(
    settings: RetrievalSettings, hits: Iterable[tuple[str, float]]
) -> list[tuple[str, float]]:
    """Each hit's cosine `rescaled`, in one pass: the same doubles (`max(0.0, x)` is `x` when
    `x > 0.0`, else 0.0, NaN and -0.0 included), without a call per hit."""
    floor = settings.vector_floor
    span = 1.0 - floor
    return [(m, value if (value := (cosine - floor) / span) > 0.0 else 0.0) for m, cosine in hits]


def exact_cosines(
    settings: RetrievalSettings,
    index: VectorIndex,
    query_vector: Vector,
    pool: Sequence[tuple[str, float]],
    lexical_ids: Sequence[str],
    *,
    stored: StoredVectors | None = None,
) -> list[tuple[str, float]]:
    """The rescaled cosines to the query of the lexical hits outside the vector `pool`, in the
    lexical order (a hit the index lacks is left out): what score fusion weighs them by.
    `stored`: the lexical hits' vectors taken from a `FaissIndex` beforehand (its
    `stored_vectors`), used while the index is unchanged."""
    pooled = {m for m, _ in pool}
    missing = [m for m in lexical_ids if m not in pooled]
    if not missing:
        return []
    if stored is not None and isinstance(index, FaissIndex):
        cosines = index.similarities(query_vector, missing, stored)
    else:
        cosines = index.similarities(query_vector, missing)
    return rescaled_hits(settings, cosines.items())


def fusion_weights(settings: RetrievalSettings, vector_used: bool) -> FusionWeights:
    """The weights of the lexical and vector parts for a search that did (not) use vectors."""
    if not settings.use_lexical:
        return FusionWeights(lexical=0.0, vector=1.0)
    if not (settings.use_vector and vector_used):
        return FusionWeights(lexical=1.0, vector=0.0)
    return settings.fusion


def best_cosines(hits: Iterable[tuple[str, float]]) -> dict[str, float]:
    """The best cosine per id, a cosine that is not finite counting as 0 (`_best_per_id` of
    the vector side), in one pass; ids keep the order of their first hit."""
    isfinite = math.isfinite
    best: dict[str, float] = {}
    seen = best.get
    for memory_id, cosine in hits:
        value = cosine if type(cosine) is float else float(cosine)
        if not isfinite(value):
            value = 0.0
        known = seen(memory_id)
        if known is None or value > known:
            best[memory_id] = value
    return best


def vector_relevance(settings: RetrievalSettings) -> VectorRelevance | None:
    """The fused relevance `fuse` gives vector hits that are no lexical hits, or None when a
    hit's relevance depends on the other hits (rank fusion).

    Score fusion weighs each hit on its own, so a hit below `min_similarity` here is below it in
    the ranking too, unless it is also a lexical hit (whose row that side reads)."""
    weights = fusion_weights(settings, vector_used=True)
    if settings.fusion_method is FusionMethod.RRF and weights.lexical and weights.vector:
        return None
    wl, wv, total = weights.lexical, weights.vector, weights.total
    clip = clip01

    def relevance(hits: list[tuple[str, float]]) -> Mapping[str, float]:
        # `score_fusion([], hits, weights)` in one pass over the hits (a search's fifty, on
        # its vector reader): with no lexical hits each id's value is the best of its finite
        # cosines (else 0), clipped to [0, 1], weighted and clipped again, by the same
        # operations in the same order (`tests/unit/memory/test_vector_relevance.py`).
        best = best_cosines(hits)
        for memory_id, value in best.items():
            near = value + 0.0 if 0.0 <= value <= 1.0 else clip(value)
            fused = wl * 0.0
            fused += wv * near
            fused /= total
            best[memory_id] = fused + 0.0 if 0.0 <= fused <= 1.0 else clip(fused)
        return best

    return relevance


def worth_reading(
    settings: RetrievalSettings,
    hits: list[tuple[str, float]],
    known: Container[str],
    relevance: VectorRelevance | None,
) -> list[tuple[str, float]]:
    """The vector hits whose rows are to be read: not in `known` (read already) and, given
    `relevance`, able to reach `min_similarity` on their own."""
    fused = relevance(hits) if relevance is not None else None
    floor = settings.min_similarity
    return [
        (m, score) for m, score in hits if m not in known and (fused is None or fused[m] >= floor)
    ]


def needs_matched(settings: RetrievalSettings, bm25: float) -> bool:
    """Whether `fuse` needs to know how many query terms a lexical hit of this BM25 contains.

    Its floor, c·h / (1 - h) with h half the share of query terms it contains (at most 1/2),
    is at most `lexical_saturation` (c): a hit scoring that or more keeps its BM25 whatever it
    contains, so the terms it holds are not worked out (the same doubles either way)."""
    return not bm25 >= settings.lexical_saturation


UNMATCHED = (0.0, 0.0, 0.0)
"""The (fused relevance, lexical part, vector part) of a candidate neither search scored."""


@dataclass(frozen=True, slots=True)
class Fused:
    """A query's hits fused: each memory's fused relevance (what ranking orders by), and what
    its lexical and vector parts are made of, put together (`parts`) only for the memories a
    caller shows."""

    relevance: dict[str, float]
    lexical: Mapping[str, float]
    """The lexical part of each lexical hit."""
    vector: Mapping[str, float]
    """Each vector hit's cosine as given (the last one of an id given twice)."""

    def parts(self, memory_id: str) -> tuple[float, float, float]:
        """(fused relevance, lexical part, vector part) of one memory, each in [0, 1]."""
        value = self.relevance.get(memory_id)
        if value is None:
            return UNMATCHED
        return value, self.lexical.get(memory_id, 0.0), min(1.0, self.vector.get(memory_id, 0.0))


def fuse(
    settings: RetrievalSettings,
    lexical: list[tuple[str, float]],
    vector: list[tuple[str, float]],
    *,
    term_count: int,
    matched: dict[str, int],
    vector_used: bool,
    indexed: Container[str] | None,
) -> dict[str, tuple[float, float, float]]:
    """memory id -> (fused relevance, lexical part, vector part), each in [0, 1]: `fused_hits`
    with every memory's parts put together."""
    fused = fused_hits(
        settings,
        lexical,
        vector,
        term_count=term_count,
        matched=matched,
        vector_used=vector_used,
        indexed=indexed,
    )
    return {m: fused.parts(m) for m in fused.relevance}


def fused_hits(
    settings: RetrievalSettings,
    lexical: list[tuple[str, float]],
    vector: list[tuple[str, float]],
    *,
    term_count: int,
    matched: dict[str, int],
    vector_used: bool,
    indexed: Container[str] | None,
) -> Fused:
    """Each hit's fused relevance and its parts (`Fused`), each in [0, 1];
    `matched` holds how many query terms each lexical hit contains (needed only for the hits
    `needs_matched` names), `indexed` the memories the vector index holds (None: no index).

    FTS5 clamps BM25's IDF to ~0 for a term in half the rows or more, which on a small
    project zeroes every hit. So a lexical hit's BM25 is floored at the value that
    saturates to half the share of query terms it contains.

    A memory the vector index does not hold yet (added since it was last updated) is not
    penalised for its missing cosine: it gets its lexical relevance, rescaled from the
    lexical-only threshold to the hybrid one so both cross them alike.
    """
    c = settings.lexical_saturation
    weights = fusion_weights(settings, vector_used)
    scale = (
        RELEVANT_WITH_VECTORS / RELEVANT_LEXICAL_ONLY
        if weights.lexical and weights.vector and indexed is not None
        else None
    )
    by_score = settings.fusion_method is not FusionMethod.RRF or not (
        weights.lexical and weights.vector
    )
    if by_score and c > 0:  # else `score_fusion_parts` raises, as it always did
        return _score_fused(
            lexical, vector, weights, c, floor=(term_count, matched), indexed=indexed, scale=scale
        )
    floored = _floored(lexical, c, term_count, matched)
    if settings.fusion_method is FusionMethod.RRF and weights.lexical and weights.vector:
        fused = rank_fusion(floored, vector, weights)
        lexical_parts = score_fusion(floored, [], FusionWeights(1.0, 0.0), lexical_saturation=c)
    else:
        fused, lexical_parts = score_fusion_parts(floored, vector, weights, lexical_saturation=c)
    if scale is not None and indexed is not None:
        for memory_id, value in lexical_parts.items():
            if memory_id not in indexed:
                fused[memory_id] = max(fused.get(memory_id, 0.0), min(1.0, value * scale))
    return Fused(fused, lexical_parts, dict(vector))


def _floored(
    lexical: list[tuple[str, float]], c: float, term_count: int, matched: dict[str, int]
) -> list[tuple[str, float]]:
    """Each lexical hit's BM25 floored at c·h / (1 - h), h half the share of the query's terms
    it holds (only below c, where the floor can matter: `needs_matched`)."""
    floored: list[tuple[str, float]] = []
    for memory_id, bm25 in lexical:
        if bm25 >= c:
            floored.append((memory_id, bm25))
            continue
        share = matched[memory_id] / max(1, term_count)
        half = 0.5 * share
        floored.append((memory_id, max(bm25, c * half / (1.0 - half))))
    return floored


def _score_fused(
    lexical: list[tuple[str, float]],
    vector: list[tuple[str, float]],
    weights: FusionWeights,
    c: float,
    *,
    floor: tuple[int, dict[str, int]],
    indexed: Container[str] | None,
    scale: float | None,
) -> Fused:
    """`fused_hits` by score fusion (`score_fusion_parts` with `lexical_saturation` c > 0, then the
    lift of lexical hits the index lacks), in a few passes over the hits instead of a dict
    and a function call per hit and step: the same doubles by the same operations, in the
    same order (`tests/unit/memory/test_fuse_fast.py` holds it to the steps written out).
    A search fuses a hundred or so hits on the event loop."""
    isfinite, clip = math.isfinite, clip01
    # The lexical hits: floored (`_floored`), the best per id, finite or 0 (`_best_per_id`),
    # then s / (s + c) of max(0, s) (`_normalised_lexical`), clipped (always in [0, 1]).
    # Each id's parts are worked out when its best value is set (again if a later hit of the
    # same id beats it): one pass, the parts of the best value as before, in first-hit order.
    term_count, matched = floor
    best: dict[str, float] = {}
    seen = best.get
    lexical_norm: dict[str, float] = {}
    lexical_parts: dict[str, float] = {}
    for memory_id, bm25 in lexical:
        score = bm25
        if not score >= c:
            half = 0.5 * (matched[memory_id] / max(1, term_count))
            score = max(score, c * half / (1.0 - half))
        value = score if type(score) is float else float(score)
        if not isfinite(value):
            value = 0.0
        known = seen(memory_id)
        if known is None or value > known:
            best[memory_id] = value
            positive = value if value > 0.0 else 0.0  # max(0.0, value)
            normed = positive / (positive + c)
            lexical_norm[memory_id] = normed
            lexical_parts[memory_id] = normed + 0.0 if 0.0 <= normed <= 1.0 else clip(normed)
    # The vector hits: the best per id, finite or 0, clipped to [0, 1].
    closest = best_cosines(vector)
    for memory_id, value in closest.items():
        closest[memory_id] = value + 0.0 if 0.0 <= value <= 1.0 else clip(value)
    wl, wv, total = weights.lexical, weights.vector, weights.total
    lexical_get, vector_get = lexical_norm.get, closest.get
    fused: dict[str, float] = {}
    for memory_id in lexical_norm.keys() | closest.keys():
        value = wl * lexical_get(memory_id, 0.0)
        value += wv * vector_get(memory_id, 0.0)
        value /= total
        fused[memory_id] = value + 0.0 if 0.0 <= value <= 1.0 else clip(value)
    if scale is not None and indexed is not None:
        for memory_id, value in lexical_parts.items():
            if memory_id not in indexed:
                fused[memory_id] = max(fused.get(memory_id, 0.0), min(1.0, value * scale))
    return Fused(fused, lexical_parts, dict(vector))
