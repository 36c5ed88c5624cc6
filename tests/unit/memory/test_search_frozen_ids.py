"""Searches of a seeded store return the memories, scores and order they returned before the
search pipeline's index work was trimmed (`frozen_search_ids.json`, written by the code of
454cc90d from `searches` below): the int8 first pass with its candidates gathered from the flat
index's own array, and BM25's rows found by their scores, change no result."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.index.faiss_index import COARSE_ABOVE
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import Retriever, embedding_text
from squirrel_memory.storage import SqliteStore

FROZEN = Path(__file__).with_name("frozen_search_ids.json")
NOW = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
COUNT = COARSE_ABOVE + 952  # above the size where the flat index searches its int8 copy first
WORDS = [
    "cache",
    "redis",
    "parser",
    "token",
    "auth",
    "deploy",
    "docker",
    "retry",
    "timeout",
    "flaky",
    "migration",
    "schema",
    "index",
    "query",
    "build",
    "release",
    "lint",
    "format",
    "config",
    "logging",
    "queue",
    "worker",
    "cron",
    "backup",
    "restore",
    "proxy",
    "route",
    "handler",
    "session",
    "cookie",
    "upload",
    "thumbnail",
    "render",
    "template",
    "locale",
    "payment",
    "invoice",
]
KINDS = (MemoryType.PROJECT_FACT, MemoryType.PITFALL, MemoryType.RECIPE)

Searched = list[tuple[str, list[tuple[str, float]]]]


def _candidates(rng: random.Random) -> list[MemoryCandidate]:
    return [
        MemoryCandidate(
            type=KINDS[n % len(KINDS)],
            key=f"k{n:04d}",
            content=" ".join(rng.choices(WORDS, k=rng.randint(4, 14))),
            tags=tuple(rng.sample(WORDS, 2)),
            importance=round(rng.uniform(0.3, 0.9), 2),
        )
        for n in range(COUNT)
    ]


async def searches(root: Path) -> Searched:
    """Seed a store at `root` (fixed clock, fake 64-d embedder, every vector indexed) and ask
    it 40 questions, top 10, two of every five of one type: each question and its results as
    (memory key, score)."""
    rng = random.Random(59)
    store = await SqliteStore.open(str(root), clock=lambda: NOW)
    try:
        items = []
        candidates = _candidates(rng)
        for start in range(0, len(candidates), 500):
            decisions = [
                UpdateDecision(UpdateAction.ADD_NEW, c) for c in candidates[start : start + 500]
            ]
            result = await store.apply_processing_result([], decisions, [], user_id="alice")
            items.extend(result.memories)
        store.wait_lexical_index(120)
        embedder = FakeEmbedder(dim=64)
        index = FaissIndex(embedder.dim, embedder.model_id)
        vectors = embedder.embed_now([embedding_text(m) for m in items])
        index.upsert(zip([m.id for m in items], vectors, strict=True))
        keys = {m.id: m.key for m in items}
        retriever = Retriever(store, embedder=embedder, index=index, clock=lambda: NOW)
        out: Searched = []
        for n in range(40):
            query = " ".join([*rng.sample(WORDS, rng.randint(1, 5)), f"unheard{n}"])
            types = [KINDS[n % len(KINDS)]] if n % 5 < 2 else None
            page = await retriever.search(str(root), query, 10, types=types)
            out.append((query, [(keys[r.memory_id], r.score) for r in page.results]))
        return out
    finally:
        await store.close()


async def test_searches_return_what_they_returned_before(tmp_path: Path) -> None:
    frozen = json.loads(FROZEN.read_text(encoding="utf-8"))
    found = await searches(tmp_path)
    assert sum(len(results) for _, results in found) > 300  # the searches find memories
    assert [[q, [[k, s] for k, s in r]] for q, r in found] == frozen
