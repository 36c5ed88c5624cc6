"""`bench.team_scale`'s check of the text search's statistics on a loaded project: their
re-read from the kept totals (`memory_search_totals`, one row) against counting every live
memory (what each re-read did before), each timed `rounds` times in turn, the numbers compared;
then each query's words' counts read from the kept rows (`memory_search_words`, with the
totals, as a search reads them) against counted from the full-text index (what a search did
for a word it had not counted yet), timed and compared.

`search_figures`: each query's `search_fts` top 10 cold (the store's statistics dropped first,
so its words' counts are read again) and warm (the same query again), p50 / p95, and a digest
of every query's scores (two runs over the same memories ranked alike when their digests are
equal). `write_figures`: memories written through the store into the loaded project, 500 per
transaction (rows/s) and one per transaction (p50 / p95), what the full-text statistics kept
by the database cost a write."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence

from bench.common import Figure, MemoryGenerator, percentile
from squirrel_memory.models import UpdateAction, UpdateDecision
from squirrel_memory.storage import Store
from squirrel_memory.storage.postgres.schema import TS_CONFIG
from squirrel_memory.storage.postgres.search import count_from_index
from squirrel_memory.storage.postgres.search_words import read_statistics
from squirrel_memory.storage.search_terms import match_terms

_COUNTED = (
    "SELECT COUNT(*), COALESCE(AVG(length(search)), 1) FROM memory_items "
    "WHERE project_id = %s AND NOT deleted"
)


async def statistics_figures(
    store: Store, section: str, queries: Sequence[str], rounds: int = 5
) -> list[Figure]:
    """Latency of both re-reads of the totals and whether they agree; each query's words
    counted from the full-text index against read from the kept rows, timed, compared."""
    database = store.database  # type: ignore[attr-defined]
    counted_ms: list[float] = []
    kept_ms: list[float] = []
    counted = kept = (0, 0.0)
    for _ in range(rounds):
        async with database.transaction() as conn:
            started = time.perf_counter()
            cursor = await conn.execute(_COUNTED, (store.project_id,))
            row = await cursor.fetchone()
            counted_ms.append((time.perf_counter() - started) * 1000)
            counted = (int(row[0]), float(row[1]))
            started = time.perf_counter()
            total, average, _ = await read_statistics(conn, store.project_id, [], TS_CONFIG)
            kept = (total, average)
            kept_ms.append((time.perf_counter() - started) * 1000)
    words_counted: list[float] = []
    words_kept: list[float] = []
    terms = equal = 0
    for query in queries:
        asked = match_terms(query)
        async with database.transaction() as conn:
            started = time.perf_counter()
            _, _, counts = await read_statistics(conn, store.project_id, asked, TS_CONFIG)
            words_kept.append((time.perf_counter() - started) * 1000)
            lexemes = {t: c.query for t, c in counts.items() if c.query}
            started = time.perf_counter()
            by_index = await count_from_index(conn, store.project_id, lexemes)
            words_counted.append((time.perf_counter() - started) * 1000)
        terms += len(lexemes)
        equal += sum(by_index[t] == counts[t].docs for t in lexemes)
    note = f"n={rounds}"
    words_note = f"n={len(queries)} queries"
    return [
        Figure(
            section,
            "statistics re-read: counting every live memory p50",
            percentile(counted_ms, 50),
            "ms",
            note,
        ),
        Figure(
            section,
            "statistics re-read: the kept totals row p50",
            percentile(kept_ms, 50),
            "ms",
            note,
        ),
        Figure(
            section,
            "statistics: kept totals equal the count",
            float(kept == counted),
            "bool",
            f"{kept[0]:,} memories",
        ),
        *(
            Figure(section, f"word counts: {label} p{q}", percentile(ms, q), "ms", words_note)
            for label, ms in (
                ("counted from the full-text index", words_counted),
                ("the kept rows (with the totals)", words_kept),
            )
            for q in (50, 95)
        ),
        Figure(section, "word counts: kept equal the count", equal, "words", f"of {terms}"),
    ]


async def search_figures(store: Store, section: str, queries: Sequence[str]) -> list[Figure]:
    """`search_fts` top 10 of each query cold then warm; the digest of every query's scores."""
    cold: list[float] = []
    warm: list[float] = []
    scores: list[list[str]] = []
    for query in queries:
        stats = getattr(store, "_search_stats", None)  # a cache of them in the process
        if stats is not None:
            store._search_stats = type(stats)()  # type: ignore[attr-defined]
        started = time.perf_counter()
        hits = await store.search_fts(store.project_id, query, limit=10)
        cold.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        again = await store.search_fts(store.project_id, query, limit=10)
        warm.append((time.perf_counter() - started) * 1000)
        assert [s for _, s in again] == [s for _, s in hits], query
        scores.append([f"{s:.6f}" for _, s in hits])
    digest = hashlib.sha256(repr(scores).encode()).hexdigest()[:12]
    note = f"n={len(queries)}"
    figures = [
        Figure(section, f"search_fts top 10, {label} p{q}", percentile(millis, q), "ms", note)
        for label, millis in (("cold", cold), ("warm", warm))
        for q in (50, 95)
    ]
    found = sum(len(s) for s in scores)
    figures.append(Figure(section, "search_fts top 10 scores", found, "hits", f"digest {digest}"))
    return figures


async def write_figures(
    store: Store, section: str, first: int, batches: int = 4, singles: int = 200
) -> list[Figure]:
    """Memories written through the store: `batches` of 500 per transaction, then `singles`
    one per transaction."""
    generator = MemoryGenerator(first)

    def decisions(start: int, count: int) -> list[UpdateDecision]:
        return [
            UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(start + n))
            for n in range(count)
        ]

    started = time.perf_counter()
    for b in range(batches):
        await store.apply_processing_result(
            [], decisions(first + b * 500, 500), [], user_id="bench"
        )
    batched = batches * 500 / (time.perf_counter() - started)
    single: list[float] = []
    for n in range(singles):
        one = decisions(first + batches * 500 + n, 1)
        started = time.perf_counter()
        await store.apply_processing_result([], one, [], user_id="bench")
        single.append((time.perf_counter() - started) * 1000)
    return [
        Figure(section, "write 500 memories per transaction", batched, "rows/s", f"n={batches}"),
        *(
            Figure(section, f"write one memory per transaction p{q}", percentile(single, q), "ms")
            for q in (50, 95)
        ),
    ]
