"""Hybrid memory retrieval for one project: BM25 and vector candidates, fused, scored, explained.

Lexical candidates come from the store's FTS5 index; vector candidates from the FAISS index via
the embedder. When the embedder is still loading (or failed) or the index is missing, search runs
on BM25 alone and never waits for the model. The fused relevance feeds the spec's score
(0.6 relevance + 0.2 importance + 0.1 recency + 0.1 path match). Deleted or superseded memories
never come back: every candidate is re-read from SQLite, whatever the index still holds.
With an `LlmWriter`, Claude writes the shown results' reasons (one call per page, spec §5.6
step 4); on any failure the deterministic reasons stand.

Modules: `retriever` (the `Retriever`: ranking and search pages), `candidates` (where a search
finds its candidates), `reader` (what it reads from a store), `settings` (its knobs),
`relevance` (a hit's fused relevance, and which vector hits are worth reading), `common_words`
(a task's words most of the project's memories hold), `ranking`
(candidates in score order), `queries` (a query's text, words and stems, its types and paths
checked), `results` (scored memories, results, pages and reasons), `page_tokens`.
"""

from squirrel_memory.retrieval.page_tokens import (
    PAGE_TOKEN_VERSION,
    decode_page_token,
    encode_page_token,
)
from squirrel_memory.retrieval.queries import (
    GENERIC_WORDS,
    MAX_CANDIDATES,
    MAX_QUERY_CHARS,
    MAX_SCOPE_PATHS,
    STEM_CACHE_SIZE,
    addressee_words,
    embedding_text,
    extension_words,
    file_name_words,
    file_names,
    folder_words,
    is_generic,
    matched_terms,
    meaningful_terms,
    project_words,
    query_terms,
    stem,
    text_terms,
)
from squirrel_memory.retrieval.reader import MemoryReader
from squirrel_memory.retrieval.results import (
    MENTION_SIMILARITY,
    RELEVANT_LEXICAL_ONLY,
    RELEVANT_WITH_VECTORS,
    ResultSource,
    ScoredMemory,
    SearchPage,
    SearchResult,
    explain,
    relevance_threshold,
)
from squirrel_memory.retrieval.retriever import DEFAULT_TOP_K, MAX_TOP_K, Retriever
from squirrel_memory.retrieval.settings import RetrievalSettings

__all__ = [
    "DEFAULT_TOP_K",
    "GENERIC_WORDS",
    "MAX_CANDIDATES",
    "MAX_QUERY_CHARS",
    "MAX_SCOPE_PATHS",
    "MAX_TOP_K",
    "MENTION_SIMILARITY",
    "PAGE_TOKEN_VERSION",
    "RELEVANT_LEXICAL_ONLY",
    "RELEVANT_WITH_VECTORS",
    "STEM_CACHE_SIZE",
    "MemoryReader",
    "ResultSource",
    "RetrievalSettings",
    "Retriever",
    "ScoredMemory",
    "SearchPage",
    "SearchResult",
    "addressee_words",
    "decode_page_token",
    "embedding_text",
    "encode_page_token",
    "explain",
    "extension_words",
    "file_name_words",
    "file_names",
    "folder_words",
    "is_generic",
    "matched_terms",
    "meaningful_terms",
    "project_words",
    "query_terms",
    "relevance_threshold",
    "stem",
    "text_terms",
]
