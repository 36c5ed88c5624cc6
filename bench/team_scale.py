"""A team server's storage at scale, on a real Postgres with pgvector (started from the wheel).

For one project at each of `--sizes` memories, and for `--projects` projects of
`--per-project` memories each (every project in one database, as a team server keeps them):
lexical search (`search_fts`, top 10) and vector search (top 10, the HNSW index with
pgvector's iterative scans, as the server searches) p50 / p95 / p99; the same vector queries
answered exactly (index scans off) and the HNSW answers' recall@10 against them, also for each
`--ef-search` value (`storage.postgres_ef_search`); the text search's statistics read from
the kept rows against counted (the totals over every live memory, each query's words from the
full-text index), `search_fts` cold and warm with a digest of every query's scores, and writes
through the store with the word-count triggers and without (`team_stats`);
the server's own search (`Retriever.search`,
top 10) and task context (`TaskContextBuilder.build`, 400 tokens) in process, p50 / p95 / p99;
the HNSW index's build time after the load (with `--hnsw-m` / `--ef-construction`, the
product's 16 / 128 by default, as it builds it); the database's and the vectors' size on disk.
Memories are the product's rows loaded with `COPY` (`team_copy`: the store's own write plan
makes them, `COPY` sends them, one connection for the whole load, `--batch` memories per
transaction across projects, each sent on a thread while the next is planned; the first
`--check` of the first projects are read back through the store and compared), or, with
`--loader store`, written through the `Store` contract, 500 per transaction. Vectors are the
deterministic hashing embedder's (384 dimensions), so the figures are storage, not the model.
The HNSW index is dropped during the load and built once after it (`hnsw_built_after`), and
with `COPY` so are the other indexes of the loaded tables (`secondary_indexes_built_after`: the
three GIN indexes and two b-trees of `memory_items`, the project index of `memory_vectors`), as
after a restore. Each scenario stops loading at `--load-seconds` (default 900) and says how
many it loaded; a line on stderr marks each phase's end.

Run: .venv/bin/python -m bench.team_scale [--sizes 2000,10000] [--projects 100]
[--per-project 100] [--queries 200] [--ef-search 40,100,400] [--loader copy|store] [--batch 10000]
[--hnsw-m 16] [--ef-construction 64] [--load-seconds 900]
(a company's size: --sizes 1000000 --projects 10000)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import structlog

from bench.common import Figure, percentile, print_table, progress
from bench.memory_text import MemoryGenerator
from bench.postgres_server import hnsw_built_after, local_postgres, secondary_indexes_built_after
from bench.storage_backends import QUERIES
from bench.team_copy import CopyBatches, HashingVectors, verify
from bench.team_stats import search_figures, statistics_figures, write_figures
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import Vector, VectorIndex
from squirrel_memory.models import UpdateAction, UpdateDecision
from squirrel_memory.retrieval import Retriever, embedding_text
from squirrel_memory.storage import PostgresBackend, Store
from squirrel_memory.storage.memory_plans import Insert
from squirrel_memory.storage.postgres.hnsw import DEFAULT_EF_CONSTRUCTION, DEFAULT_HNSW_M
from squirrel_memory.storage.postgres.vectors import PgVectorIndex
from squirrel_memory.task_context import TaskContextBuilder

DIM = 384


def tail_latencies(section: str, label: str, millis: Sequence[float]) -> list[Figure]:
    """p50, p95 and p99 of latencies in milliseconds."""
    note = f"n={len(millis)}"
    return [
        Figure(section, f"{label} p{q}", percentile(millis, q), "ms", note) for q in (50, 95, 99)
    ]


async def fill(
    store: Store, index: VectorIndex, count: int, embedder: FakeEmbedder, first: int
) -> None:
    """`count` memories, 500 per transaction, and their vectors."""
    generator = MemoryGenerator(first)
    for offset in range(0, count, 500):
        decisions = [
            UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(first + offset + n))
            for n in range(min(500, count - offset))
        ]
        result = await store.apply_processing_result([], decisions, [], user_id="bench")
        vectors = await embedder.embed([embedding_text(m) for m in result.memories])
        await asyncio.to_thread(
            index.upsert, [(m.id, vectors[i]) for i, m in enumerate(result.memories)]
        )


def exact_top10(dsn: str, project_id: str, model_id: str, vector: Sequence[float]) -> list[str]:
    """The true 10 nearest (cosine) of a project: the same query with index scans off."""
    import psycopg  # noqa: PLC0415

    literal = "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]"
    with psycopg.connect(dsn) as conn, conn.transaction():
        conn.execute("SET LOCAL enable_indexscan = off")
        rows = conn.execute(
            f"SELECT memory_id FROM memory_vectors WHERE dim = {DIM} AND project_id = %s "
            f"AND model_id = %s ORDER BY embedding::vector({DIM}) <=> %s::vector({DIM}) LIMIT 10",
            (project_id, model_id, literal),
        ).fetchall()
    return [str(row[0]) for row in rows]


def disk(dsn: str) -> tuple[float, float, float]:
    """MiB on disk: the database, memory_vectors with its indexes, the HNSW index alone."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT pg_database_size(current_database()), "
            "pg_total_relation_size('memory_vectors'), "
            f"COALESCE(pg_relation_size(to_regclass('memory_vectors_hnsw_{DIM}')), 0)"
        ).fetchone()
    assert row is not None
    return tuple(float(v) / 2**20 for v in row)  # type: ignore[return-value]


