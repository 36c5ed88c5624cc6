"""Full-text search over a project's memories (SQLite FTS5, BM25) with safe query building;
the query's words (`search_terms`) and the MaxScore pruning (`bm25.max_score`) are shared with
Postgres."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.storage.bm25 import max_score, upper_bound
from squirrel_memory.storage.checks import check_project
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.revisions import drive
from squirrel_memory.storage.search_terms import lexical_query, match_terms
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.fts_rows import (
    SEARCH_RESET,
    index_memory_text,
    log_search_change,
)
from squirrel_memory.storage.sqlite.lexical import LexicalIndex
from squirrel_memory.storage.sqlite.reads import (
    MEMORY_COLUMNS_OF_M,
    memories_of_docs,
    memory_from_row,
    read_memories,
)
from squirrel_memory.storage.sqlite.vocabulary import COLUMN_WEIGHTS

PRUNE_ABOVE_ROWS = 2_000
"""Queries whose terms match more rows than this (counted per term) are pruned (MaxScore);
below it, scoring every match costs less than the two extra reads."""
_COUNT_MATCHES = "SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?"


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


def _ranked(limit: str, *, of_types: bool = False) -> str:
    """The matches of `:expression` (with `of_types`, those of `:types` only), `limit` of them,
    scored and in rank order as `f` (bm25() is lower-is-better). The column weights are the ones
    the in-memory index scores with (`postings.COLUMN_WEIGHTS`: key 2, content 1, tags 1.5,
    type 0). Only the matches holding a term of `:within` (all matches when it is NULL) are
    scored; the unary + keeps FTS5 from looking each of them up again by rowid (`_best_rows`)."""
    weights = ", ".join(str(w) for w in COLUMN_WEIGHTS)
    types = " AND type IN (SELECT value FROM json_each(:types))" if of_types else ""
    return (
        "SELECT f.score, f.rowid, " + MEMORY_COLUMNS_OF_M + " FROM ("  # noqa: S608 (constants)
        f"  SELECT rowid, bm25(memory_fts, {weights}) AS score FROM memory_fts"
        f"  WHERE memory_fts MATCH :expression{types}"
        "  AND (:within IS NULL OR +rowid IN "
        "(SELECT rowid FROM memory_fts WHERE memory_fts MATCH :within)) "
        f"ORDER BY score, rowid LIMIT {limit}) AS f "
    )


# The memories of the ranked matches that are live and of this project, in rank order.
_LIVE_IN_RANK_ORDER = (
    "JOIN memory_fts_docs d ON d.doc_id = f.rowid "
    "JOIN memory_items m ON m.id = d.memory_id "
    "WHERE m.project_id = :project AND m.deleted = 0 "
    "ORDER BY f.score, f.rowid"
)
# The `limit` best matches of a project's live memories, best first.
_BEST_MATCHES = _ranked(":limit") + _LIVE_IN_RANK_ORDER
# The same among the memories of some types. FTS5 would read each match's stored row to test
# its UNINDEXED `type` column (most of the time of a query matching thousands of rows); here
# the matches are ranked first and the type is looked up for the best ones only, until `limit`
# pass. The CROSS JOINs keep the ranked matches in the outer loop, so rows come out in rank
# order (a test holds this); should a SQLite version ever return them otherwise, `search_fts`
# sees it and reads them again with `_MATCHES_OF_TYPES_SORTED`, FTS5's own filter.
_BEST_MATCHES_OF_TYPES = _ranked("-1") + (  # noqa: S608 (constants)
    "CROSS JOIN memory_fts_docs d CROSS JOIN memory_items m "
    "WHERE d.doc_id = f.rowid AND m.id = d.memory_id "
    "AND m.type IN (SELECT value FROM json_each(:types)) "
    "AND m.project_id = :project AND m.deleted = 0 "
    "LIMIT :limit"
)
_MATCHES_OF_TYPES_SORTED = _ranked(":limit", of_types=True) + _LIVE_IN_RANK_ORDER


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
    bounds = {p: upper_bound(total, n) for n, p in present}
    plan = max_score(present, bounds, limit, lambda row: -float(row[0]))
    return drive(
        plan,
        lambda terms: _matches(conn, params, None if terms is None else " OR ".join(terms), limit),
    )


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
        read = self._fts_read(project_id, query, types, limit)
        return await self._db.read(read) if read is not None else []

    async def found_with_lexical(
        self,
        find: Callable[[], Sequence[tuple[str, float]]],
        project_id: str,
        query: str,
        *,
        types: Sequence[MemoryType] | None,
        limit: int,
        on_lexical: Callable[[list[tuple[MemoryItem, float]]], None],
    ) -> tuple[list[tuple[str, float]], list[MemoryItem], list[tuple[MemoryItem, float]]]:
        """`found_memories(find)` and `search_fts_memories` at once, on two reader threads, the
        event loop woken once, when both are done. `on_lexical` gets the lexical hits on their
        reader as soon as they are read (while `find` may still run)."""
        search = self._fts_read(project_id, query, types, limit)
        rows = self._db.rows

        def lexical(conn: sqlite3.Connection) -> list[tuple[MemoryItem, float]]:
            found = search(conn) if search is not None else []
            on_lexical(found)
            return found

        def vector(conn: sqlite3.Connection) -> tuple[list[tuple[str, float]], list[MemoryItem]]:
            hits = list(find())
            return hits, read_memories(conn, rows, [m for m, _ in hits])

        (hits, items), found = await self._db.read_pair(vector, lexical)
        return hits, items, found

    def _fts_read(
        self, project_id: str, query: str, types: Sequence[MemoryType] | None, limit: int
    ) -> Callable[[sqlite3.Connection], list[tuple[MemoryItem, float]]] | None:
        """The read of `search_fts_memories` (None: the query has no searchable words)."""
        check_project(self.project_id, project_id)
        asked = lexical_query(query, types, limit)
        if asked is None:
            return None
        terms, kinds = asked.terms, asked.kinds
        expression = " OR ".join(f'"{term}"' for term in terms)
        type_list = to_json(kinds) if kinds else None
        lexical = self._lexical
        cache = self._db.rows

        def read(conn: sqlite3.Connection) -> list[tuple[MemoryItem, float]]:
            conn.execute("BEGIN")  # one snapshot for the index's catch-up and the rows
            try:
                generation = cache.begin(conn)
                ranked = (
                    lexical.ranked_docs(conn, terms, kinds, limit) if lexical is not None else None
                )
                found = (
                    None
                    if ranked is None
                    else memories_of_docs(
                        conn, cache, generation, ranked, project_id=project_id, kinds=kinds
                    )
                )
                if found is None:
                    rows = ranked_rows(conn, project_id, expression, type_list, limit)
                    found = [(memory_from_row(r[2:]), -float(r[0])) for r in rows]
            finally:
                conn.execute("COMMIT")
            return found

        return read

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
