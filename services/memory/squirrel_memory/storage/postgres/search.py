"""Lexical search over a project's memories on Postgres: a weighted `tsvector`, BM25-style ranks.

Documents and queries are cut into words the same way as on SQLite (`fts_text` splits
camelCase; every run of letters and digits is a word, so `src/app.py` is `src app py`), then
Postgres stems them (`english`). Ranking follows BM25: for each query term, its inverse document
frequency among the project's live memories times a saturated, length-normalised weight of its
occurrences weighted by column (key 2, tags 1.5, content 1, as SQLite's `bm25()` weighs them),
with BM25's constants (k1 1.2, b 0.75) and FTS5's idf, so the scores have the same scale on both
backends. Scores are higher-is-better, as the retriever expects from `search_fts`. Each search
reads the statistics first, in one statement: the project's live memories and their average
length (`search_totals`) and each term's count of live memories holding it (`search_words`),
kept by the database as memories change, so they are exact at every search.

Not every matching memory is scored (MaxScore over sets of words, `bm25.term_set_plan`): a
word can add at most idf x (k1 + 1) to a score, so above a threshold only the memories holding
every word of one of the sets whose bounds add up to more can score. A capped sample of the
memories holding the rarest sets gives the first threshold (the `limit`-th score among them),
then only the memories holding a set that could beat it are ranked. The results are the same
as scoring every match, but in a project of more than `APPROXIMATE_ABOVE` memories, where the
last pass takes the threshold times `THRESHOLD_FACTOR`.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from psycopg import AsyncConnection, sql

from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.storage.bm25 import K1, TermSets, idf, term_set_plan
from squirrel_memory.storage.checks import check_project
from squirrel_memory.storage.formats import fts_text, searchable_content, searchable_tags
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.schema import TS_CONFIG
from squirrel_memory.storage.postgres.search_words import read_statistics
from squirrel_memory.storage.revisions import drive_async
from squirrel_memory.storage.search_terms import lexical_query

_WORD = re.compile(r"[^\W_]+")
# tsvector positions stop at 16383 and a document at 1 MB; memories are at most 16,000 chars.
_MAX_DOCUMENT_CHARS = 64_000
_WEIGHTS = "{0.1, 0.5, 0.75, 1.0}"  # D, C (content), B (tags), A (key)
_B = 0.75
APPROXIMATE_ABOVE = 100_000
"""Live memories of a project past which the last pass's threshold is raised."""
THRESHOLD_FACTOR = 1.25
"""The threshold's factor in a project past `APPROXIMATE_ABOVE`: over 250,000 memories 1.25 and
1.5 gave the same top 10 as scoring every match for each of 56 queries and 2.0 did not
(docs/team.md)."""

_REINDEX = (
    "UPDATE memory_items SET search = setweight(to_tsvector('english', %s), 'A') || "
    "setweight(to_tsvector('english', %s), 'B') || setweight(to_tsvector('english', %s), 'C') "
    "WHERE id = %s"
)


def words(text: str) -> str:
    """`text` as the space-separated words the index holds."""
    return " ".join(_WORD.findall(fts_text(text)))[:_MAX_DOCUMENT_CHARS]


def search_fields(item: MemoryItem) -> tuple[str, str, str]:
    """The three texts of `SEARCH_VECTOR` for one memory: key, tags, content."""
    tags = " ".join(searchable_tags(item.tags))
    return words(item.key), words(tags), words(searchable_content(item.content))


def _term_score(n: int, idf: float, avg_length: float) -> sql.Composable:
    """Term `n`'s share of the score: idf x saturated, length-normalised weighted frequency.

    The weighted frequency `f{n}` is `ts_rank_cd` of the term alone (its occurrences times
    their column weight) doubled, as Postgres caps weights at 1: key 2, tags 1.5, content 1,
    as on SQLite, so the scores have BM25's scale and the retriever's saturation fits both.
    """
    f = sql.Identifier(f"f{n}")
    return sql.SQL(
        "{idf} * ({f} * {k1p}) / ({f} + {k1} * (1 - {b} + {b} * length(m.search) / {avg}))"
    ).format(
        idf=sql.Literal(idf),
        f=f,
        k1p=sql.Literal(K1 + 1),
        k1=sql.Literal(K1),
        b=sql.Literal(_B),
        avg=sql.Literal(max(avg_length, 1.0)),
    )


