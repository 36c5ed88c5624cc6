"""Vector index benchmark: single-query latency and recall of flat, IVF-Flat and HNSW by size.

Run: .venv/bin/python bench/index_bench.py [--sizes 10000,50000,100000] [--queries 200]

Vectors are 384-d unit vectors drawn around clustered centres (closer to real sentence
embeddings than uniform noise); queries are perturbed stored vectors. Every search uses one
OpenMP thread, as the service does. Recall@10 is measured against exact search.
"""

from __future__ import annotations

import argparse
import math
import time

import faiss
import numpy as np
import numpy.typing as npt

from squirrel_memory.index import IVF_PROBE_FRACTION, FaissIndex

DIM = 384
K = 10

Matrix = npt.NDArray[np.float32]


def clustered(count: int, rng: np.random.Generator, spread: float) -> Matrix:
    centres = rng.standard_normal((max(8, count // 50), DIM)).astype(np.float32)
    picks = rng.integers(0, len(centres), count)
    noise = rng.standard_normal((count, DIM)).astype(np.float32)
    data = centres[picks] / math.sqrt(DIM) + spread * noise / math.sqrt(DIM)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    return data


def timed_search(search: object, queries: Matrix) -> tuple[list[float], npt.NDArray[np.int64]]:
    times: list[float] = []
    found = []
    faiss.omp_set_num_threads(1)
    for query in queries:
        started = time.perf_counter()
        _, ids = search(query.reshape(1, -1), K)  # type: ignore[operator]
        times.append(1000 * (time.perf_counter() - started))
        found.append(ids[0])
    return times, np.stack(found)


def recall(found: npt.NDArray[np.int64], truth: npt.NDArray[np.int64]) -> float:
    hits = sum(len(set(f.tolist()) & set(t.tolist())) for f, t in zip(found, truth, strict=True))
    return hits / truth.size


def row(name: str, size: int, build_s: float, times: list[float], rec: float) -> None:
    p50, p95 = np.percentile(times, [50, 95])
    print(f"| {name:<22} | {size:>7} | {build_s:7.2f} | {p50:6.2f} | {p95:6.2f} | {rec:5.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,25000,50000,75000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--hnsw", action="store_true", help="also build HNSW (slow)")
    parser.add_argument("--spread", type=float, default=1.0, help="cluster noise / separation")
    parser.add_argument("--query-noise", type=float, default=1.2, help="query offset / spread")
    parser.add_argument("--flat-only", action="store_true", help="only exact search")
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    print("| index                  |    size | build s | p50 ms | p95 ms | rec@10 |")
    print("|------------------------|---------|---------|--------|--------|--------|")
    for size in (int(s) for s in args.sizes.split(",")):
        data = clustered(size, rng, args.spread)
        picks = rng.integers(0, size, args.queries)
        noise = rng.standard_normal((args.queries, DIM)).astype(np.float32) / math.sqrt(DIM)
        queries = data[picks] + args.query_noise * noise
        queries /= np.linalg.norm(queries, axis=1, keepdims=True)
        ids = np.arange(size, dtype=np.int64)

        started = time.perf_counter()
        flat = faiss.IndexIDMap2(faiss.IndexFlatIP(DIM))
        flat.add_with_ids(data, ids)
        build = time.perf_counter() - started
        times, truth = timed_search(flat.search, queries)
        row("flat (IDMap2)", size, build, times, 1.0)
        if args.flat_only:
            continue

        nlist = max(16, round(4 * math.sqrt(size)))
        faiss.omp_set_num_threads(2)
        started = time.perf_counter()
        quantizer = faiss.IndexFlatIP(DIM)
        ivf = faiss.IndexIVFFlat(quantizer, DIM, nlist, faiss.METRIC_INNER_PRODUCT)
        ivf.train(data[: min(size, 256 * nlist)])
        ivf.add_with_ids(data, ids)
        build = time.perf_counter() - started
        for fraction in sorted({0.02, 0.04, IVF_PROBE_FRACTION, 0.2}):
            ivf.nprobe = max(1, math.ceil(fraction * nlist))
            times, found = timed_search(ivf.search, queries)
            row(f"ivf nlist={nlist} np={ivf.nprobe}", size, build, times, recall(found, truth))

        index = FaissIndex(DIM, "bench", approximate_above=size - 1)
        started = time.perf_counter()
        index.rebuild((str(i), v) for i, v in enumerate(data))
        build = time.perf_counter() - started
        search_times = []
        for query in queries:
            started = time.perf_counter()
            index.search(query, K)
            search_times.append(1000 * (time.perf_counter() - started))
        row(f"FaissIndex ({index.kind.value})", size, build, search_times, float("nan"))

        if args.hnsw:
            faiss.omp_set_num_threads(2)
            started = time.perf_counter()
            hnsw = faiss.IndexHNSWFlat(DIM, 32, faiss.METRIC_INNER_PRODUCT)
            hnsw.add(data)
            build = time.perf_counter() - started
            hnsw.hnsw.efSearch = 64
            times, found = timed_search(hnsw.search, queries)
            row("hnsw M=32 ef=64", size, build, times, recall(found, truth))


if __name__ == "__main__":
    main()
