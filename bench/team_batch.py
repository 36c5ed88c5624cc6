"""What a batch of 500 new memories costs on Postgres, part by part, at growing sizes.

For one project at each of `--sizes` memories (loaded with `COPY`, `team_copy`, the indexes
built after, then vacuumed and analysed, as a restored database is), `--rounds` batches of 500
new memories are written as the store writes them (`memories._insert_all`: one multi-row
`INSERT`, then the CREATED history rows, one transaction). Each batch's `INSERT` runs under
`EXPLAIN (ANALYZE, BUFFERS, WAL)`, which writes the rows as the statement alone would and says
how long the statement took, each trigger's share, the buffers it touched and the WAL it
wrote; the history rows and the commit are timed beside it. Each round writes one batch with
each of `--variants` in turn (in one run, so the load is the same for both):

- `now`: the schema and the statements as the product makes them;
- `history-one`: the history rows in one multi-row `INSERT` too (the store sends them one
  `INSERT` each, pipelined);
- `gin-off`: the three GIN indexes of `memory_items` with `fastupdate = off` (every entry
  goes straight into its tree);
- `pending-16mb`: their pending list four times the default (`gin_pending_list_limit`).

The GIN indexes' pages are counted before and after each batch (their pending lists are
pages of them; one batch in a few moves its list into the tree). With `--vectors`, the HNSW
index (the product's graph) is built after the load and each batch's 500 vectors are then
written through the store's vector index (`PgVectorIndex.upsert`, one transaction), timed,
with the index's blocks read from outside `shared_buffers` and found in it
(`pg_statio_user_indexes`): what the graph's growth costs a vector. Then each query of the
bench's set is searched (`search_fts`, top 10) and the digest of every query's scores printed,
to show the variants rank alike.

Run: nice -n 10 .venv/bin/python -m bench.team_batch [--sizes 10000,100000] [--rounds 6]
[--variants now,gin-off]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import structlog
from psycopg.adapt import PyFormat, Transformer

from bench.common import Figure, percentile, print_table, progress
from bench.memory_text import MemoryGenerator
from bench.postgres_server import (
    hnsw_built_after,
    local_postgres,
    secondary_indexes_built_after,
)
from bench.storage_backends import QUERIES
from bench.team_copy import CopyBatches, HashingVectors, planned_inserts
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.models import UpdateAction, UpdateDecision
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import PostgresBackend, Store
from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.memory_plans import Insert
from squirrel_memory.storage.memory_sql import insert_writes, statements
from squirrel_memory.storage.postgres.memories import rows_at_once
from squirrel_memory.storage.postgres.search import search_fields

_SQL = statements(POSTGRES)
_GIN = ("memory_items_search", "memory_items_paths", "memory_items_sources")
_GIN_DEFAULT = "fastupdate = on, gin_pending_list_limit = 4096"
_VARIANTS = {
    "now": _GIN_DEFAULT,
    "history-one": _GIN_DEFAULT,
    "gin-off": "fastupdate = off",
    "pending-16mb": "fastupdate = on, gin_pending_list_limit = 16384",
}


def _set_variant(conn: Any, variant: str) -> None:
    for index in _GIN:
        conn.execute(f"ALTER INDEX {index} SET ({_VARIANTS[variant]})")


def _graph_blocks(conn: Any) -> tuple[float, float]:
    """Blocks of the HNSW index read from outside Postgres's cache, and found in it, so far."""
    row = conn.execute(
        "SELECT COALESCE(sum(idx_blks_read), 0), COALESCE(sum(idx_blks_hit), 0) "
        "FROM pg_statio_user_indexes WHERE indexrelname LIKE 'memory_vectors_hnsw_%'"
    ).fetchone()
    return float(row[0]), float(row[1])


def _history(cursor: Any, writes: Sequence[Any], at_once: bool) -> None:
    """The batch's CREATED history rows: one `INSERT` each, pipelined (the store's), or one
    multi-row `INSERT` (its `ON CONFLICT` clause after the last row)."""
    rows = [w[1][1] for w in writes]
    if not at_once:
        cursor.executemany(writes[0][1][0], rows)
        return
    sql = writes[0][1][0]
    row, tail = sql.split(" ON CONFLICT ", 1)
    many = rows_at_once(row, len(rows)) + " ON CONFLICT " + tail
    cursor.execute(many, [v for r in rows for v in r])


def _gin_pages(conn: Any) -> int:
    """Pages of the three GIN indexes (their pending lists included)."""
    names = ", ".join(f"'{i}'" for i in _GIN)
    row = conn.execute(
        f"SELECT sum(pg_relation_size(c.oid)) / 8192 FROM pg_class c WHERE relname IN ({names})"
    ).fetchone()
    return int(row[0])


