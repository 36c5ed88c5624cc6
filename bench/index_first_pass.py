"""The vector index's int8 first pass alone: the service's index search against a plain scan.

For each size, seeded clustered unit vectors (as `bench/index_bench.py` draws them) are put in
three indexes, each searched with one OpenMP thread as the service does:

- `exact scan`: a plain FAISS flat index (IndexIDMap2 over IndexFlatIP), every vector scored;
- `flat, int8 first pass`: the service's `FaissIndex` kept flat (the int8 copy's best
  candidates scored again exactly, the full scan when they cannot vouch for the top k);
- `IVF, int8 first pass`: the service's `FaissIndex` made IVF at that size (its lists probed
  in the int8 copy first).

Every query goes to the three in turn, the order rotating from query to query, so the three
share the machine's load; the table gives each one's p50 and p95, the exact scan's p50 over its
own (the same-run ratio), and the share of the exact top k it returned (the flat index must
return all of it: its hits are the full scan's to the bit). The 1-minute load is printed
before and after each size.

Run: .venv/bin/python -m bench.index_first_pass [--sizes 10000,100000] [--queries 300] [--k 50]
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable

import faiss
import numpy as np
import numpy.typing as npt

from bench.index_bench import DIM, clustered
from squirrel_core.logs import configure_logging
from squirrel_memory.index import FaissIndex

Search = Callable[[npt.NDArray[np.float32]], list[int]]
NAMES = ("exact scan", "flat, int8 first pass", "IVF, int8 first pass")


def _exact(data: npt.NDArray[np.float32], k: int) -> Search:
    index = faiss.IndexIDMap2(faiss.IndexFlatIP(DIM))
    index.add_with_ids(data, np.arange(len(data), dtype=np.int64))

    def search(query: npt.NDArray[np.float32]) -> list[int]:
        _, ids = index.search(query.reshape(1, -1), k)
        return [int(i) for i in ids[0]]

    return search


def _service(data: npt.NDArray[np.float32], k: int, *, ivf: bool) -> tuple[Search, str]:
    size = len(data)
    index = FaissIndex(DIM, "bench", approximate_above=size - 1 if ivf else size + 1)
    index.rebuild((str(i), v) for i, v in enumerate(data))

    def search(query: npt.NDArray[np.float32]) -> list[int]:
        return [int(name) for name, _ in index.search(query, k)]

    return search, index.kind.value


def _queries(
    data: npt.NDArray[np.float32], count: int, rng: np.random.Generator
) -> npt.NDArray[np.float32]:
    """Stored vectors moved by noise (questions near what is stored), unit length."""
    picks = rng.integers(0, len(data), count)
    noise = rng.standard_normal((count, DIM)).astype(np.float32) / math.sqrt(DIM)
    queries = data[picks] + 1.2 * noise
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    return queries.astype(np.float32)


def measure(size: int, count: int, k: int, seed: int) -> list[str]:
    """The table rows of one size."""
    rng = np.random.default_rng(seed)
    data = clustered(size, rng, 1.0)
    queries = _queries(data, count, rng)
    flat, flat_kind = _service(data, k, ivf=False)
    ivf, ivf_kind = _service(data, k, ivf=True)
    searches = (_exact(data, k), flat, ivf)
    faiss.omp_set_num_threads(1)
    times: list[list[float]] = [[] for _ in searches]
    found: list[list[list[int]]] = [[] for _ in searches]
    load_before = os.getloadavg()[0]
    for n, query in enumerate(queries):
        for step in range(len(searches)):
            which = (n + step) % len(searches)
            started = time.perf_counter()
            answer = searches[which](query)
            times[which].append(1000 * (time.perf_counter() - started))
            found[which].append(answer)
    load_after = os.getloadavg()[0]
    exact_p50 = float(np.percentile(times[0], 50))
    rows = []
    kinds = ("flat", flat_kind, ivf_kind)
    for name, kind, spent, hits in zip(NAMES, kinds, times, found, strict=True):
        p50, p95 = (float(x) for x in np.percentile(spent, [50, 95]))
        same = sum(len(set(h) & set(t)) for h, t in zip(hits, found[0], strict=True))
        rows.append(
            f"| {size:>7} | {name:<21} | {kind:<4} | {p50:6.2f} | {p95:6.2f} | "
            f"{exact_p50 / p50:5.2f}x | {same / (k * count):6.3f} | "
            f"{load_before:.2f} -> {load_after:.2f} |"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.index_first_pass", description=__doc__)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--k", type=int, default=50, help="hits asked (the service asks 50)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    print(
        "| size    | index                 | kind | p50 ms | p95 ms | exact p50 / this | "
        "exact top k | 1-min load |"
    )
    print(
        "|---------|-----------------------|------|--------|--------|------------------|-------------|------------|"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        for line in measure(size, args.queries, args.k, args.seed):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