def _upper_bound(stats: SearchStats, term: str) -> float:
    """The most term `term` can add to a score: its idf x (k1 + 1), the limit of the saturation."""
    return idf(stats.total, stats.doc_freq[term]) * (K1 + 1)


@dataclass(frozen=True, slots=True)
class SearchStats:
    """BM25's collection statistics of one project for one search, read at that search
    (`search_words.read_statistics`): live memories, their average length, each term's count
    of live memories holding it and its tsquery as Postgres stemmed it ('' for a stop word),
    used as a constant so the ranking does not stem the word again for every row."""

    total: int
    avg_length: float
    doc_freq: dict[str, int]
    lexemes: dict[str, str]


async def count_from_index(
    conn: AsyncConnection, project_id: str, queries: Mapping[str, str]
) -> dict[str, int]:
    """The live memories matching each tsquery text, counted from the full-text index (for a
    term Postgres cuts into several lexemes, which no single word's count answers)."""
    terms = list(queries)
    statement = sql.SQL(
        "SELECT {counts} FROM memory_items WHERE project_id = {project} "
        "AND NOT deleted AND search @@ ({any_term})"
    ).format(
        counts=sql.SQL(", ").join(
            sql.SQL("COUNT(*) FILTER (WHERE search @@ {q}::tsquery)").format(
                q=sql.Literal(queries[t])
            )
            for t in terms
        ),
        project=sql.Literal(project_id),
        any_term=sql.SQL(" || ").join(
            sql.SQL("{q}::tsquery").format(q=sql.Literal(queries[t])) for t in terms
        ),
    )
    cursor = await conn.execute(statement)
    row = await cursor.fetchone()
    return dict(zip(terms, (int(n) for n in row or ()), strict=True))


