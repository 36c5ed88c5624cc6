"""Where a search finds its candidates: BM25 hits, the nearest vectors (with exact cosines for
the lexical hits outside them) and the memories naming the task's files."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Container, Sequence

from squirrel_memory.embedding.base import Embedder, EmbedderNotReadyError
from squirrel_memory.index import FaissIndex, StoredVectors, Vector, VectorIndex
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.retrieval.reader import MemoryReader
from squirrel_memory.retrieval.relevance import (
    VectorRelevance,
    exact_cosines,
    rescaled_hits,
    worth_reading,
)
from squirrel_memory.retrieval.settings import RetrievalSettings
from squirrel_memory.scoring import GLOB_CHARS, FusionMethod

VectorHits = tuple[
    list[tuple[str, float]], Vector | None, list[MemoryItem], list[tuple[str, float]] | None
]
"""`Candidates.vector_hits`: the pool, the query vector, the pool's memories read, the exact
cosines of the lexical hits outside the pool (None: not worked out on the vector side)."""
_NO_VECTOR_HITS: VectorHits = ([], None, [], None)


class _VectorSearch:
    """One query's vector side, run on a reader thread (`nearest`, then the rows it names)."""

    def __init__(
        self,
        settings: RetrievalSettings,
        embedder: Embedder,
        index: VectorIndex,
        *,
        text: str,
        k: int,
        known: Container[str],
        relevance: VectorRelevance | None,
        lexical_ids: Sequence[list[str]],
        lexical_vectors: Sequence[StoredVectors] = (),
    ) -> None:
        self._settings = settings
        self._embedder = embedder
        self._index = index
        self._text = text
        self._k = k
        self._known = known
        self._relevance = relevance
        self._lexical_ids = lexical_ids
        self._lexical_vectors = lexical_vectors
        self._query: Vector | None = None
        self._hits: list[tuple[str, float]] = []
        self._exact: list[tuple[str, float]] | None = None

    def nearest(self) -> list[tuple[str, float]]:
        """The hits whose rows are to be read (none before the model is loaded). Off the event
        loop, in one hand-off with the read of those rows."""
        settings, index = self._settings, self._index
        try:
            vector = self._embedder.embed_query_now(self._text)[0]
        except EmbedderNotReadyError:
            return []
        self._query = vector
        self._hits = rescaled_hits(settings, index.search(vector, self._k))
        lexical_ids = self._lexical_ids
        if settings.fusion_method is FusionMethod.EXACT and lexical_ids:
            # The lexical side leaves its hits' vectors before their ids (`stored_vectors`).
            stored = self._lexical_vectors[0] if self._lexical_vectors else None
            self._exact = exact_cosines(
                settings, index, vector, self._hits, lexical_ids[0], stored=stored
            )
        return worth_reading(settings, self._hits, self._known, self._relevance)

    def hits(self, items: list[MemoryItem]) -> VectorHits:
        """The search's `VectorHits`, `items` the memories read for it."""
        if self._query is None:
            return _NO_VECTOR_HITS
        return self._hits, self._query, items, self._exact


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
    def indexed(self) -> Container[str] | None:
        """The memories the vector index holds (None: no index), for fusion to ask of each
        lexical hit: a FAISS index's live view of its ids (`FaissIndex.held`), whose `in`
        needs no Python call, else the index itself."""
        index = self.index
        return index.held() if isinstance(index, FaissIndex) else index

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
    ) -> VectorHits:
        """The vector pool (rescaled cosines, best first), the query's vector and the memories
        of the pool, except those already in `known` when the search returns (their rows are
        not read again) and, given `relevance` (a hit's fused relevance without a lexical
        part), those below `min_similarity`.

        Last, the exact cosines (rescaled) of the lexical hits outside the pool, when
        `lexical_ids` holds those hits by the time the vector search returns (the lexical side
        is usually done first), else None: worked out on this thread, whose index and query
        vector are at hand, they are the same as `with_exact_cosines` gives afterwards."""
        search = self._vector_search(
            text, pool, filtered=filtered, known=known, relevance=relevance, lexical_ids=lexical_ids
        )
        if search is None:
            return _NO_VECTOR_HITS
        _, items = await self._store.found_memories(search.nearest)
        return search.hits(items)

    async def both_hits(
        self,
        project_id: str,
        text: str,
        types: list[MemoryType] | None,
        pool: int,
        *,
        known: Container[str],
        relevance: VectorRelevance | None,
        lexical_ids: Sequence[list[str]],
        on_lexical: Callable[[list[tuple[MemoryItem, float]]], None],
        lexical_vectors: Sequence[StoredVectors] = (),
    ) -> tuple[VectorHits, list[tuple[MemoryItem, float]]]:
        """`vector_hits` and `lexical_hits` at once, in one read of the store (two readers, the
        event loop woken once); `on_lexical` gets the lexical hits as soon as they are read,
        on their reader, so that the vector side can use them (`known`, `lexical_ids`, and
        `lexical_vectors`: their stored vectors, `stored_vectors`, left before their ids).
        For a search whose vectors and lexical side are both on (`vector_ready`)."""
        search = self._vector_search(
            text,
            pool,
            filtered=bool(types),
            known=known,
            relevance=relevance,
            lexical_ids=lexical_ids,
            lexical_vectors=lexical_vectors,
        )
        if search is None or not self.settings.use_lexical:
            raise ValueError("both_hits needs the vector and the lexical side")
        _, items, found = await self._store.found_with_lexical(
            search.nearest, project_id, text, types=types, limit=pool, on_lexical=on_lexical
        )
        return search.hits(items), found

    def _vector_search(
        self,
        text: str,
        pool: int,
        *,
        filtered: bool,
        known: Container[str],
        relevance: VectorRelevance | None,
        lexical_ids: Sequence[list[str]],
        lexical_vectors: Sequence[StoredVectors] = (),
    ) -> _VectorSearch | None:
        embedder, index = self._embedder, self.index
        if not self.vector_ready or embedder is None or index is None:
            return None
        k = min(len(index), pool * (3 if filtered else 1))
        return _VectorSearch(
            self.settings,
            embedder,
            index,
            text=text,
            k=k,
            known=known,
            relevance=relevance,
            lexical_ids=lexical_ids,
            lexical_vectors=lexical_vectors,
        )

    def stored_vectors(self, memory_ids: Sequence[str]) -> StoredVectors | None:
        """The stored vectors of lexical hits, for their exact cosines once the query is
        embedded (`exact_cosines`): taken on the lexical side's reader, which is done long
        before the query's embedding, they leave the vector side only a product to work out.
        None unless exact score fusion asks for them and the index is a `FaissIndex`."""
        index = self.index
        if not self.exact_fusion or not isinstance(index, FaissIndex) or not memory_ids:
            return None
        return index.stored_vectors(memory_ids)

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