async def first_search(index: VectorIndex, embedder: FakeEmbedder, text: str, k: int) -> float:
    """Milliseconds of the first search for `text`'s vector. Each HNSW row is timed this way,
    on a vector of its own: a vector searched again finds the index pages its walk read already
    in `shared_buffers`, so a row timed on a vector another row had searched was faster than
    the server's first search of a query whenever the graph outgrows `shared_buffers`."""
    (vector,) = await embedder.embed([text])
    started = time.perf_counter()
    await asyncio.to_thread(index.search, vector, k)
    return (time.perf_counter() - started) * 1000


async def searches(
    stores: Sequence[Store],
    dsn: str,
    embedder: FakeEmbedder,
    rounds: int,
    section: str,
    pools: Sequence[int] = (),
    efs: Sequence[int] = (),
) -> list[Figure]:
    """Lexical, HNSW and exact searches over `stores` (chosen in turn); latencies and recall.
    Each of `pools`: the top 10 of an HNSW search for that many (as the server's retrieval asks
    for its candidate pool, `hnsw.ef_search` = the pool, at least the setting), its latency and
    recall. Each of `efs`: the top 10 with `storage.postgres_ef_search` at that value. Every
    HNSW latency is a `first_search` of a vector of its own; recall is of the query's vector
    against the exact top 10."""
    rng = random.Random(7)
    retrieval: list[float] = []
    context: list[float] = []
    lexical: list[float] = []
    hnsw: list[float] = []
    exact: list[float] = []
    found = wanted = 0
    pooled: dict[int, list[float]] = {p: [] for p in pools}
    pool_found: dict[int, int] = dict.fromkeys(pools, 0)
    indexes: dict[str, VectorIndex] = {}
    tuned: dict[tuple[str, int], VectorIndex] = {}
    by_ef: dict[int, list[float]] = {e: [] for e in efs}
    ef_found: dict[int, int] = dict.fromkeys(efs, 0)
    for n in range(rounds):
        store = stores[rng.randrange(len(stores))]
        query = QUERIES[n % len(QUERIES)] + f" {n}"
        started = time.perf_counter()
        await store.search_fts(store.project_id, query, limit=10)
        lexical.append((time.perf_counter() - started) * 1000)
        if store.project_id not in indexes:
            indexes[store.project_id], _ = await asyncio.to_thread(
                store.open_vector_index, DIM, embedder.model_id
            )
        retriever = Retriever(store, embedder=embedder, index=indexes[store.project_id])
        started = time.perf_counter()
        await retriever.search(store.project_id, query, 10)
        retrieval.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        await TaskContextBuilder(retriever).build(store.project_id, query)
        context.append((time.perf_counter() - started) * 1000)
        (vector,) = await embedder.embed([query])
        index = indexes[store.project_id]
        hnsw.append(await first_search(index, embedder, f"{query} hnsw", 10))
        hits = await asyncio.to_thread(index.search, vector, 10)
        started = time.perf_counter()
        truth = await asyncio.to_thread(
            exact_top10, dsn, store.project_id, embedder.model_id, list(vector)
        )
        exact.append((time.perf_counter() - started) * 1000)
        found += len({hit[0] for hit in hits} & set(truth))
        wanted += len(truth)
        for size in pools:
            pooled[size].append(await first_search(index, embedder, f"{query} pool {size}", size))
            wide = await asyncio.to_thread(index.search, vector, size)
            pool_found[size] += len({hit[0] for hit in wide[:10]} & set(truth))
        for ef in efs:
            if (store.project_id, ef) not in tuned:
                tuned[store.project_id, ef] = await asyncio.to_thread(
                    PgVectorIndex.open,
                    store.database.vector_pool(),  # type: ignore[attr-defined]
                    store.project_id,
                    DIM,
                    embedder.model_id,
                    ef_search=ef,
                )
            at_ef = tuned[store.project_id, ef]
            by_ef[ef].append(await first_search(at_ef, embedder, f"{query} ef_search {ef}", 10))
            hits = await asyncio.to_thread(at_ef.search, vector, 10)
            ef_found[ef] += len({hit[0] for hit in hits} & set(truth))
    figures = tail_latencies(section, "search (the server's retrieval), top 10", retrieval)
    figures += tail_latencies(section, "task context (400 tokens)", context)
    figures += tail_latencies(section, "search_fts top-10", lexical)
    figures += tail_latencies(section, "vector top-10, HNSW", hnsw)
    figures += tail_latencies(section, "vector top-10, exact", exact)
    figures.append(
        Figure(section, "HNSW recall@10 vs exact", found / max(wanted, 1), "ratio", f"n={rounds}")
    )
    for size in pools:
        label = f"top 10 of an HNSW top-{size}"
        figures += tail_latencies(section, label, pooled[size])
        recall = pool_found[size] / max(wanted, 1)
        figures.append(Figure(section, f"{label}: recall@10", recall, "ratio", f"n={rounds}"))
    for ef in efs:
        label = f"vector top-10, HNSW ef_search {ef}"
        figures += tail_latencies(section, label, by_ef[ef])
        recall = ef_found[ef] / max(wanted, 1)
        figures.append(Figure(section, f"{label}: recall@10", recall, "ratio", f"n={rounds}"))
    return figures


