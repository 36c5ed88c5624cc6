"""Where a search finds its candidates: BM25 hits, the nearest vectors (with exact cosines for
the lexical hits outside them) and the memories naming the task's files."""

from __future__ import annotations

import posixpath
from collections.abc import Container, Sequence

from squirrel_memory.embedder import Embedder, EmbedderNotReadyError
from squirrel_memory.index import Vector, VectorIndex
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.retrieval.reader import MemoryReader
from squirrel_memory.retrieval.relevance import (
    VectorRelevance,
    exact_cosines,
    rescaled,
    worth_reading,
)
from squirrel_memory.retrieval.settings import RetrievalSettings
from squirrel_memory.scoring import GLOB_CHARS, FusionMethod


class Candidates:
    """The candidate sources of one project's search: its store, and its vector index with
    the embedder when both are there (and agree)."""

    def __init__(
        self,
        store: MemoryReader,
        settings: RetrievalSettings,
        *,
        embedder: Embedder | None = None,
        index: VectorIndex | None = None,
    ) -> None:
        self._store = store
        self.settings = settings
        self._embedder = embedder
        self.index = index

    @property
    def vector_ready(self) -> bool:
        """True when a query would use vectors now (model loaded, usable index)."""
        embedder, index = self._embedder, self.index
        return (
            self.settings.use_vector
            and embedder is not None
            and index is not None
            and embedder.ready
            and len(index) > 0
            and index.dim == embedder.dim
            and index.model_id == embedder.model_id
        )

    @property
    def exact_fusion(self) -> bool:
        """True when each lexical hit gets its own cosine to the query (`FusionMethod.EXACT`)."""
        return self.settings.fusion_method is FusionMethod.EXACT

    async def lexical_hits(
        self, project_id: str, text: str, types: list[MemoryType] | None, pool: int
    ) -> list[tuple[MemoryItem, float]]:
        """The BM25 hits with their memories, best first (none with lexical search off)."""
        if not self.settings.use_lexical:
            return []
        return await self._store.search_fts_memories(project_id, text, types, pool)

    async def vector_hits(
        self,
        text: str,
        pool: int,
        *,
        filtered: bool,
        known: Container[str],
        relevance: VectorRelevance | None = None,
        lexical_ids: Sequence[list[str]] = (),
    ) -> tuple[
        list[tuple[str, float]], Vector | None, list[MemoryItem], list[tuple[str, float]] | None
    ]:
        """The vector pool (rescaled cosines, best first), the query's vector and the memories
        of the pool, except those already in `known` when the search returns (their rows are
        not read again) and, given `relevance` (a hit's fused relevance without a lexical
        part), those below `min_similarity`.

        Last, the exact cosines (rescaled) of the lexical hits outside the pool, when
        `lexical_ids` holds those hits by the time the vector search returns (the lexical side
        is usually done first), else None: worked out on this thread, whose index and query
        vector are at hand, they are the same as `with_exact_cosines` gives afterwards."""
        embedder, index = self._embedder, self.index
        if not self.vector_ready or embedder is None or index is None:
            return [], None, [], None
        k = min(len(index), pool * (3 if filtered else 1))
        query: list[Vector] = []
        hits: list[tuple[str, float]] = []
        exact: list[list[tuple[str, float]]] = []
        settings = self.settings
        exact_fusion = self.exact_fusion

        def nearest() -> list[tuple[str, float]]:
            # Off the event loop, in one hand-off with the read of the hits' memories.
            vector = embedder.embed_query_now(text)[0]
            query.append(vector)
            hits.extend((m, rescaled(settings, cos)) for m, cos in index.search(vector, k))
            if exact_fusion and lexical_ids:
                exact.append(exact_cosines(settings, index, vector, hits, lexical_ids[0]))
            return worth_reading(settings, hits, known, relevance)

        try:
            _, items = await self._store.found_memories(nearest)
        except EmbedderNotReadyError:
            return [], None, [], None
        return hits, query[0], items, exact[0] if exact else None

    def with_exact_cosines(
        self,
        vector: list[tuple[str, float]],
        lexical: list[tuple[str, float]],
        query_vector: Vector,
    ) -> list[tuple[str, float]]:
        """The vector pool plus each lexical hit outside it, with its own cosine to the query
        (a lexical hit the index lacks stays without one)."""
        index = self.index
        if index is None:
            return vector
        lexical_ids = [m for m, _ in lexical]
        return vector + exact_cosines(self.settings, index, query_vector, vector, lexical_ids)

    async def naming_paths(
        self,
        project_id: str,
        types: list[MemoryType] | None,
        actives: Sequence[str],
        scopes: Sequence[str],
    ) -> list[MemoryItem]:
        """Memories naming an active file or an exact scope path (the only path-only hits),
        in the relative and the absolute spelling."""
        exact = [*actives, *(s for s in scopes if not GLOB_CHARS & set(s))]
        spellings = [*exact, *(posixpath.join(project_id, p) for p in exact)]
        return await self._store.memories_with_paths(
            project_id, spellings, types, self.settings.candidate_pool
        )
