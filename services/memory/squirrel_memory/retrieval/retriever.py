"""The hybrid retriever of one project: candidates from BM25 and vectors, fused and scored."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

import structlog

from squirrel_core.caller import team_user
from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.index import StoredVectors, VectorIndex
from squirrel_memory.llm.read_prompts import Note, WrittenBy
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.retrieval.candidates import Candidates, VectorHits
from squirrel_memory.retrieval.common_words import term_shares
from squirrel_memory.retrieval.intent_index import IntentIndex
from squirrel_memory.retrieval.intents import (
    Intent,
    intent_relevance,
    question_intents,
)
from squirrel_memory.retrieval.page_tokens import (
    decode_page_token,
    encode_page_token,
    query_fingerprint,
)
from squirrel_memory.retrieval.queries import (
    MAX_CANDIDATES,
    ParsedQuery,
    check_paths,
    check_types,
    matched_counts,
    parse_query,
)
from squirrel_memory.retrieval.ranking import Ranking, placed
from squirrel_memory.retrieval.reader import MemoryReader
from squirrel_memory.retrieval.relevance import fused_hits, vector_relevance
from squirrel_memory.retrieval.results import (
    PageRow,
    ScoredMemory,
    SearchPage,
    SearchRows,
    search_result,
)
from squirrel_memory.retrieval.settings import RetrievalSettings
from squirrel_memory.scoring import PathMatcher
from squirrel_memory.storage.checks import Clock, utc_now
from squirrel_memory.user_memories.privacy import filtering, visible, visible_items

if TYPE_CHECKING:
    from squirrel_memory.llm.read_writer import LlmWriter

log = structlog.get_logger()

DEFAULT_TOP_K = 5
MAX_TOP_K = 100


class Retriever:
    """Hybrid search over one project's memories.

    `index` and `embedder` are optional; without both (or before the model is loaded) search is
    lexical only. The index may lag SQLite: ids it returns that are deleted, unknown or of
    another type are dropped, and memories it lacks simply get no vector credit. `catch_up`
    (the indexer's) lets a search first wait, briefly, for writes made just before it.
    """

    def __init__(
        self,
        store: MemoryReader,
        *,
        embedder: Embedder | None = None,
        index: VectorIndex | None = None,
        settings: RetrievalSettings | None = None,
        clock: Clock = utc_now,
        writer: LlmWriter | None = None,
        catch_up: Callable[[str], Awaitable[object]] | None = None,
        importance: Callable[[MemoryItem], float] | None = None,
    ) -> None:
        self._store = store
        self._importance = importance
        """A memory's importance as ranked (its outcomes weighed in); default: as stored."""
        self._candidates = Candidates(
            store, settings or RetrievalSettings(), embedder=embedder, index=index
        )
        self._intents = IntentIndex(store)
        self._catch_up = catch_up
        self._clock = clock
        self._writer = writer

    @property
    def settings(self) -> RetrievalSettings:
        """The knobs this retriever searches with."""
        return self._candidates.settings

    @property
    def vector_ready(self) -> bool:
        """True when a query would use vectors now (model loaded, usable index)."""
        return self._candidates.vector_ready

    @property
    def project_id(self) -> str:
        """The project this retriever searches."""
        return self._store.project_id

    async def rank(
        self,
        project_id: str,
        query: str,
        *,
        types: Sequence[MemoryType] | None = None,
        active_paths: Sequence[str] = (),
        scope_paths: Sequence[str] = (),
        include_path_matches: bool = False,
        limit: int | None = None,
        keep: Callable[[MemoryItem], bool] | None = None,
    ) -> tuple[list[ScoredMemory], bool]:
        """Live matching memories, best first, and whether vectors were used.

        A memory matches when its fused relevance reaches `min_similarity`, (with
        `include_path_matches`) when one of its files is an active file or in a scope path, or
        when a lexical or vector hit satisfies `keep` (the caller's own reason to keep it).
        """
        self._check_project(project_id)
        ranking = await self._rank(
            project_id,
            parse_query(query),
            types=types,
            active_paths=active_paths,
            scope_paths=scope_paths,
            include_path_matches=include_path_matches,
            limit=limit,
            keep=keep,
        )
        return ranking.scored(0, limit), ranking.vector_used

    async def _rank(
        self,
        project_id: str,
        parsed: ParsedQuery,
        *,
        types: Sequence[MemoryType] | None = None,
        active_paths: Sequence[str] = (),
        scope_paths: Sequence[str] = (),
        include_path_matches: bool = False,
        limit: int | None = None,
        keep: Callable[[MemoryItem], bool] | None = None,
        intents: tuple[Intent, ...] = (),
    ) -> Ranking:
        """`rank` of a checked query, its `ScoredMemory` made only for the places a caller
        asks for. The memories answering `intents` (the question's, `intents.question_intents`)
        match with `INTENT_RELEVANCE` at least."""
        type_list = check_types(types)
        actives = check_paths(active_paths, "active_file_paths")
        scopes = check_paths(scope_paths, "scope_paths")
        settings = self.settings
        pool = min(MAX_CANDIDATES, max(settings.candidate_pool, limit or 0))
        if parsed.terms and settings.use_vector and self._catch_up is not None:
            # A memory written a moment ago is ranked with its vector, as it will be later.
            await self._catch_up(project_id)
        lexical: list[tuple[str, float]] = []
        vector: list[tuple[str, float]] = []
        items: dict[str, MemoryItem] = {}
        # How many query terms each lexical hit below saturation holds (fusion's floor).
        matched: dict[str, int] = {}
        # Without a caller's reason to keep a hit, a vector hit that its cosine alone cannot
        # bring to `min_similarity` is only placed as a lexical hit: its row is not read.
        relevance = (
            None if keep is not None or include_path_matches else vector_relevance(self.settings)
        )
        # Memories naming the task's files are read beside the searches (another reader).
        candidates = self._candidates
        by_path = (
            asyncio.create_task(candidates.naming_paths(project_id, type_list, actives, scopes))
            if include_path_matches and (actives or scopes)
            else None
        )
        answering: list[MemoryItem] = []
        try:
            if parsed.terms and self.settings.use_lexical and self.vector_ready:
                # The query is embedded, searched and its hits read on one reader thread while
                # BM25 runs and reads its own hits on another, in one read of the store (the
                # event loop is woken once, when both are done).
                # `items` is shared with the vector side: it skips reading the rows the lexical
                # side (usually done first) has already read, and gives the lexical hits outside
                # the vector pool their exact cosines on its thread (`lexical_ids` holds them
                # then). Fusion's query terms of the lexical hits are worked out on their reader.
                # Their stored vectors are taken there too (`lexical_vectors`, before the ids),
                # so the vector side, on the search's critical path, only multiplies.
                lexical_ids: list[list[str]] = []
                lexical_vectors: list[StoredVectors] = []

                def on_lexical(found: list[tuple[MemoryItem, float]]) -> None:
                    matched.update(matched_counts(parsed.terms, found, settings.lexical_saturation))
                    items.update((m.id, m) for m, _ in found)
                    ids = [m.id for m, _ in found]
                    stored = candidates.stored_vectors(ids)
                    if stored is not None:
                        lexical_vectors.append(stored)
                    lexical_ids.append(ids)

                hits, found = await self._candidates.both_hits(
                    project_id,
                    parsed.text,
                    type_list,
                    pool,
                    known=items,
                    relevance=relevance,
                    lexical_ids=lexical_ids,
                    on_lexical=on_lexical,
                    lexical_vectors=lexical_vectors,
                )
                lexical = [(m.id, score) for m, score in found]
                vector = self._vector_pool(hits, lexical, items)
            elif parsed.terms:
                # One side only (or vectors not ready): the same reads, one after the other.
                found = await self._candidates.lexical_hits(
                    project_id, parsed.text, type_list, pool
                )
                lexical = [(m.id, score) for m, score in found]
                items.update((m.id, m) for m, _ in found)
                matched = matched_counts(parsed.terms, found, settings.lexical_saturation)
                hits = await self._candidates.vector_hits(
                    parsed.text,
                    pool,
                    filtered=bool(type_list),
                    known=items,
                    relevance=relevance,
                    lexical_ids=[[m for m, _ in lexical]],
                )
                vector = self._vector_pool(hits, lexical, items)
            if by_path is not None:
                for item in await by_path:
                    items.setdefault(item.id, item)
            answering = await self._answering(project_id, intents, type_list)
            for item in answering:
                items.setdefault(item.id, item)
        finally:
            if by_path is not None and not by_path.done():
                by_path.cancel()
            elif by_path is not None and not by_path.cancelled():
                by_path.exception()  # retrieved, if the searches failed first
        vector_used = bool(vector) or (bool(parsed.terms) and self.vector_ready)
        wanted = set(type_list) if type_list else None
        checked = filtering()
        live = {
            m.id: m
            for m in items.values()
            if not m.deleted
            and m.project_id == project_id
            and (wanted is None or m.type in wanted)
            and (not checked or visible(m))
        }
        lexical_live = [(m, s) for m, s in lexical if m in live]
        terms = parsed.terms
        fused = fused_hits(
            self.settings,
            lexical_live,
            [(m, s) for m, s in vector if m in live],
            term_count=len(terms),
            matched=matched,
            vector_used=vector_used,
            indexed=self._candidates.indexed,
        )
        for memory_id, value in intent_relevance(intents, answering).items():
            if memory_id in live and fused.relevance.get(memory_id, 0.0) < value:
                fused.relevance[memory_id] = value
        matcher = PathMatcher(actives, scopes, root=project_id)
        order = placed(
            live,
            fused.relevance,
            matcher,
            keep=keep,
            include_path_matches=include_path_matches,
            floor=self.settings.min_similarity,
            weights=self.settings.weights,
            importance=self._importance,
            now=self._clock(),
        )
        return Ranking(order[:limit] if limit else order, live, fused, terms, matcher, vector_used)

    async def _answering(
        self, project_id: str, intents: tuple[Intent, ...], types: list[MemoryType] | None
    ) -> list[MemoryItem]:
        """The newest memories of `types` answering `intents` (`IntentIndex`)."""
        ids = await self._intents.answering(project_id, intents)
        if not ids:
            return []
        found = await self._store.get_memories(ids)
        return [m for m in found if not m.deleted and (not types or m.type in types)]

    def _vector_pool(
        self,
        hits: VectorHits,
        lexical: list[tuple[str, float]],
        items: dict[str, MemoryItem],
    ) -> list[tuple[str, float]]:
        """The vector side's scored hits (the pool, then the lexical hits' exact cosines where
        fusion weighs them), its memories added to `items`."""
        vector, query_vector, vector_items, exact = hits
        for item in vector_items:
            items.setdefault(item.id, item)
        if exact is not None:
            return vector + exact
        if query_vector is not None and self._candidates.exact_fusion:
            return self._candidates.with_exact_cosines(vector, lexical, query_vector)
        return vector

    async def term_shares(
        self, project_id: str, query: str, types: Sequence[MemoryType] | None = None
    ) -> dict[str, float]:
        """The share of the project's memories of `types` holding each word of `query`
        (`common_words.term_shares`)."""
        self._check_project(project_id)
        return await term_shares(self._store, project_id, parse_query(query).terms, types)

    async def style_memories(self, project_id: str, limit: int = 50) -> list[MemoryItem]:
        """Live user-style memories the caller may see, most important (then most recent)
        first: on a team server the caller's own, read by owner in the query (other users'
        never take the places)."""
        self._check_project(project_id)
        found = await self._store.visible_memories(
            project_id, MemoryType.USER_STYLE, team_user(), limit=limit, by_importance=True
        )
        return visible_items(found)

    async def search(
        self,
        project_id: str,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        *,
        types: Sequence[MemoryType] | None = None,
        scope_paths: Sequence[str] = (),
        page_token: str | None = None,
    ) -> SearchPage:
        """One page of the spec's search (§5.6); `scope_paths` bias scoring, they do not filter.

        `page_token` is the `next_page_token` of the previous page of the SAME search (same
        query, types and scope paths); a token from another search or altered in transit raises
        `InvalidArgumentError`. `search_rows` gives the same page without its frozen results.
        """
        page = await self.search_rows(
            project_id, query, top_k, types=types, scope_paths=scope_paths, page_token=page_token
        )
        now = page.now
        return SearchPage(
            page.query,
            tuple(search_result(row, now) for row in page.rows),
            page.total,
            page.next_page_token,
            page.vector_used,
            page.written_by,
        )

    async def search_rows(
        self,
        project_id: str,
        query: str,
        top_k: int = DEFAULT_TOP_K,
        *,
        types: Sequence[MemoryType] | None = None,
        scope_paths: Sequence[str] = (),
        page_token: str | None = None,
        leave_out: Callable[[list[str]], Awaitable[set[str]]] | None = None,
    ) -> SearchRows:
        """`search`'s page as rows (memory, score, reason), for a caller that builds its own
        reply from them. `leave_out` (the page's ids → the ids not to return) drops results
        before any reason is written: the page then holds fewer than `top_k`, and `total` and
        the next page's token stay those of the search."""
        if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
            raise InvalidArgumentError(f"top_k must be an integer from 1 to {MAX_TOP_K}")
        self._check_project(project_id)
        parsed = parse_query(query)
        type_list = check_types(types)
        scopes = check_paths(scope_paths, "scope_paths")
        fingerprint = query_fingerprint(project_id, parsed.text, type_list, scopes)
        offset = decode_page_token(page_token, fingerprint) if page_token else 0
        # Candidates enough for this page and well beyond it: `total` counts the matches among
        # them, and a continuation fetches a larger pool.
        pool = min(MAX_CANDIDATES, max(self.settings.candidate_pool, 2 * (offset + top_k)))
        ranking = await self._rank(
            project_id,
            parsed,
            types=type_list,
            scope_paths=scopes,
            limit=pool,
            intents=question_intents(parsed.text),
        )
        vector_used, total = ranking.vector_used, len(ranking.order)
        places = ranking.order[offset : offset + top_k]
        end = offset + len(places)
        token = encode_page_token(end, fingerprint) if end < total else None
        now = self._clock()
        if leave_out is not None and places:
            gone = await leave_out([place[2] for place in places])
            if gone:
                places = [place for place in places if place[2] not in gone]
        rows = ranking.rows(places)
        written_by = WrittenBy.RULES
        reasons = await self._written_reasons(parsed.text, rows)
        if reasons:
            rows = [(item, score, reasons.get(item.id) or reason) for item, score, reason in rows]
            written_by = WrittenBy.LLM
        log.info(
            "memory_searched",
            project_id=project_id,
            terms=len(parsed.terms),
            total=total,
            returned=len(rows),
            offset=offset,
            vector_used=vector_used,
            written_by=str(written_by),
        )
        return SearchRows(parsed.text, rows, total, token, now, vector_used, written_by)

    async def _written_reasons(self, query: str, rows: list[PageRow]) -> dict[str, str] | None:
        """Claude's reasons for the shown results (one call), or None to keep the rules'."""
        if self._writer is None or not rows:
            return None
        notes = [Note(m.id, str(m.type), m.key, m.content, reason) for m, _, reason in rows]
        return await self._writer.search_reasons(query, notes)

    # -- internals -------------------------------------------------------------------------

    def _check_project(self, project_id: str) -> None:
        if project_id != self._store.project_id:
            raise InvalidArgumentError("project_id does not match this store")
