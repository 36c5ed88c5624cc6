"""How wide the int8 first pass's first set of candidates must be, on the search bench's store.

A project is filled as `bench.search_floor` fills it (`seed_project`: generated memories, the
first `--base-texts` embedded, the other vectors derived) and its vector index loaded as the
service loads it. For each of `--queries` questions (their int8 query vectors) and each top k,
it finds the narrowest first set of the int8 pass (`Int8Copy.candidates`) whose exact k-th
score clears the ceiling of every vector left out, i.e. the set that answers in one int8 scan,
and prints the share of questions a set of 2k + 16 and of 2k + 32 answers. Then it times the
index's `search` (the thread's CPU, p50 / p90 / mean ms) with each first width, the widths
alternating pass by pass, and checks both give the same hits. Below `COARSE_ABOVE` vectors
no first pass runs, and at an IVF size (above 50,000) the flat widths are not the ones used,
so use a size between.

Usage: python -m bench.first_set [--size 10000] [--queries 300] [--base-texts 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.seeded_project import base_texts_arg, loaded_embedder, questions, seed_project
from squirrel_memory.index import FaissIndex, IndexKind, Vector, faiss_index
from squirrel_memory.index.coarse import Int8Copy
from squirrel_memory.indexer import index_path

TOPS = (10, 50)
FIRST_WIDTHS = {"2k + 16": (2, 16), "2k + 32": (2, 32)}
PASSES = 4


def narrowest(index: FaissIndex, query: Vector, k: int) -> int | None:
    """The narrowest first set (in steps of 2) that vouches for the top `k` of `query`."""
    copy = index._coarse
    if copy is None:  # a flat index with 4-bit codes keeps none: the copy it would keep
        copy = index._coarse = Int8Copy(index.dim, *index._all_vectors())
    exact = index._index.search(query.reshape(1, -1), k)[0][0][k - 1]
    for wide in range(k + 1, 12 * k + 100, 2):
        found = copy.candidates(query, wide)
        if found is None:
            return None
        if exact > found.ceiling:
            return wide
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--base-texts", type=base_texts_arg, default=3000)
    args = parser.parse_args(argv)
    asyncio.run(run(args.size, args.queries, args.base_texts))


async def run(size: int, queries: int, base_texts: int) -> None:
    embedder = loaded_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        await seed_project(root, size, embedder, base_texts)
        index, _ = FaissIndex.open(index_path(str(root)), embedder.dim, embedder.model_id)
        if index.kind is not IndexKind.FLAT:
            raise SystemExit(f"no flat index at {size} memories")
        vectors = [embedder.embed_query_now(q)[0] for q in questions(queries)]
        print(f"{size} memories, {queries} questions, flat index with its int8 copy")
        for k in TOPS:
            needed = [narrowest(index, v, k) for v in vectors]
            shares = "  ".join(
                f"{name} {sum(n is not None and n <= t * k + p for n in needed) / len(needed):.0%}"
                for name, (t, p) in FIRST_WIDTHS.items()
            )
            print(f"top {k}: questions the first set answers: {shares}")
        saved = faiss_index.COARSE_WIDTHS
        try:
            for k in TOPS:
                cpu: dict[str, list[float]] = {name: [] for name in FIRST_WIDTHS}
                hits: dict[str, list[list[tuple[str, float]]]] = {}
                names = list(FIRST_WIDTHS)
                for n in range(PASSES):
                    for name in names if n % 2 == 0 else names[::-1]:
                        faiss_index.COARSE_WIDTHS = (FIRST_WIDTHS[name], saved[-1])
                        found = []
                        for v in vectors:
                            started = time.thread_time()
                            found.append(index.search(v, k))
                            cpu[name].append((time.thread_time() - started) * 1000)
                        if hits.setdefault(name, found) != found:
                            raise SystemExit("the same width gave other hits")
                same = hits[names[0]] == hits[names[1]]
                for name in names:
                    c = np.array(cpu[name])
                    print(
                        f"top {k}, first set {name}: index search cpu p50 {np.median(c):.3f}"
                        f" p90 {np.percentile(c, 90):.3f} mean {c.mean():.3f} ms"
                        f" (same hits as the other width: {same})"
                    )
        finally:
            faiss_index.COARSE_WIDTHS = saved


if __name__ == "__main__":
    main()