def hnsw_graph(args: argparse.Namespace) -> tuple[int, int]:
    """The HNSW graph (m, ef_construction) a run builds, opens its backend with and reports:
    `--hnsw-m` / `--ef-construction`, or the product's defaults for 0."""
    return (args.hnsw_m or DEFAULT_HNSW_M, args.ef_construction or DEFAULT_EF_CONSTRUCTION)


async def scenario(
    base_dsn: str, root: Path, name: str, projects: int, per_project: int, args: argparse.Namespace
) -> list[Figure]:
    """One database holding `projects` projects of `per_project` memories: load, index, measure.
    Loading stops at `--load-seconds` (the figures then say how many were loaded)."""
    import psycopg  # noqa: PLC0415
    from pgvector.psycopg import register_vector  # noqa: PLC0415
    from psycopg.conninfo import make_conninfo  # noqa: PLC0415

    database = f"scale_{name}"
    with psycopg.connect(base_dsn, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database}")
        conn.execute(f"CREATE DATABASE {database}")
    dsn = make_conninfo(base_dsn, dbname=database)
    section = f"{projects:,} x {per_project:,}"
    embedder = FakeEmbedder(dim=DIM)
    graph = hnsw_graph(args)
    backend = PostgresBackend(dsn, pool_size=args.pool, hnsw_graph=graph)
    figures: list[Figure] = []
    try:
        stores: list[Store] = []
        for n in range(projects):
            folder = root / database / f"p{n}"
            folder.mkdir(parents=True)
            stores.append(await backend.open_store(str(folder), None))
        # With the Store loader, every index is opened before the HNSW index is dropped:
        # opening one makes it again (`CREATE INDEX IF NOT EXISTS`), and the load would then
        # feed the graph row by row. The COPY loader needs none (`searches` opens them after).
        indexes = []
        if args.loader == "store":
            indexes = [
                (await asyncio.to_thread(store.open_vector_index, DIM, embedder.model_id))[0]
                for store in stores
            ]
        building = hnsw_built_after(dsn, DIM, m=graph[0], ef_construction=graph[1])
        building.__enter__()
        secondary = secondary_indexes_built_after(dsn) if args.loader == "copy" else None
        if secondary is not None:
            secondary.__enter__()
        started = time.perf_counter()
        deadline = time.monotonic() + args.load_seconds
        samples: list[tuple[Store, list[Insert], list[Vector]]] = []
        total = 0
        used: list[Store] = []
        with psycopg.connect(dsn) as conn:
            register_vector(conn)
            batches = CopyBatches(
                conn, HashingVectors(embedder.dim), embedder.model_id, deadline, args.batch, name
            )
            for n, store in enumerate(stores):
                if time.monotonic() > deadline:
                    break
                if args.loader == "copy":
                    check = args.check if n < 3 else 0
                    count = await batches.add(store, per_project, n * per_project, check)
                else:
                    await fill(store, indexes[n], per_project, embedder, first=n * per_project)
                    count = per_project
                total += count
                if count:
                    used.append(store)
            await batches.flush()
            await batches.sent()
            samples = batches.samples
        loaded = time.perf_counter() - started
        progress(name, f"loaded {total:,} memories in {loaded:.0f} s")
        started = time.perf_counter()
        if secondary is not None:
            secondary.__exit__(None, None, None)
        secondary_built = time.perf_counter() - started
        progress(name, f"other indexes built in {secondary_built:.0f} s")
        started = time.perf_counter()
        building.__exit__(None, None, None)
        built = time.perf_counter() - started
        progress(name, f"HNSW index built in {built:.0f} s")
        checked = 0
        for store, inserts, vectors in samples:
            checked += await verify(store, dsn, inserts, vectors, embedder.model_id)
        cap = "" if total == projects * per_project else f"; capped: {total:,} loaded"
        if cap:  # the figures are of what was loaded
            section = f"{len(used):,} x {per_project:,} (capped)"
            if projects == 1:
                section = f"1 x {total:,} (capped)"
        figures.append(
            Figure(
                section,
                f"load memories + vectors ({args.loader})",
                total / loaded,
                "rows/s",
                (f"{loaded:.0f} s; {checked} read back equal" if checked else f"{loaded:.0f} s")
                + cap,
            )
        )
        if secondary is not None:
            figures.append(
                Figure(section, "other indexes (3 GIN, 3 b-tree) built after", secondary_built, "s")
            )
        shown = f"m {graph[0]}, ef_construction {graph[1]}"
        figures.append(Figure(section, "HNSW index build after the load", built, "s", shown))
        db_mib, vectors_mib, hnsw_mib = disk(dsn)
        figures.append(Figure(section, "disk: database", db_mib, "MiB"))
        figures.append(Figure(section, "disk: memory_vectors + indexes", vectors_mib, "MiB"))
        figures.append(Figure(section, "disk: HNSW index", hnsw_mib, "MiB"))
        pools = [int(p) for p in str(args.pools).split(",") if p]
        efs = [int(e) for e in str(args.ef_search).split(",") if e]
        if used:
            figures += await searches(used, dsn, embedder, args.queries, section, pools, efs)
            asked = [f"{q} {n}" for n, q in enumerate(QUERIES * 4)]
            figures += await statistics_figures(used[0], section, asked)
            figures += await search_figures(used[0], section, asked)
            figures += await write_figures(used[0], section, first=projects * per_project)
    finally:
        await backend.close()
    return figures


