"""Placing only the candidates that can reach the places asked for keeps those places as
scoring every candidate does: the same floats, in the same order, and the same count."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.retrieval.ranking import placed
from squirrel_memory.scoring import PathMatcher, ScoreWeights, part_bounds, part_scorer

NOW = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
BASE = MemoryItem(
    id="m",
    project_id="/p",
    user_id=None,
    scope=Scope.PROJECT,
    type=MemoryType.PROJECT_FACT,
    key="k",
    content="c",
    tags=(),
    importance=0.5,
    created_at=NOW,
    updated_at=NOW,
    source=MemorySource.MANUAL,
)
ODD = [0.0, -0.0, 1.0, 1.5, -0.2, math.nan, math.inf, 1e-300]


def candidates(
    rng: random.Random, count: int
) -> tuple[dict[str, MemoryItem], dict[str, float]]:
    """Live memories and their fused relevance: many ties (a few relevances and ages shared),
    some odd values (NaN, out of [0, 1]), some ages in the future, some memories unmatched."""
    live: dict[str, MemoryItem] = {}
    fused: dict[str, float] = {}
    for n in range(count):
        memory_id = f"m{n:03d}"
        importance = rng.choice(ODD) if rng.random() < 0.05 else rng.choice([0.2, 0.5, 0.8])
        age = timedelta(days=rng.choice([-3, 0, 1, 30, 400, 10**5]) * rng.random())
        live[memory_id] = replace(BASE, id=memory_id, importance=importance, updated_at=NOW - age)
        if rng.random() < 0.9:
            relevance = rng.choice(ODD) if rng.random() < 0.05 else rng.choice([0.1, 0.4, 0.7])
            fused[memory_id] = relevance
    return live, fused


@pytest.mark.parametrize("weights", [ScoreWeights(), ScoreWeights(0.3, 0.3, 0.3, 0.1)])
def test_the_places_kept_are_those_scoring_every_candidate_gives(weights: ScoreWeights) -> None:
    rng = random.Random(7)
    matcher = PathMatcher(root="/p")
    for _ in range(200):
        live, fused = candidates(rng, rng.randint(0, 120))
        common = dict(
            keep=None,
            include_path_matches=False,
            floor=0.08,
            weights=weights,
            importance=None,
            now=NOW,
        )
        every, count = placed(live, fused, matcher, **common)  # type: ignore[arg-type]
        assert count == len(every)
        for needed in (0, 1, 5, 10, 50, 500):
            kept, counted = placed(live, fused, matcher, needed=needed, **common)  # type: ignore[arg-type]
            assert counted == count
            assert kept == every[:needed]


def test_the_bounds_hold_the_total_whatever_the_age() -> None:
    rng = random.Random(11)
    weights = ScoreWeights()
    bounds = part_bounds(weights)
    scored = part_scorer(weights, NOW)
    for _ in range(5000):
        similarity, importance, path = (
            rng.choice(ODD) if rng.random() < 0.1 else rng.random() for _ in range(3)
        )
        updated = NOW - timedelta(days=rng.uniform(-10, 10**5))
        low, high = bounds(similarity, importance, path)
        total = scored(similarity, importance, updated, path)[0]
        assert low <= total <= high
    assert bounds(1.0, 1.0, 1.0) == (0.9, 1.0)
