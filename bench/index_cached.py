"""Squirrel's vector indexes on the side-by-side store's real vectors, read from the cache only.

`bench.mem0_side` prints, after its searches, the vector index the service builds at its size
and a flat one, each searched with the int8 and the float query vectors, against exact float
search. This prints that table alone, without mem0 or the service, from vectors the on-disk
embedding cache already holds (`bench.embed_fill` puts them there): nothing is embedded but the
queries, so it runs in a minute or two at 100k.

    .venv/bin/python -m bench.index_cached [--size 100000] [--largest-cached] [--ivf-too]

`--largest-cached`: when the cache does not hold every text of `--size`, use the longest run of
the store's texts from its start that it does hold (the size a stopped `bench.embed_fill`
reached) and say so; without it a missing text is an error naming how many are missing.
`--ivf-too`: below the service's IVF threshold (`APPROXIMATE_ABOVE`, 50,000), also build the
IVF index the service would build above it (4·√n lists, a tenth probed), labelled as such.

Every vector of the store is the float MiniLM's of the text alone (none derived); the truth of a
query is NumPy's exact top k for the float vector of the question (`bench.mem0_exact`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

import numpy as np
import structlog

from bench.embedding_cache import EmbeddingCache, Vectors, text_digest
from bench.mem0_cached import searched_texts
from bench.mem0_exact import IndexFigures, by_text, exact_top, index_figures
from bench.mem0_side import query_vectors, workload
from squirrel_memory.embedding.minilm import DIM, MODEL_ID
from squirrel_memory.index import APPROXIMATE_ABOVE


def cached_prefix(cache: EmbeddingCache, texts: Sequence[str]) -> int:
    """How many of `texts`, from the first, the cache holds a good vector of."""
    held = cache.held(MODEL_ID, DIM, [text_digest(t) for t in texts])
    for n, text in enumerate(texts):
        if text_digest(text) not in held:
            return n
    return len(texts)


def cached_only(cache: EmbeddingCache, texts: Sequence[str]) -> Vectors:
    def refuse(part: Sequence[str]) -> Vectors:
        raise LookupError(f"{len(part)} or more texts are not cached")

    return cache.embed(MODEL_ID, DIM, texts, refuse).vectors


def lines(found: Sequence[IndexFigures]) -> list[str]:
    """The table: `found` as `index_figures` orders it (the service's kind at this size, then a
    flat one, each with every encoder), then any IVF built below the service's threshold."""
    out = [
        "| index | query vectors | p50 ms | p95 ms | recall@5 exact float"
        " | recall@10 exact float |",
        "|---|---|---|---|---|---|",
    ]
    encoders = len({f.encoder for f in found})
    for n, figures in enumerate(found):
        name = figures.kind
        if n < encoders:
            name += " (the service's at this size)"
        elif n >= 2 * encoders:
            name += " (as the service builds it above 50k)"
        out.append(
            f"| {name} | {figures.encoder} | {figures.p50:.2f} | {figures.p95:.2f}"
            f" | {figures.recall_5:.3f} | {figures.recall_10:.3f} |"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--size", type=int, default=100_000, help="texts in the store")
    options.add_argument("--copies", type=int, default=3, help="times each question is asked")
    options.add_argument("--largest-cached", action="store_true")
    options.add_argument("--ivf-too", action="store_true")
    args = options.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    texts = searched_texts(args.size)
    with EmbeddingCache() as cache:
        held = cached_prefix(cache, texts)
        if held < len(texts):
            if not args.largest_cached:
                print(
                    f"the cache holds the first {held} of {len(texts)} texts; run"
                    f" `bench.embed_fill --size {args.size}` or pass --largest-cached",
                    file=sys.stderr,
                )
                return 1
            print(f"the cache holds the first {held} of the {len(texts)} texts: measured at {held}")
        size = held
        texts, queries = workload(size, args.copies)
        vectors = cached_only(cache, texts)
    int8, floats, cosines = query_vectors(queries)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    truth = [by_text(t, texts) for t in exact_top(vectors, floats)]
    rows = {"int8": int8, "float": floats}
    found = index_figures(vectors, rows, truth, MODEL_ID, texts)
    forced = args.ivf_too and size <= APPROXIMATE_ABOVE
    if forced:
        ivf = index_figures(vectors, rows, truth, MODEL_ID, texts, approximate_above=0)
        found += [f for f in ivf if f.kind == "ivf"]
    print(
        f"{size} texts, every vector the float MiniLM's of the text alone (from the cache);"
        f" {len(queries)} queries (top 10, one at a time, in this process); load"
        f" {load:.1f} -> {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores),"
        f" {time.perf_counter() - started:.0f} s"
    )
    print(*lines(found), sep="\n")
    print(
        f"int8 query vectors against the float ones: cosine min {min(cosines):.4f}, median"
        f" {float(np.median(cosines)):.4f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