async def run(args: argparse.Namespace, root: Path) -> list[Figure]:
    figures: list[Figure] = []
    for size in (int(s) for s in args.sizes.split(",") if s):
        figures += await scenario(args.postgres_dsn, root, f"one_{size}", 1, size, args)
    if args.projects > 0:
        figures += await scenario(
            args.postgres_dsn, root, "many", args.projects, args.per_project, args
        )
    return figures


def main(argv: list[str] | None = None) -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", default="2000,10000", help="memories in one project")
    options.add_argument("--projects", type=int, default=100)
    options.add_argument("--per-project", type=int, default=100)
    options.add_argument("--queries", type=int, default=200)
    options.add_argument("--pool", type=int, default=10)
    options.add_argument(
        "--batch",
        type=int,
        default=10_000,
        help="memories per COPY transaction, across projects",
    )
    options.add_argument(
        "--loader",
        choices=("copy", "store"),
        default="copy",
        help="COPY the product's rows (default), or write them through the Store contract",
    )
    options.add_argument(
        "--check", type=int, default=200, help="COPY-loaded memories read back and compared"
    )
    options.add_argument(
        "--pools", default="50,100", help="HNSW candidate pools whose top 10 is also measured"
    )
    options.add_argument(
        "--ef-search",
        default="",
        help="storage.postgres_ef_search values whose HNSW top 10 is also measured (40,100,...)",
    )
    options.add_argument(
        "--hnsw-m", type=int, default=0, help="HNSW m of the index built and opened (0: 16)"
    )
    options.add_argument(
        "--ef-construction",
        type=int,
        default=0,
        help="HNSW ef_construction of the index built and opened (0: 128)",
    )
    options.add_argument(
        "--load-seconds",
        type=float,
        default=900.0,
        help="each scenario's loading stops after this long (the figures say how many it loaded)",
    )
    options.add_argument(
        "--postgres-dsn", default="", help="an existing Postgres (default: one started here)"
    )
    args = options.parse_args(argv)
    args.backend = "postgres"
    logging.disable(logging.WARNING)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp, local_postgres(args) as dsn:
        args.postgres_dsn = dsn
        figures = asyncio.run(run(args, Path(tmp).resolve()))
        # Printed before the database's folder is deleted (gigabytes at a company's size): a
        # run stopped while it is deleted still has its figures.
        print(
            f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; now: "
            + " ".join(f"{v:.2f}" for v in os.getloadavg()),
            flush=True,
        )
        print_table(figures)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