def _batch(conn: Any, inserts: Sequence[Insert], history_at_once: bool) -> dict[str, float]:
    """One batch as the store writes it, its `INSERT` explained; the parts in ms and bytes."""
    writes = [
        insert_writes(POSTGRES, _SQL, s.item, s.reason, search_fields(s.item)) for s in inserts
    ]
    sql = rows_at_once(writes[0][0][0], len(writes))
    values = [value for w in writes for value in w[0][1]]
    started = time.perf_counter()
    Transformer(conn).dump_sequence(values, [PyFormat.AUTO] * len(values))
    adapted = (time.perf_counter() - started) * 1000
    gin_before = _gin_pages(conn)
    wal_before = conn.execute("SELECT pg_current_wal_insert_lsn()").fetchone()[0]
    started = time.perf_counter()
    with conn.transaction():
        plan = conn.execute(
            "EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) " + sql, values
        ).fetchone()[0]
        explained = time.perf_counter()
        gin = _gin_pages(conn)
        listed = time.perf_counter()
        with conn.cursor() as cursor:
            _history(cursor, writes, history_at_once)
        history = time.perf_counter()
    committed = time.perf_counter()
    wal = conn.execute(
        "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), %s)", (wal_before,)
    ).fetchone()[0]
    top = plan[0] if isinstance(plan, list) else json.loads(plan)[0]
    node = top["Plan"]
    triggers = {t["Trigger Name"]: float(t["Time"]) for t in top.get("Triggers", [])}
    words = sum(v for k, v in triggers.items() if k.startswith("memory_search_words"))
    totals = sum(v for k, v in triggers.items() if k.startswith("memory_search_totals"))
    execution = float(top["Execution Time"])
    return {
        "insert statement": execution,
        "insert rows and indexes": execution - sum(triggers.values()),
        "word-count trigger": words,
        "totals trigger": totals,
        "planning": float(top.get("Planning Time", 0)),
        "parameters adapted (client)": adapted,
        "insert call (planning, parameters, execution)": (explained - started) * 1000,
        "history rows": (history - listed) * 1000,
        "commit": (committed - history) * 1000,
        "transaction": (committed - started - (listed - explained)) * 1000,
        "statement WAL": float(node.get("WAL Bytes", 0)) / 1024,
        "transaction WAL": float(wal) / 1024,
        "buffers dirtied": float(node.get("Shared Dirtied Blocks", 0)),
        "buffers read": float(node.get("Shared Read Blocks", 0)),
        "GIN pages grown": float(gin - gin_before),
    }


_UNITS = {"statement WAL": "KiB", "transaction WAL": "KiB"}


async def _digest(store: Store) -> str:
    scores = []
    for query in (f"{q} {n}" for n, q in enumerate(QUERIES * 4)):
        hits = await store.search_fts(store.project_id, query, limit=10)
        scores.append([f"{m}:{s:.6f}" for m, s in hits])
    return hashlib.sha256(repr(scores).encode()).hexdigest()[:12]


