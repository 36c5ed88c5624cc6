"""The terms a reason names, from cached steps, are those of the steps written out."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.retrieval.queries import meaningful_terms, stem
from squirrel_memory.retrieval.results import ScoredMemory
from squirrel_memory.scoring import MemoryScore

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
WORDS = [
    "test",
    "tests",
    "testing",
    "parser",
    "parsing",
    "parsed",
    "add",
    "fix",
    "the",
    "error",
    "cache",
    "caches",
    "404",
    "2",
    "sql",
]


def scored(rng: random.Random, n: int) -> ScoredMemory:
    content = " ".join(rng.choices(WORDS, k=rng.randint(1, 10)))
    item = MemoryItem(
        id=f"m{n}",
        project_id="/p",
        user_id="u",
        scope=Scope.PROJECT,
        source=MemorySource.RULES,
        type=MemoryType.PROJECT_FACT,
        key=f"fact:{n}",
        content=content,
        tags=tuple(rng.sample(WORDS, k=rng.randint(0, 2))),
        importance=0.5,
        created_at=NOW,
        updated_at=NOW,
    )
    query = tuple(dict.fromkeys(rng.choices(WORDS, k=rng.randint(1, 8))))
    return ScoredMemory(
        item=item,
        score=MemoryScore(0.5, 0.5, 0.5, 1.0, 0.0),
        lexical=0.3,
        vector=0.4,
        query_terms=query,
        matched_paths=(),
        common_terms=frozenset(rng.sample(WORDS, k=rng.randint(0, 3))),
        term_order=tuple(rng.sample(query, k=len(query))) if rng.random() < 0.5 else (),
    )


def written_out(memory: ScoredMemory) -> tuple[str, ...]:
    """`deciding_terms` step by step: the meaningful matched terms, the common ones left out,
    the rarest first when the order is known, one form of each light stem."""
    terms = tuple(t for t in meaningful_terms(memory.matched_terms) if t not in memory.common_terms)
    if memory.term_order:
        rank = {t: i for i, t in enumerate(memory.term_order)}
        terms = tuple(sorted(terms, key=lambda t: rank.get(t, len(rank))))
    firsts: dict[str, str] = {}
    for term in terms:
        firsts.setdefault(stem(term), term)
    return tuple(firsts.values())


def test_deciding_terms_are_the_steps_written_out_asked_once_or_again() -> None:
    rng = random.Random(5)
    memories = [scored(rng, n) for n in range(500)]
    named = [m.deciding_terms for m in memories]
    assert any(named) and not all(named)  # some reasons name terms, some none
    for _ in range(2):  # asked again, the cached steps answer the same
        assert [m.deciding_terms for m in memories] == named
        assert named == [written_out(m) for m in memories]
