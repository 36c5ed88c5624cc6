"""`bench.team_scale`'s check of the text search's statistics on a loaded project: their
re-read from the kept totals (`memory_search_totals`, one row) against counting every live
memory (what each re-read did before), each timed `rounds` times in turn, the numbers compared;
then every query's `search_fts` top 10 with the statistics taken from each, compared."""

from __future__ import annotations

import time
from collections.abc import Sequence

from bench.common import Figure, percentile
from squirrel_memory.storage import Store
from squirrel_memory.storage.postgres.search_totals import read_totals

_COUNTED = (
    "SELECT COUNT(*), COALESCE(AVG(length(search)), 1) FROM memory_items "
    "WHERE project_id = %s AND NOT deleted"
)


async def statistics_figures(
    store: Store, section: str, queries: Sequence[str], rounds: int = 5
) -> list[Figure]:
    """Latency of both re-reads, whether they agree, and how many top 10s are the same."""
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
            kept = await read_totals(conn, store.project_id)
            kept_ms.append((time.perf_counter() - started) * 1000)
    same = 0
    for query in queries:
        tops = []
        for total, avg_length in (counted, kept):
            stats = store._search_stats  # type: ignore[attr-defined]
            store._search_stats = stats.renewed(time.monotonic(), total, avg_length)  # type: ignore[attr-defined]
            tops.append(await store.search_fts(store.project_id, query, limit=10))
        same += tops[0] == tops[1]
    note = f"n={rounds}"
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
        Figure(
            section, "search_fts top 10 the same with either", same, "queries", f"of {len(queries)}"
        ),
    ]