async def loaded_project(
    base_dsn: str, root: Path, name: str, size: int, graph: bool = False
) -> tuple[PostgresBackend, Store, str]:
    """A new database `name` holding one project of `size` memories and their vectors, loaded
    with `COPY` (the indexes but the HNSW one built after), vacuumed and analysed; its backend
    (to close), the project's store and the database's DSN. `graph`: the HNSW index is built
    after the load (else there is none)."""
    import psycopg  # noqa: PLC0415
    from pgvector.psycopg import register_vector  # noqa: PLC0415
    from psycopg.conninfo import make_conninfo  # noqa: PLC0415

    with psycopg.connect(base_dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    dsn = make_conninfo(base_dsn, dbname=name)
    backend = PostgresBackend(dsn, pool_size=2)
    folder = root / name
    folder.mkdir(parents=True)
    store = await backend.open_store(str(folder), None)
    embedder = FakeEmbedder(dim=384)
    started = time.perf_counter()
    with (
        hnsw_built_after(dsn, 384) if graph else nullcontext(),
        secondary_indexes_built_after(dsn),
        psycopg.connect(dsn) as conn,
    ):
        register_vector(conn)
        batches = CopyBatches(
            conn, HashingVectors(384), embedder.model_id, time.monotonic() + 3600, 10_000, name
        )
        await batches.add(store, size, 0)
        await batches.flush()
        await batches.sent()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    progress(name, f"loaded {size:,} in {time.perf_counter() - started:.0f} s")
    return backend, store, dsn


async def scenario(base_dsn: str, root: Path, size: int, args: argparse.Namespace) -> list[Figure]:
    import psycopg  # noqa: PLC0415

    name = f"batch_{size}"
    backend, store, dsn = await loaded_project(base_dsn, root, name, size, args.vectors)
    hashing = HashingVectors(384)
    vectors = None
    if args.vectors:
        vectors = (
            await asyncio.to_thread(store.open_vector_index, 384, FakeEmbedder(dim=384).model_id)
        )[0]
    section = f"1 x {size:,}"
    figures: list[Figure] = []
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            variants = [v for v in args.variants.split(",") if v]
            parts: dict[str, dict[str, list[float]]] = {v: {} for v in variants}
            digests: dict[str, str] = {}
            generator = MemoryGenerator(size)
            n = size
            for _ in range(args.rounds):
                for variant in variants:
                    _set_variant(conn, variant)
                    decisions = [
                        UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(n + k))
                        for k in range(500)
                    ]
                    n += 500
                    inserts = await planned_inserts(store, decisions, "bench", datetime.now(UTC))
                    batch = _batch(conn, inserts, variant == "history-one")
                    if vectors is not None:
                        embedded = hashing.embed([embedding_text(s.item) for s in inserts])
                        rows = [(s.item.id, embedded[k]) for k, s in enumerate(inserts)]
                        read, hit = _graph_blocks(conn)
                        started = time.perf_counter()
                        await asyncio.to_thread(vectors.upsert, rows)
                        batch["500 vectors upserted (HNSW)"] = (
                            time.perf_counter() - started
                        ) * 1000
                        await asyncio.sleep(
                            0.5
                        )  # the writer's statistics reach the server once idle
                        read_after, hit_after = _graph_blocks(conn)
                        batch["HNSW blocks read (not in shared_buffers)"] = read_after - read
                        batch["HNSW blocks found in shared_buffers"] = hit_after - hit
                    for part, value in batch.items():
                        parts[variant].setdefault(part, []).append(value)
                    progress(
                        name, f"{variant}: " + ", ".join(f"{k} {v:.0f}" for k, v in batch.items())
                    )
            for variant in variants:
                _set_variant(conn, variant)
                digests[variant] = await _digest(store)
            _set_variant(conn, "now")
        progress(name, f"{args.rounds} rounds of {len(variants)} batches written")
        for variant in variants:
            note = f"n={args.rounds}, {variant}"
            for part, values in parts[variant].items():
                unit = _UNITS.get(
                    part,
                    "blocks" if "blocks" in part or "buffers" in part or "pages" in part else "ms",
                )
                for q in (50, 95):
                    figures.append(
                        Figure(section, f"{part} p{q}", percentile(values, q), unit, note)
                    )
            rate = [500 / (ms / 1000) for ms in parts[variant]["transaction"]]
            figures.append(
                Figure(section, "500 per transaction p50", percentile(rate, 50), "rows/s", note)
            )
            figures.append(
                Figure(section, "search_fts top 10 digest", 0, "", f"{digests[variant]}, {variant}")
            )
    finally:
        await backend.close()
    return figures


Scenario = Callable[[str, Path, int, argparse.Namespace], Awaitable[list[Figure]]]


def run_sizes(args: argparse.Namespace, scenario: Scenario) -> None:
    """`scenario` for each of `args.sizes` on one Postgres (`--postgres-dsn`, or one started for
    the run), quiet logs; prints the load average at start and end, then the figures."""
    args.backend = "postgres"
    logging.disable(logging.WARNING)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    load = os.getloadavg()

    async def every_size(root: Path) -> list[Figure]:
        figures: list[Figure] = []
        for size in (int(s) for s in args.sizes.split(",") if s):
            figures += await scenario(args.postgres_dsn, root, size, args)
        return figures

    with tempfile.TemporaryDirectory() as tmp, local_postgres(args) as dsn:
        args.postgres_dsn = dsn
        figures = asyncio.run(every_size(Path(tmp).resolve()))
    print(
        f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; now: "
        + " ".join(f"{v:.2f}" for v in os.getloadavg())
    )
    print_table(figures)


def main(argv: list[str] | None = None) -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", default="10000,100000", help="memories in the project")
    options.add_argument("--rounds", type=int, default=6)
    options.add_argument("--variants", default="now,history-one", help=", ".join(_VARIANTS))
    options.add_argument(
        "--vectors", action="store_true", help="build the HNSW index; time each batch's vectors"
    )
    options.add_argument("--postgres-dsn", default="")
    run_sizes(options.parse_args(argv), scenario)


if __name__ == "__main__":
    main()
