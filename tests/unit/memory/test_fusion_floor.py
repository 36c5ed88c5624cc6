"""Score fusion needs the query terms a lexical hit holds only where they can raise its BM25."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.retrieval import RetrievalSettings
from squirrel_memory.retrieval.queries import matched_counts, matched_terms
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


T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
_WORDS = ("tests", "test", "pytest", "cargo", "build", "builds", "lint", "docs", "run", "release")


def _memory(n: int, rng: random.Random) -> MemoryItem:
    words = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 6)))
    return MemoryItem(
        id=f"mem-{n}",
        project_id="/repo",
        user_id=None,
        scope=Scope.PROJECT,
        type=MemoryType.RECIPE,
        key=rng.choice(["", "Run the tests", "Cargo build"]),
        content=f"To check: {words}.",
        tags=tuple(rng.sample(_WORDS, rng.randint(0, 2))),
        importance=0.5,
        created_at=T0,
        updated_at=T0,
        source=MemorySource.RULES,
    )


def test_the_counts_of_matched_terms_are_those_of_matched_terms_below_saturation() -> None:
    settings = RetrievalSettings(lexical_saturation=4.0)
    c = settings.lexical_saturation
    rng = random.Random(5)
    for _ in range(300):
        terms = tuple(rng.sample(_WORDS, rng.randint(0, 5)))
        found = [
            (
                _memory(rng.randint(0, 30), rng),  # an id may come twice: the last one counts
                rng.choice([0.0, c, c - 1e-12, c + 1e-12, float("nan"), rng.uniform(0, 2 * c)]),
            )
            for _ in range(rng.randint(0, 40))
        ]
        expected = {
            m.id: len(matched_terms(terms, m))
            for m, score in found
            if needs_matched(settings, score)
        }
        assert matched_counts(terms, found, c) == expected


def test_a_hit_at_saturation_is_not_counted_and_a_nan_one_is() -> None:
    item = _memory(1, random.Random(1))
    counted = matched_counts(
        ("tests",), [(item, 4.0), (_memory(2, random.Random(2)), float("nan"))], 4.0
    )
    assert list(counted) == ["mem-2"]
