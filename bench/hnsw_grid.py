"""HNSW recall@10 and latency on Postgres over a grid of graphs and `ef_search` values, on
vectors shaped like a sentence model's or on the hashing embedder's.

One project of `--size` vectors (384 dimensions) in `memory_vectors`, the product's schema; for
each graph of `--graphs` (`m:ef_construction`) the HNSW index is built as the product builds it
(`create_index`), then every query is searched through `PgVectorIndex.search` (the server's
statement: iterative scans, `hnsw.ef_search` set in the transaction) at each `--ef-search`
value, the values' order rotating from query to query so that none always meets the pages
another one read; recall@10 is against the exact top 10 (NumPy, every vector), and the cosine
of the 10th row found is set beside the exact 10th's (a miss that is as near costs nothing).
The rows a search returned are counted (the project filter leaves every row here, and
iterative scans return `k` rows whatever it leaves).

`--vectors minilm`: the texts of `MemoryGenerator(7)`'s memories (as the product embeds them:
key, content, tags) embedded by MiniLM through the on-disk embedding cache
(`bench.embedding_cache`), up to `--base-texts`; past that, vectors DERIVED from them as
`bench.seeded_project` derives them (the sum of two real ones plus noise). `--vectors
hashing`: the test embedder's (`FakeEmbedder`, what `bench.team_scale` stores), near-random
directions in 384 dimensions. Two sets of `--queries` queries, embedded the same way:
`memories`, memories of another seed (not in the index), near some stored memory; `questions`,
`bench.team_scale`'s (a developer's question and a number), near none. Also printed for each:
the mean cosine of the exact 1st, 10th and 100th neighbour (how distinct the top 10 is) and of
a random pair of vectors.

Run: nice -n 10 .venv/bin/python -m bench.hnsw_grid [--size 100000] [--vectors minilm|hashing]
[--graphs 16:64,32:128] [--ef-search 40,100,200,400] [--queries 100] [--base-texts 3000]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from bench.common import Figure, percentile, print_table, progress
from bench.embedding_cache import EmbeddingCache
from bench.memory_text import MemoryGenerator
from bench.postgres_server import local_postgres
from bench.seeded_project import derived_vectors, loaded_embedder
from bench.storage_backends import QUERIES
from bench.team_copy import HashingVectors
from squirrel_memory.models import MemoryCandidate

DIM = 384
K = 10
PROJECT = "hnsw-grid"
Matrix = npt.NDArray[np.float32]


def text_of(candidate: MemoryCandidate) -> str:
    """The text the product embeds a memory as (`retrieval.embedding_text`)."""
    tags = ", ".join(candidate.tags)
    return f"{candidate.key}: {candidate.content}" + (f" [{tags}]" if tags else "")


def vectors_of(kind: str, texts: Sequence[str], base_texts: int) -> tuple[Matrix, str, int]:
    """The vectors of `texts`, their model id and how many were embedded (not derived)."""
    if kind == "hashing":
        hashing = HashingVectors(DIM)
        chunks = [hashing.embed(texts[s : s + 5000]) for s in range(0, len(texts), 5000)]
        return np.concatenate(chunks).astype(np.float32), "fake-hash-384", len(texts)
    embedder = loaded_embedder()
    real = min(base_texts, len(texts))
    with EmbeddingCache() as cache:
        base = cache.embed(embedder.model_id, embedder.dim, texts[:real], embedder.embed_now)
    vectors = base.vectors
    if real < len(texts):
        rng = np.random.default_rng(7)
        vectors = np.concatenate([vectors, derived_vectors(vectors, len(texts) - real, rng)])
    return vectors.astype(np.float32), embedder.model_id, real


def exact_top(vectors: Matrix, queries: Matrix) -> tuple[list[set[int]], Matrix]:
    """The true 10 nearest (cosine) of each query, as row numbers, and the cosines of each
    query's 1st, 10th and 100th nearest."""
    found: list[set[int]] = []
    ranks = np.zeros((len(queries), 3), dtype=np.float32)
    for n, query in enumerate(queries):
        scores = vectors @ query
        top = np.argpartition(-scores, 100)[:100]
        ordered = np.sort(scores[top])[::-1]
        ranks[n] = (ordered[0], ordered[K - 1], ordered[99])
        found.append({int(t) for t in top[np.argsort(-scores[top])][:K]})
    return found, ranks


def random_pairs(vectors: Matrix) -> float:
    """Mean cosine of 2,000 random pairs of vectors."""
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, len(vectors), (2, 2000))
    return float(np.mean(np.sum(vectors[a] * vectors[b], axis=1)))


def load(dsn: str, vectors: Matrix, model_id: str) -> None:
    """The product's schema, and `vectors` as one project's rows (`COPY`, binary)."""
    import psycopg  # noqa: PLC0415
    from pgvector.psycopg import register_vector  # noqa: PLC0415

    from squirrel_memory.storage.postgres.schema import MIGRATIONS  # noqa: PLC0415

    with psycopg.connect(dsn) as conn:
        with conn.transaction():
            for migration in MIGRATIONS[:2]:  # memory_vectors and its project index
                for statement in migration.statements:
                    conn.execute(statement)
        register_vector(conn)
        with (
            conn.transaction(),
            conn.cursor().copy(
                "COPY memory_vectors (memory_id, project_id, model_id, dim, embedding) "
                "FROM STDIN WITH (FORMAT BINARY)"
            ) as copy,
        ):
            copy.set_types(["text", "text", "text", "int4", "vector"])
            for n, vector in enumerate(vectors):
                copy.write_row((f"m{n}", PROJECT, model_id, DIM, vector))


