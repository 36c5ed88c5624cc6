"""Score fusion needs the query terms a lexical hit holds only where they can raise its BM25."""

from __future__ import annotations

import random

import pytest

from squirrel_memory.retrieval import RetrievalSettings
from squirrel_memory.retrieval.relevance import fuse, needs_matched
from squirrel_memory.scoring import FusionMethod


def _lists(
    rng: random.Random, settings: RetrievalSettings
) -> tuple[list[tuple[str, float]], list[tuple[str, float]], dict[str, int], int]:
    c = settings.lexical_saturation
    terms = rng.randint(1, 8)
    lexical: list[tuple[str, float]] = []
    for n in range(rng.randint(1, 60)):
        # Scores around the saturation constant, on it, and far on either side.
        score = rng.choice(
            [0.0, 1e-7, c, c - 1e-12, c + 1e-12, rng.uniform(0, 2 * c), rng.uniform(0, 40)]
        )
        lexical.append((f"m{n}", score))
    vector = [(f"m{n}", rng.uniform(0, 1)) for n in range(0, 80, rng.randint(1, 4))]
    matched = {m: rng.randint(0, terms) for m, _ in lexical}
    return lexical, vector, matched, terms


@pytest.mark.parametrize("method", [FusionMethod.EXACT, FusionMethod.RRF])
def test_fusion_is_the_same_without_the_terms_of_hits_scoring_the_saturation_or_more(
    method: FusionMethod,
) -> None:
    settings = RetrievalSettings(fusion_method=method)
    rng = random.Random(11)
    for _ in range(400):
        lexical, vector, matched, terms = _lists(rng, settings)
        every = fuse(
            settings,
            lexical,
            vector,
            term_count=terms,
            matched=matched,
            vector_used=True,
            indexed={m for m, _ in vector},
        )
        needed = {m: n for m, n in matched.items() if needs_matched(settings, dict(lexical)[m])}
        some = fuse(
            settings,
            lexical,
            vector,
            term_count=terms,
            matched=needed,
            vector_used=True,
            indexed={m for m, _ in vector},
        )
        assert some == every


def test_terms_are_needed_below_the_saturation_constant_only() -> None:
    settings = RetrievalSettings(lexical_saturation=4.0)

    assert needs_matched(settings, 0.0)
    assert needs_matched(settings, 3.999999)
    assert needs_matched(settings, float("nan"))
    assert not needs_matched(settings, 4.0)
    assert not needs_matched(settings, 12.5)


def test_a_low_bm25_hit_still_takes_its_floor_from_the_terms_it_holds() -> None:
    settings = RetrievalSettings()
    lexical = [("weak", 0.0), ("strong", 9.0)]
    fused = {
        held: fuse(
            settings,
            lexical,
            [],
            term_count=2,
            matched={"weak": held},
            vector_used=False,
            indexed=None,
        )["weak"]
        for held in (0, 1, 2)
    }

    assert fused[0][1] < fused[1][1] < fused[2][1]