class PostgresMemorySearch:
    """BM25-style search over live memories (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase

    if TYPE_CHECKING:  # provided by `PostgresMemoryBook` in `PostgresStore`

        async def get_memories(self, memory_ids: Sequence[str]) -> list[MemoryItem]: ...

        async def found_memories(
            self, find: Callable[[], Sequence[tuple[str, float]]]
        ) -> tuple[list[tuple[str, float]], list[MemoryItem]]: ...

    @asynccontextmanager
    async def _on(self, conn: AsyncConnection | None) -> AsyncIterator[AsyncConnection]:
        """`conn` (inside the caller's transaction), or a pooled one in a transaction."""
        if conn is not None:
            yield conn
            return
        async with self._db.transaction() as fresh:
            yield fresh

    async def _stats_for(
        self, terms: Sequence[str], conn: AsyncConnection | None = None
    ) -> SearchStats:
        """The project's statistics and `terms`' counts, read now (on `conn` if given)."""
        async with self._on(conn) as on:
            total, avg_length, counts = await read_statistics(on, self.project_id, terms, TS_CONFIG)
            several = {t: c.query for t, c in counts.items() if c.docs is None}
            counted = await count_from_index(on, self.project_id, several) if several else {}
        doc_freq = {t: counted[t] if c.docs is None else c.docs for t, c in counts.items()}
        return SearchStats(total, avg_length, doc_freq, {t: c.query for t, c in counts.items()})

    async def search_fts(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[str, float]]:
        """Live memories matching any word of `query`, best first, as (memory_id, score)."""
        check_project(self.project_id, project_id)
        return await self._search(query, types, limit)

    async def _search(
        self,
        query: str,
        types: Sequence[MemoryType] | None,
        limit: int,
        conn: AsyncConnection | None = None,
    ) -> list[tuple[str, float]]:
        """`search_fts` on `conn` (which sees its transaction's rows) or a pooled connection."""
        asked = lexical_query(query, types, limit)
        if asked is None:
            return []
        terms, kinds = asked.terms, asked.kinds
        stats = await self._stats_for(terms, conn)
        found = [
            (term, sql.SQL("{text}::tsquery").format(text=sql.Literal(stats.lexemes[term])))
            for term in terms
            if stats.doc_freq.get(term, 0) > 0 and stats.lexemes.get(term)
        ]
        if not found:
            return []
        ranked = sorted(found, key=lambda item: stats.doc_freq[item[0]])
        present = [(stats.doc_freq[term], term) for term, _ in ranked]
        bounds = {term: _upper_bound(stats, term) for term, _ in found}
        query_of = dict(found)

        async def rank(step: TermSets) -> tuple[list[tuple[str, float]], bool]:
            sets = [(t,) for t, _ in found] if step.sets is None else step.sets
            matching = sql.SQL(" || ").join(
                sql.SQL("({})").format(sql.SQL(" && ").join(query_of[t] for t in terms))
                for terms in sets
            )
            return await self._ranked(stats, found, matching, kinds, limit, cap=step.cap, conn=conn)

        factor = THRESHOLD_FACTOR if stats.total > APPROXIMATE_ABOVE else 1.0
        plan = term_set_plan(
            present, bounds, stats.total, limit, lambda row: float(row[1]), overestimate=factor
        )
        return await drive_async(plan, rank)

    async def search_fts_memories(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[MemoryItem, float]]:
        """`search_fts` with the memories themselves (a hit deleted meanwhile is left out)."""
        hits = await self.search_fts(project_id, query, types, limit)
        found = {m.id: m for m in await self.get_memories([m for m, _ in hits])}
        return [(found[m], score) for m, score in hits if m in found]

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
        """`found_memories(find)` and `search_fts_memories` at once, `on_lexical` called as soon
        as the lexical hits are read."""

        async def lexical() -> list[tuple[MemoryItem, float]]:
            found = await self.search_fts_memories(project_id, query, types, limit)
            on_lexical(found)
            return found

        (hits, items), found = await asyncio.gather(self.found_memories(find), lexical())
        return hits, items, found

    async def _ranked(
        self,
        stats: SearchStats,
        found: Sequence[tuple[str, sql.Composable]],
        matching: sql.Composable,
        kinds: list[str] | None,
        limit: int,
        *,
        cap: int | None,
        conn: AsyncConnection | None = None,
    ) -> tuple[list[tuple[str, float]], bool]:
        """The best `limit` live memories among those matching the tsquery `matching` (at
        most `cap` of them, None: all), scored on every term of `found`; and whether every
        memory matching was scored."""
        statement = sql.SQL(
            "WITH c AS MATERIALIZED (SELECT m.id, m.search FROM memory_items m "
            "WHERE m.project_id = {project} AND NOT m.deleted AND m.search @@ ({matching}) "
            "AND ({kinds}::text[] IS NULL OR m.type = ANY({kinds})) LIMIT {cap}) "
            "SELECT m.id, {score} AS score, (SELECT count(*) FROM c) FROM c m "
            "CROSS JOIN LATERAL (SELECT {weights}) f ORDER BY score DESC, m.id LIMIT {limit}"
            if cap is not None
            else "SELECT m.id, {score} AS score, NULL FROM memory_items m "
            "CROSS JOIN LATERAL (SELECT {weights}) f "
            "WHERE m.project_id = {project} AND NOT m.deleted AND m.search @@ ({matching}) "
            "AND ({kinds}::text[] IS NULL OR m.type = ANY({kinds})) "
            "ORDER BY score DESC, m.id LIMIT {limit}"
        ).format(
            score=sql.SQL(" + ").join(
                _term_score(n, idf(stats.total, stats.doc_freq[term]), stats.avg_length)
                for n, (term, _) in enumerate(found)
            ),
            weights=sql.SQL(", ").join(
                sql.SQL("2 * ts_rank_cd({w}::float4[], m.search, {q}, 0) AS {f}").format(
                    w=sql.Literal(_WEIGHTS), q=q, f=sql.Identifier(f"f{n}")
                )
                for n, (_, q) in enumerate(found)
            ),
            project=sql.Literal(self.project_id),
            matching=matching,
            kinds=sql.Literal(kinds),
            limit=sql.Literal(limit),
            cap=sql.Literal(cap),
        )
        async with self._on(conn) as on:
            cursor = await on.execute(statement)
            rows = await cursor.fetchall()
        complete = cap is None or not rows or int(rows[0][2]) < cap
        return [(str(r[0]), float(r[1])) for r in rows], complete

    async def rebuild_search_index(self) -> int:
        """Recompute `search` of every live memory of the project; return how many."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "SELECT id, key, tags, content FROM memory_items "
                "WHERE project_id = %s AND NOT deleted",
                (self.project_id,),
            )
            rows = await cursor.fetchall()
            async with conn.cursor() as update:
                await update.executemany(
                    _REINDEX,
                    [(words(r[1]), words(" ".join(r[2])), words(r[3]), r[0]) for r in rows],
                )
        return len(rows)