def build(dsn: str, graph: tuple[int, int]) -> float:
    """Seconds to build the HNSW index with `graph` (an older one dropped first)."""
    import psycopg  # noqa: PLC0415

    from squirrel_memory.storage.postgres.graph_rebuild import (  # noqa: PLC0415
        create_index,
        index_name,
    )

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"DROP INDEX IF EXISTS {index_name(DIM)}")
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        started = time.perf_counter()
        create_index(conn, index_name(DIM), DIM, graph, concurrently=False)
        built = time.perf_counter() - started
        conn.execute("ANALYZE memory_vectors")
    return built


def measure(
    dsn: str,
    model_id: str,
    graph: tuple[int, int],
    efs: Sequence[int],
    queries: Matrix,
    truth: Sequence[set[int]],
    tenth: Sequence[float],
    section: str,
) -> list[Figure]:
    """Latency and recall@10 of the server's HNSW search at each of `efs`."""
    from squirrel_memory.storage.postgres.vectors import PgVectorIndex, vector_pool  # noqa: PLC0415

    pool = vector_pool(dsn, max_size=1)
    figures: list[Figure] = []
    try:
        indexes = {
            ef: PgVectorIndex.open(
                pool, PROJECT, DIM, model_id, ef_search=ef, m=graph[0], ef_construction=graph[1]
            )
            for ef in efs
        }
        millis: dict[int, list[float]] = {ef: [] for ef in efs}
        found = dict.fromkeys(efs, 0)
        short = dict.fromkeys(efs, 0)
        shortfall: dict[int, list[float]] = {ef: [] for ef in efs}
        for n, query in enumerate(queries):
            order = list(efs[n % len(efs) :]) + list(efs[: n % len(efs)])
            for ef in order:
                started = time.perf_counter()
                hits = indexes[ef].search(query, K)
                millis[ef].append((time.perf_counter() - started) * 1000)
                found[ef] += len({int(h[0][1:]) for h in hits} & truth[n])
                short[ef] += len(hits) < K
                shortfall[ef].append(float(tenth[n]) - (hits[-1][1] if hits else 0.0))
        for ef in efs:
            label = f"m {graph[0]}, ef_construction {graph[1]}, ef_search {ef}"
            note = f"n={len(queries)}; {short[ef]} searches returned < {K} rows"
            recall = 100 * found[ef] / (K * len(queries))
            figures.append(Figure(section, f"{label}: recall@10", recall, "%", note))
            gap = 1000 * float(np.mean(shortfall[ef]))
            figures.append(Figure(section, f"{label}: exact 10th - found 10th", gap, "1e-3 cos"))
            for q in (50, 95):
                figures.append(Figure(section, f"{label}: p{q}", percentile(millis[ef], q), "ms"))
    finally:
        pool.close()
    return figures


def main(argv: list[str] | None = None) -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--size", type=int, default=100_000)
    options.add_argument("--vectors", choices=("minilm", "hashing"), default="minilm")
    options.add_argument("--graphs", default="16:64,32:128", help="m:ef_construction,...")
    options.add_argument("--ef-search", default="40,100,200,400")
    options.add_argument("--queries", type=int, default=100)
    options.add_argument(
        "--base-texts", type=int, default=3000, help="texts embedded; the rest derived"
    )
    options.add_argument("--postgres-dsn", default="")
    args = options.parse_args(argv)
    args.backend = "postgres"
    graphs = [(int(g.split(":")[0]), int(g.split(":")[1])) for g in args.graphs.split(",") if g]
    efs = [int(e) for e in args.ef_search.split(",") if e]
    load_at_start = os.getloadavg()
    texts = [text_of(c) for c in MemoryGenerator(7).candidates(args.size)]
    asked = {
        "memories": [text_of(c) for c in MemoryGenerator(11).candidates(args.queries)],
        "questions": [f"{QUERIES[n % len(QUERIES)]} {n}" for n in range(args.queries)],
    }
    vectors, model_id, embedded = vectors_of(args.vectors, texts, args.base_texts)
    section = f"{args.vectors}, {args.size:,} vectors"
    figures = [
        Figure(section, "vectors embedded (the rest derived)", embedded, "vectors"),
        Figure(section, "mean cosine of a random pair", random_pairs(vectors), "cos"),
    ]
    sets: dict[str, tuple[Matrix, list[set[int]], Matrix]] = {}
    for name, wanted in asked.items():
        queries, _, _ = vectors_of(args.vectors, wanted, len(wanted))
        truth, ranks = exact_top(vectors, queries)
        sets[name] = (queries, truth, ranks)
        for column, rank in enumerate(("1st", "10th", "100th")):
            value = float(np.mean(ranks[:, column]))
            figures.append(
                Figure(section, f"{name}: mean cosine of the {rank} nearest", value, "cos")
            )
    progress("grid", f"{len(vectors):,} vectors ({embedded:,} embedded), {args.queries} queries")
    with local_postgres(args) as dsn:
        started = time.perf_counter()
        load(dsn, vectors, model_id)
        progress("grid", f"loaded in {time.perf_counter() - started:.0f} s")
        for graph in graphs:
            built = build(dsn, graph)
            progress("grid", f"m {graph[0]}, ef_construction {graph[1]} built in {built:.0f} s")
            label = f"m {graph[0]}, ef_construction {graph[1]}: index build"
            figures.append(Figure(section, label, built, "s", "1 parallel worker"))
            for name, (queries, truth, ranks) in sets.items():
                where = f"{section}, {name}"
                tenth = [float(c) for c in ranks[:, 1]]
                figures += measure(dsn, model_id, graph, efs, queries, truth, tenth, where)
    now = os.getloadavg()
    print(
        f"load average at start: {' '.join(f'{v:.2f}' for v in load_at_start)}; "
        f"now: {' '.join(f'{v:.2f}' for v in now)}",
        flush=True,
    )
    print_table(figures)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
