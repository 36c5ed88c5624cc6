"""The fused relevance of vector-only hits, worked out in one pass, is score fusion's to the bit."""

from __future__ import annotations

import dataclasses
import math
import random
import struct

import pytest

from squirrel_memory.retrieval import RetrievalSettings
from squirrel_memory.retrieval.relevance import (
    fusion_weights,
    rescaled,
    rescaled_hits,
    vector_relevance,
    worth_reading,
)
from squirrel_memory.scoring import FusionMethod, FusionWeights, score_fusion

HOSTILE = [0.0, -0.0, 1.0, -1.0, 1.5, 1e-300, 5e-324, math.inf, -math.inf, math.nan, 1e308, 7, 0]


def _bits(values: dict[str, float]) -> dict[str, bytes]:
    """Each value as its eight bytes: -0.0 tells from 0.0."""
    return {m: struct.pack("<d", v) for m, v in values.items()}


def _hits(rng: random.Random) -> list[tuple[str, float]]:
    """Up to 60 hits over a few ids (so some repeat), cosines mostly in [-1, 1], some hostile."""
    ids = [f"m{n}" for n in range(rng.randint(1, 40))]
    hits: list[tuple[str, float]] = []
    for _ in range(rng.randint(0, 60)):
        score: float = rng.uniform(-1.0, 1.0) if rng.random() < 0.8 else rng.choice(HOSTILE)
        hits.append((rng.choice(ids), score))
    return hits


@pytest.mark.parametrize(
    "fusion",
    [FusionWeights(), FusionWeights(0.3, 0.7), FusionWeights(0.0, 1.0), FusionWeights(2, 1)],
)
@pytest.mark.parametrize("saturation", [4.0, 0.5])
def test_vector_only_relevance_is_score_fusions_to_the_bit(
    fusion: FusionWeights, saturation: float
) -> None:
    settings = RetrievalSettings(fusion=fusion, lexical_saturation=saturation)
    relevance = vector_relevance(settings)
    assert relevance is not None
    weights = fusion_weights(settings, vector_used=True)
    rng = random.Random(f"{fusion}-{saturation}")
    for _ in range(600):
        hits = _hits(rng)
        expected = score_fusion([], hits, weights, lexical_saturation=saturation)
        assert _bits(dict(relevance(hits))) == _bits(expected)


def test_the_hits_worth_reading_are_those_score_fusion_lifts_to_the_floor() -> None:
    settings = RetrievalSettings()
    relevance = vector_relevance(settings)
    weights = fusion_weights(settings, vector_used=True)
    rng = random.Random(5)
    for _ in range(300):
        hits = _hits(rng)
        known = {m for m, _ in hits if rng.random() < 0.3}
        fused = score_fusion([], hits, weights, lexical_saturation=settings.lexical_saturation)
        expected = [
            (m, s) for m, s in hits if m not in known and fused[m] >= settings.min_similarity
        ]
        assert worth_reading(settings, hits, known, relevance) == expected


def test_rank_fusion_leaves_every_vector_hit_to_be_read() -> None:
    settings = RetrievalSettings(fusion_method=FusionMethod.RRF)
    assert vector_relevance(settings) is None
    hits = [("a", 0.0), ("b", 0.9)]
    assert worth_reading(settings, hits, {"b"}, None) == [("a", 0.0)]


@pytest.mark.parametrize("floor", [0.0, 0.2, 0.45])
def test_rescaled_hits_are_each_cosine_rescaled_to_the_bit(floor: float) -> None:
    """One pass over the hits gives what `rescaled` gives each cosine: 0.0 for a NaN, for -0.0
    and below the floor, the same double above it, ids and order kept."""
    settings = dataclasses.replace(RetrievalSettings(), vector_floor=floor)
    rng = random.Random(f"rescaled {floor}")
    for _ in range(200):
        hits = [*_hits(rng), ("at floor", floor), ("just below", math.nextafter(floor, -1.0))]
        got = rescaled_hits(settings, hits)
        want = [(m, rescaled(settings, cosine)) for m, cosine in hits]
        assert [m for m, _ in got] == [m for m, _ in want]
        assert [struct.pack("<d", v) for _, v in got] == [struct.pack("<d", v) for _, v in want]
