"""`bench.mem0_side --cached`: the searched stores' vectors from the on-disk embedding cache,
and Squirrel's searched project written straight through its store with them.

Every text is embedded once by Squirrel's float MiniLM (the weights mem0 loads too) through
`bench.embedding_cache`; the project holds one memory per text, keyed as `RememberMany` keys
them, and its vector index file, before the service starts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.embedding_cache import EmbeddingCache
from bench.mem0_child import conversations
from bench.memory_text import MemoryGenerator
from bench.seeded_project import WRITE_BATCH, Vectors, loaded_embedder
from bench.writes_in_process import USER
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.storage import SqliteStore

#: The key prefix of the searched store's texts (`turn-NNNNN`).
PREFIX = "turn"


@dataclass(frozen=True)
class Cached:
    """The searched stores' vectors from the embedding cache."""

    vectors: Vectors
    model_id: str
    from_cache: int
    embedded: int
    seconds: float = 0.0
    """Wall-clock time of the lookup and the embedding of what was missing."""


def searched_texts(size: int) -> list[str]:
    """The searched store's `size` texts: the long conversations' turns, then generated
    memories' contents."""
    texts = conversations()[0][:size]
    return texts + [c.content for c in MemoryGenerator(7).candidates(size - len(texts))]


def cached_vectors(texts: Sequence[str]) -> Cached:
    """Every text's vector from Squirrel's float MiniLM, through the on-disk embedding cache."""
    embedder = loaded_embedder()
    started = time.perf_counter()
    with EmbeddingCache() as cache:
        found = cache.embed(embedder.model_id, embedder.dim, texts, embedder.embed_now)
    seconds = time.perf_counter() - started
    return Cached(found.vectors, embedder.model_id, found.from_cache, found.embedded, seconds)


async def seed_searched(root: Path, texts: Sequence[str], cached: Cached) -> None:
    """Squirrel's searched project written straight through its store, one project fact per
    text keyed `turn-NNNNN` (as `bench.writes.statements` keys them), and its vector index file from
    the cached vectors, before the service starts."""
    store = await SqliteStore.open(str(root))
    ids: list[str] = []
    try:
        for start in range(0, len(texts), WRITE_BATCH):
            chunk = texts[start : start + WRITE_BATCH]
            candidates = [
                MemoryCandidate(MemoryType.PROJECT_FACT, f"{PREFIX}-{n:05d}", text, (), 0.5, ())
                for n, text in enumerate(chunk, start)
            ]
            decisions = [UpdateDecision(UpdateAction.ADD_NEW, c) for c in candidates]
            result = await store.apply_processing_result([], decisions, [], user_id=USER)
            ids.extend(m.id for m in result.memories)
    finally:
        await store.close()
    index = FaissIndex(cached.vectors.shape[1], cached.model_id, index_path(str(root)))
    index.rebuild(zip(ids, cached.vectors, strict=True))
    index.save()
