"""Full-text search over a project's memories (SQLite FTS5, BM25) with safe query building."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from typing import Any

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.storage.bm25 import SEED_ROWS_PER_RESULT, essential_terms, upper_bound
from squirrel_memory.storage.checks import check_limit, check_project, check_type, encodable
from squirrel_memory.storage.formats import fts_text, to_json
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.lexical import LexicalIndex
from squirrel_memory.storage.sqlite.reads import MEMORY_COLUMNS_OF_M, memory_from_row
from squirrel_memory.storage.sqlite.schema import (
    SEARCH_RESET,
    index_memory_text,
    log_search_change,
)

MAX_QUERY_TERMS = 32
PRUNE_ABOVE_ROWS = 2_000
"""Queries whose terms match more rows than this (counted per term) are pruned (MaxScore);
below it, scoring every match costs less than the two extra reads."""
_COUNT_MATCHES = "SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?"

_QUERY_TOKEN = re.compile(r"[^\W_]+")
# An English clitic after a word: possessive `Anna's`, `Anna’s`, contractions `didn't`, `we'll`.
# The tokenizer would make a one-letter term of it (`anna` + `s`) that matches half the rows.
_CLITIC = re.compile(r"(?<=[^\W_])['’](?:s|t|d|m|ll|re|ve)\b", re.IGNORECASE)
# Function words: they carry no topic, yet in short texts BM25 weighs them like content words.
# Porter over-stems some of them (`has` → `ha`, `was` → `wa`), which makes them match odd rows.
_STOP_WORD_TEXT = (
    "a about after again all also am an and any are as at be been before being both but by can"
    " could did didn do does doesn doing don during each even ever for from had has have having"
    " he her here hers him his how i if in into is isn it its itself just let me might more most"
    " much must my no nor not now of off on once only or other our ours out over own same shall"
    " she should so some such than that the their theirs them then there these they this those"
    " through to too under until up upon us very was wasn we were what when where whether which"
    " while who whom whose why will with within without would you your yours"
)
STOP_WORDS = frozenset(_STOP_WORD_TEXT.split())


def search_terms(text: str) -> list[str]:
    """The distinct searchable words of `text`, lower-cased, in order, at most 64 chars each.

    Identifiers are split on `_ . / - :` and camelCase; English clitics (`'s`, `n't`, `'ll`)
    are dropped; stop words are dropped unless nothing else is left. Not capped in number.
    """
    tokens: list[str] = []
    seen: set[str] = set()
    for token in _QUERY_TOKEN.findall(fts_text(_CLITIC.sub("", text))):
        lowered = token.lower()[:64]
        if lowered not in seen and encodable(lowered):
            seen.add(lowered)
            tokens.append(lowered)
    return [t for t in tokens if t not in STOP_WORDS] or tokens


def match_terms(query: str) -> list[str]:
    """The terms a query searches for: `search_terms` of its first 4,096 characters, at most
    32 of them (none: nothing is searchable)."""
    if not isinstance(query, str):
        raise InvalidArgumentError("query must be a string")
    return search_terms(query[:4096])[:MAX_QUERY_TERMS]


def fts_match_expression(query: str) -> str | None:
    """Turn arbitrary text into a safe FTS5 MATCH expression, or None when nothing is searchable.

    The terms are `match_terms` of the text, each a double-quoted string joined by OR, so
    operators, column filters, quotes and brackets in the input are plain text. BM25 ranks rows
    that match more terms first.
    """
    terms = match_terms(query)
    if not terms:
        return None
    return " OR ".join(f'"{term}"' for term in terms)


# bm25(memory_fts, 2.0, 1.0, 1.5, 0.0): column weights key 2, content 1, tags 1.5, type 0
# (`postings.COLUMN_WEIGHTS`, which the in-memory index scores with: a test holds them equal).
# Only the matches holding a term of `:within` (all matches when it is NULL) are scored; the
# unary + keeps FTS5 from looking each of them up again by rowid (`_best_rows`).
# Each row: the score, the FTS rowid, then the memory's columns as `SELECT_MEMORY` reads them.
# The `limit` best matches of a project's live memories, best first (bm25 is lower-is-better).
_BEST_MATCHES = (
    "SELECT f.score, f.rowid, " + MEMORY_COLUMNS_OF_M + " FROM ("  # noqa: S608 (constants)
    "  SELECT rowid, bm25(memory_fts, 2.0, 1.0, 1.5, 0.0) AS score FROM memory_fts"
    "  WHERE memory_fts MATCH :expression"
    "  AND (:within IS NULL OR +rowid IN "
    "(SELECT rowid FROM memory_fts WHERE memory_fts MATCH :within)) "
    "ORDER BY score, rowid LIMIT :limit) AS f "
    "JOIN memory_fts_docs d ON d.doc_id = f.rowid "
    "JOIN memory_items m ON m.id = d.memory_id "
    "WHERE m.project_id = :project AND m.deleted = 0 "
    "ORDER BY f.score, f.rowid"
)
# The same among the memories of some types. FTS5 would read each match's stored row to test
# its UNINDEXED `type` column (most of the time of a query matching thousands of rows); here
# the matches are ranked first and the type is looked up for the best ones only, until `limit`
# pass. The CROSS JOINs keep the ranked matches in the outer loop, so rows come out in rank
# order (a test holds this); should a SQLite version ever return them otherwise, `search_fts`
# sees it and reads them again with `_MATCHES_OF_TYPES_SORTED`, FTS5's own filter.
_BEST_MATCHES_OF_TYPES = (
    "SELECT f.score, f.rowid, " + MEMORY_COLUMNS_OF_M + " FROM ("  # noqa: S608 (constants)
    "  SELECT rowid, bm25(memory_fts, 2.0, 1.0, 1.5, 0.0) AS score FROM memory_fts"
    "  WHERE memory_fts MATCH :expression"
    "  AND (:within IS NULL OR +rowid IN "
    "(SELECT rowid FROM memory_fts WHERE memory_fts MATCH :within)) "
    "ORDER BY score, rowid LIMIT -1) AS f "
    "CROSS JOIN memory_fts_docs d CROSS JOIN memory_items m "
    "WHERE d.doc_id = f.rowid AND m.id = d.memory_id "
    "AND m.type IN (SELECT value FROM json_each(:types)) "
    "AND m.project_id = :project AND m.deleted = 0 "
    "LIMIT :limit"
)
_MATCHES_OF_TYPES_SORTED = (
    "SELECT f.score, f.rowid, " + MEMORY_COLUMNS_OF_M + " FROM ("  # noqa: S608 (constants)
    "  SELECT rowid, bm25(memory_fts, 2.0, 1.0, 1.5, 0.0) AS score FROM memory_fts"
    "  WHERE memory_fts MATCH :expression AND type IN (SELECT value FROM json_each(:types))"
    "  AND (:within IS NULL OR +rowid IN "
    "(SELECT rowid FROM memory_fts WHERE memory_fts MATCH :within)) "
    "ORDER BY score, rowid LIMIT :limit) AS f "
    "JOIN memory_fts_docs d ON d.doc_id = f.rowid "
    "JOIN memory_items m ON m.id = d.memory_id "
    "WHERE m.project_id = :project AND m.deleted = 0 "
    "ORDER BY f.score, f.rowid"
)


def _matches(
    conn: sqlite3.Connection, params: dict[str, str | None], within: str | None, limit: int
) -> list[Any]:
    """The `limit` best rows, scored on every term of the expression, among the matches that
    hold a term of `within` (None: among all matches)."""
    named = {**params, "within": within, "limit": limit}
    if params["types"] is None:
        return conn.execute(_BEST_MATCHES, named).fetchall()
    rows = conn.execute(_BEST_MATCHES_OF_TYPES, named).fetchall()
    if rows != sorted(rows, key=lambda r: (r[0], r[1])):  # pragma: no cover
        rows = conn.execute(_MATCHES_OF_TYPES_SORTED, named).fetchall()
    return rows


def _best_rows(conn: sqlite3.Connection, params: dict[str, str | None], limit: int) -> list[Any]:
    """The `limit` best matches of `params["expression"]`, as `_matches` returns them.

    A query matching thousands of rows is pruned (MaxScore, `storage.bm25`): the matches holding
    the rarest terms are scored first, on every term, and the `limit`-th score among them is a
    score the results reach; then only the matches holding a term whose bound could still beat
    it are scored. The rows are the same as scoring every match, in the same order.
    """
    expression = params["expression"]
    assert expression is not None
    phrases = expression.split(" OR ")
    counts = [int(conn.execute(_COUNT_MATCHES, (phrase,)).fetchone()[0]) for phrase in phrases]
    if sum(counts) <= PRUNE_ABOVE_ROWS:
        return _matches(conn, params, None, limit)
    total = int(conn.execute("SELECT count(*) FROM memory_fts_docs").fetchone()[0])
    present = sorted((n, p) for p, n in zip(phrases, counts, strict=True) if n)
    seed: list[str] = []
    seen = 0
    for n, phrase in present:
        seed.append(phrase)
        seen += n
        if seen >= SEED_ROWS_PER_RESULT * limit:
            break
    if len(seed) == len(present):
        return _matches(conn, params, None, limit)
    rows = _matches(conn, params, " OR ".join(seed), limit)
    if len(rows) < limit:
        return _matches(conn, params, None, limit)
    needed = essential_terms({p: upper_bound(total, n) for n, p in present}, -float(rows[-1][0]))
    if needed <= set(seed):
        return rows
    return _matches(conn, params, " OR ".join(p for p in phrases if p in needed), limit)


def ranked_rows(
    conn: sqlite3.Connection, project_id: str, expression: str, type_list: str | None, limit: int
) -> list[Any]:
    """The `limit` live memories best matching `expression`, of the types in `type_list` (a
    JSON list, or None for all), best first, on any connection (inside a write transaction it
    sees that transaction's rows); each row holds the bm25 score, the FTS rowid, then the
    memory's columns as `SELECT_MEMORY` reads them."""
    params = {"expression": expression, "types": type_list, "project": project_id}
    return _best_rows(conn, params, limit)


def ranked_matches(
    conn: sqlite3.Connection, project_id: str, expression: str, type_list: str | None, limit: int
) -> list[tuple[str, float]]:
    """`ranked_rows` as (memory_id, score), the score higher-is-better (`search_fts`)."""
    rows = ranked_rows(conn, project_id, expression, type_list, limit)
    return [(r[2], -float(r[0])) for r in rows]


class SqliteMemorySearch:
    """BM25 search over live memories (part of `SqliteStore`)."""

    project_id: str
    _db: SqliteDatabase
    _lexical: LexicalIndex | None

    async def search_fts(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[str, float]]:
        """Live memories matching `query` by BM25, best first, as (memory_id, score).

        Scores are SQLite's bm25() negated, so higher is better; with few rows, or a term in
        most rows, they can be 0. Column weights: key 2.0, content 1.0, tags 1.5.
        """
        found = await self.search_fts_memories(project_id, query, types, limit)
        return [(item.id, score) for item, score in found]

    async def search_fts_memories(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[MemoryItem, float]]:
        """`search_fts` with the memories themselves, read in the same query."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        terms = match_terms(query)
        if not terms:
            return []
        expression = " OR ".join(f'"{term}"' for term in terms)
        kinds = [str(check_type(t)) for t in types] if types else None
        type_list = to_json(kinds) if kinds else None
        lexical = self._lexical

        def read(conn: sqlite3.Connection) -> list[tuple[MemoryItem, float]]:
            conn.execute("BEGIN")  # one snapshot for the index's catch-up and the rows
            try:
                rows = (
                    lexical.ranked_rows(conn, project_id, terms, kinds, limit)
                    if lexical is not None
                    else None
                )
                if rows is None:
                    rows = ranked_rows(conn, project_id, expression, type_list, limit)
            finally:
                conn.execute("COMMIT")
            return [(memory_from_row(r[2:]), -float(r[0])) for r in rows]

        return await self._db.read(read)

    async def rebuild_search_index(self) -> int:
        """Rebuild `memory_fts` from the live memories; return how many were indexed."""

        def write(conn: sqlite3.Connection) -> int:
            conn.execute("DELETE FROM memory_fts")
            conn.execute("DELETE FROM memory_fts_docs")
            log_search_change(conn, SEARCH_RESET)
            rows = conn.execute(
                "SELECT id, type, key, content, tags FROM memory_items WHERE deleted = 0"
            ).fetchall()
            for memory_id, kind, key, content, tags in rows:
                index_memory_text(
                    conn,
                    memory_id,
                    kind=kind,
                    key=key,
                    content=content,
                    tags_json=tags,
                    logged=False,
                )
            return len(rows)

        return await self._db.write(write)
