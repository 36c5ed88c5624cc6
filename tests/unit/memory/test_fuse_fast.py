"""Score fusion in few passes gives the doubles of its steps written out one by one."""

from __future__ import annotations

import math
import random
import struct
from collections.abc import Container

import pytest

from squirrel_memory.retrieval import RetrievalSettings
from squirrel_memory.retrieval.relevance import fuse, fusion_weights
from squirrel_memory.retrieval.results import RELEVANT_LEXICAL_ONLY, RELEVANT_WITH_VECTORS
from squirrel_memory.scoring import FusionMethod, FusionWeights, score_fusion_parts

Fused = dict[str, tuple[float, float, float]]


def stepwise(
    settings: RetrievalSettings,
    lexical: list[tuple[str, float]],
    vector: list[tuple[str, float]],
    *,
    term_count: int,
    matched: dict[str, int],
    vector_used: bool,
    indexed: Container[str] | None,
) -> Fused:
    """`fuse` by score fusion as it was written before its passes were merged: the floor,
    `score_fusion_parts`, the lift of hits the index lacks, then the three parts."""
    c = settings.lexical_saturation
    floored: list[tuple[str, float]] = []
    for memory_id, bm25 in lexical:
        if bm25 >= c:
            floored.append((memory_id, bm25))
            continue
        half = 0.5 * (matched[memory_id] / max(1, term_count))
        floored.append((memory_id, max(bm25, c * half / (1.0 - half))))
    weights = fusion_weights(settings, vector_used)
    fused, lexical_parts = score_fusion_parts(floored, vector, weights, lexical_saturation=c)
    vector_parts = dict(vector)
    if weights.lexical and weights.vector and indexed is not None:
        scale = RELEVANT_WITH_VECTORS / RELEVANT_LEXICAL_ONLY
        for memory_id, value in lexical_parts.items():
            if memory_id not in indexed:
                fused[memory_id] = max(fused.get(memory_id, 0.0), min(1.0, value * scale))
    return {
        m: (value, lexical_parts.get(m, 0.0), min(1.0, vector_parts.get(m, 0.0)))
        for m, value in fused.items()
    }


def bits(fused: Fused) -> dict[str, tuple[bytes, ...]]:
    """Each value as its eight bytes: -0.0 tells from 0.0, and NaN equals NaN."""
    return {m: tuple(struct.pack("<d", v) for v in parts) for m, parts in fused.items()}


HOSTILE = [0.0, -0.0, 1.0, -1.0, 1e-300, 5e-324, math.inf, -math.inf, math.nan, 1e308, 7]


def hits(rng: random.Random, count: int, scale: float) -> list[tuple[str, float]]:
    """Scored ids, some repeated, a few scores hostile (NaN, infinities, -0.0, an int)."""
    out: list[tuple[str, float]] = []
    for _ in range(count):
        memory_id = f"m{rng.randint(0, 90)}"
        score = rng.choice(HOSTILE) if rng.random() < 0.1 else rng.uniform(-0.1, scale)
        out.append((memory_id, score))
    return out


@pytest.mark.parametrize("vector_used", [True, False])
@pytest.mark.parametrize("saturation", [4.0, 0.5, 1e-9, 1e300])
def test_fused_parts_are_the_stepwise_doubles(vector_used: bool, saturation: float) -> None:
    rng = random.Random(hash((vector_used, saturation)) & 0xFFFF)
    for weights in (FusionWeights(), FusionWeights(0.3, 0.7), FusionWeights(1.0, 0.0)):
        settings = RetrievalSettings(
            fusion_method=FusionMethod.EXACT, lexical_saturation=saturation, fusion=weights
        )
        for _ in range(300):
            lexical = hits(rng, rng.randint(0, 60), 3 * saturation if saturation < 1e3 else 40)
            vector = hits(rng, rng.randint(0, 100), 1.1)
            terms = rng.randint(0, 8)
            matched = {m: rng.randint(0, terms) for m, _ in lexical}
            indexed = rng.choice([None, {m for m, _ in vector}, {m for m, _ in vector[::2]}])
            args = {
                "term_count": terms,
                "matched": matched,
                "vector_used": vector_used,
                "indexed": indexed,
            }
            merged = fuse(settings, lexical, vector, **args)
            assert bits(merged) == bits(stepwise(settings, lexical, vector, **args))


def test_a_saturation_that_is_not_positive_is_refused_as_before() -> None:
    settings = RetrievalSettings(lexical_saturation=1.0)
    object.__setattr__(settings, "lexical_saturation", 0.0)  # past the settings' own check
    args = {"term_count": 1, "matched": {"a": 1}, "vector_used": True, "indexed": None}
    with pytest.raises(ValueError, match="lexical_saturation"):
        fuse(settings, [("a", 1.0)], [], **args)
    with pytest.raises(ValueError, match="lexical_saturation"):
        stepwise(settings, [("a", 1.0)], [], **args)
