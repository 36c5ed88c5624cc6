"""What retrieval returns: scored memories, search results and pages, and their reasons."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime

from squirrel_memory.llm.read_prompts import WrittenBy
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.retrieval.framing import framed_only
from squirrel_memory.retrieval.queries import matched_terms, meaningful_terms, stem
from squirrel_memory.scoring import MemoryScore, recency_days

RELEVANT_WITH_VECTORS = 0.37
"""Fused relevance a memory needs to count as relevant to a task when vectors were used
(calibrated by `bench/retrieval_quality.py`: abstention accuracy 1.00, 0.98 cross-validated)."""
RELEVANT_LEXICAL_ONLY = 0.5
"""The same while the model loads and only BM25 answers (abstention accuracy 0.98)."""
MENTION_SIMILARITY = 0.25
"""A reason cites closeness in meaning only from this (rescaled) cosine up."""

_TYPE_PHRASES = {
    MemoryType.USER_STYLE: "a coding-style preference",
    MemoryType.PROJECT_FACT: "a project fact",
    MemoryType.PITFALL: "a pitfall",
    MemoryType.RECIPE: "a recipe",
}


@dataclass(frozen=True, slots=True)
class ScoredMemory:
    """A live memory with its spec score and the evidence behind it (for reasons)."""

    item: MemoryItem
    score: MemoryScore
    lexical: float
    vector: float
    query_terms: tuple[str, ...]
    matched_paths: tuple[str, ...]
    common_terms: frozenset[str] = frozenset()
    """Query terms most of the project's memories hold (`common_words`): like generic words,
    they neither make this memory relevant nor explain why (set by the task context)."""
    term_order: tuple[str, ...] = ()
    """Query terms, those fewest of the project's memories hold first (`common_words.
    rarest_first`, set by the task context): the order a reason names them in."""

    @property
    def relevance(self) -> float:
        """The fused lexical + vector relevance (the spec's `similarity`)."""
        return self.score.similarity

    @property
    def matched_terms(self) -> tuple[str, ...]:
        """The query terms this memory holds, in query order (worked out when asked: only
        the shown results need them)."""
        return matched_terms(self.query_terms, self.item)

    @property
    def meaningful_terms(self) -> tuple[str, ...]:
        """The matched terms that say what the query is about (no "add", "new", "fix" …, none
        of the `common_terms`, and none the memory holds only in its frame: `framing`)."""
        terms = meaningful_terms(self.matched_terms)
        framed = framed_only(terms, self.item)
        return tuple(t for t in terms if t not in self.common_terms and t not in framed)

    @property
    def deciding_terms(self) -> tuple[str, ...]:
        """The `meaningful_terms`, those fewest memories hold first when `term_order` is known
        (query order otherwise), each word in one form: the words that set this memory apart are
        named first."""
        common = self.common_terms
        terms = _meaningful(self.matched_terms)
        framed = framed_only(terms, self.item)
        if common or framed:
            terms = tuple(t for t in terms if t not in common and t not in framed)
        if self.term_order:
            rank = {t: i for i, t in enumerate(self.term_order)}
            terms = tuple(sorted(terms, key=lambda t: rank.get(t, len(rank))))
        return _one_form(terms)


@functools.lru_cache(maxsize=4096)
def _meaningful(terms: tuple[str, ...]) -> tuple[str, ...]:
    """`meaningful_terms` of a memory's matched terms, cached: the results of one query hold
    the same few tuples of its terms."""
    return meaningful_terms(terms)


@functools.lru_cache(maxsize=4096)
def _one_form(terms: tuple[str, ...]) -> tuple[str, ...]:
    """The first of each light stem among `terms`, in their order: "tests" after "test"
    names nothing new (cached as `_meaningful`)."""
    firsts: dict[str, str] = {}
    for term in terms:
        firsts.setdefault(stem(term), term)
    return tuple(firsts.values())


def relevance_threshold(vector_used: bool) -> float:
    """The calibrated relevance a memory needs to be relevant to a task or query."""
    return RELEVANT_WITH_VECTORS if vector_used else RELEVANT_LEXICAL_ONLY


@dataclass(frozen=True, slots=True)
class ResultSource:
    """Where a search result came from (spec §5.6 `source`)."""

    episode_ids: tuple[str, ...] = ()
    file_paths: tuple[str, ...] = ()
    source_refs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One search hit (spec §5.6)."""

    memory_id: str
    type: MemoryType
    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    recency_days: int
    score: float
    reason: str
    source: ResultSource


PageRow = tuple[MemoryItem, float, str]
"""A search hit as a page holds it: the memory, its score (rounded to 4 places) and its reason.
A reply is built from these straight (`SearchResult` is made only for callers that ask)."""


@dataclass(slots=True)
class SearchRows:
    """One page of a search as rows (`Retriever.search_rows`); `now` is the moment results'
    `recency_days` are counted from. The rest as `SearchPage`."""

    query: str
    rows: list[PageRow]
    total: int
    next_page_token: str | None
    now: datetime
    vector_used: bool = False
    written_by: WrittenBy = WrittenBy.RULES


@dataclass(frozen=True, slots=True)
class SearchPage:
    """One page of results, how many matched in all and the token for the next page.

    `total` counts the matches among the candidates one query considers (at most
    `MAX_CANDIDATES`): BM25 hits and vector neighbours whose fused relevance reaches
    `min_similarity`.
    """

    query: str
    results: tuple[SearchResult, ...]
    total: int
    next_page_token: str | None
    vector_used: bool = False
    written_by: WrittenBy = WrittenBy.RULES


def explain(scored: ScoredMemory, *, subject: str = "the query") -> str:
    """A deterministic one-line reason: matched terms, touched paths and the memory's type.

    Only the terms that say what the query is about are named: a memory that shares nothing
    but "add" or "new" with it is not explained by them; the ones fewest of the project's
    memories hold come first, when known (`deciding_terms`)."""
    return _reason(
        scored.deciding_terms,  # worked out on each access
        scored.vector,
        scored.matched_paths,
        scored.item.type,
        subject,
    )


def shown_terms(query_terms: tuple[str, ...], item: MemoryItem) -> tuple[str, ...]:
    """A search hit's `deciding_terms` (no common terms, no term order: the query's own order)
    made from the memory itself, without a `ScoredMemory`."""
    terms = _meaningful(matched_terms(query_terms, item))
    framed = framed_only(terms, item)
    return _one_form(tuple(t for t in terms if t not in framed) if framed else terms)


@functools.lru_cache(maxsize=4096)
def search_reason(
    terms: tuple[str, ...], vector: float, matched_paths: tuple[str, ...], memory_type: MemoryType
) -> str:
    """`explain`'s text for a search hit of `shown_terms` `terms`, word for word (`vector` is
    read only when `terms` is empty). Cached: a query's hits share a few such texts."""
    return _reason(terms, vector, matched_paths, memory_type, "the query")


def _reason(
    terms: tuple[str, ...],
    vector: float,
    matched_paths: tuple[str, ...],
    memory_type: MemoryType,
    subject: str,
) -> str:
    parts: list[str] = []
    if terms:
        shown = ", ".join(f"'{t}'" for t in terms[:4])
        more = len(terms) - 4
        parts.append(f"Matches {shown}" + (f" and {more} more" if more > 0 else ""))
    elif vector >= MENTION_SIMILARITY:
        parts.append(f"Close in meaning to {subject} (similarity {vector:.2f})")
    if matched_paths:
        verb = "touches" if parts else "Touches"
        parts.append(f"{verb} {', '.join(matched_paths[:2])}")
    phrase = _TYPE_PHRASES.get(memory_type, "a memory")
    parts.append(phrase if parts else phrase[0].upper() + phrase[1:])
    return "; ".join(parts) + "."


def search_result(row: PageRow, now: datetime) -> SearchResult:
    """A page's row as a search hit (for callers that want the frozen form)."""
    item, score, reason = row
    episodes = (item.source_episode_id,) if item.source_episode_id else ()
    return SearchResult(
        memory_id=item.id,
        type=item.type,
        key=item.key,
        content=item.content,
        tags=item.tags,
        importance=item.importance,
        recency_days=recency_days(item.updated_at, now),
        score=score,
        reason=reason,
        source=ResultSource(
            episode_ids=episodes, file_paths=item.file_paths, source_refs=item.source_refs
        ),
    )
