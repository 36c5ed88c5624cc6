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
transaction (rows/s) and one per transaction (p50 / p95), with the triggers that keep the
words' counts and, in turn, without them: what they cost a write."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence

from bench.common import Figure, percentile
from bench.memory_text import MemoryGenerator
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


async def _word_triggers(store: Store, on: bool) -> bool:
    """Switch the triggers that keep the words' counts on or off (a benchmark's shortcut, to
    price them in one run); False when the schema has none."""
    database = store.database  # type: ignore[attr-defined]
    async with database.transaction() as conn:
        cursor = await conn.execute("SELECT to_regclass('memory_search_words') IS NOT NULL")
        row = await cursor.fetchone()
        if not row or not row[0]:
            return False
        for event in ("insert", "update", "delete"):
            await conn.execute(
                f"ALTER TABLE memory_items {'ENABLE' if on else 'DISABLE'} "
                f"TRIGGER memory_search_words_{event}"
            )
    return True


async def write_figures(
    store: Store, section: str, first: int, rounds: int = 3, singles: int = 50
) -> list[Figure]:
    """Memories written through the store, `rounds` times: 500 in one transaction, then
    `singles` one per transaction. Where the schema keeps the words' counts, each round is
    written twice in turn, with their triggers and without (then switched back on; the counts
    of the memories written without them are then wrong, so this runs last)."""
    generator = MemoryGenerator(first)
    ways = (True, False) if await _word_triggers(store, True) else (True,)
    batched: dict[bool, list[float]] = {way: [] for way in ways}
    single: dict[bool, list[float]] = {way: [] for way in ways}
    n = first
    try:
        for _ in range(rounds):
            for way in ways:
                await _word_triggers(store, way)
                decisions = [
                    UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(n + k))
                    for k in range(500)
                ]
                n += 500
                started = time.perf_counter()
                await store.apply_processing_result([], decisions, [], user_id="bench")
                batched[way].append(500 / (time.perf_counter() - started))
                for _ in range(singles):
                    one = [UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(n))]
                    n += 1
                    started = time.perf_counter()
                    await store.apply_processing_result([], one, [], user_id="bench")
                    single[way].append((time.perf_counter() - started) * 1000)
    finally:
        await _word_triggers(store, True)
    figures = []
    for way in ways:
        label = "" if len(ways) == 1 else (", word triggers on" if way else ", word triggers off")
        figures.append(
            Figure(
                section,
                f"write 500 memories per transaction{label} p50",
                percentile(batched[way], 50),
                "rows/s",
                f"n={rounds}",
            )
        )
        figures += [
            Figure(
                section,
                f"write one memory per transaction{label} p{q}",
                percentile(single[way], q),
                "ms",
                f"n={len(single[way])}",
            )
            for q in (50, 95)
        ]
    return figures
