"""`bench.mem0_side`'s truth: exact float search, and the vector indexes measured against it.

The truth of a query is its exact top k by NumPy: the float MiniLM vector of the query (as sent,
tag included) against the float vector of every stored text alone, by inner product (the vectors
are unit length). A side's recall@k is the share of that top k in its own top k. It says how
close a search comes to exact vector search over the same texts, not whether it answers the
question (the gold turns say that); a hybrid search that ranks a lexical hit first moves away
from it on purpose.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from squirrel_memory.index import APPROXIMATE_ABOVE, FaissIndex

Vectors = npt.NDArray[np.float32]
#: The deepest top k any figure reads.
TOP = 10


def exact_top(vectors: Vectors, queries: Vectors, k: int = TOP) -> list[list[int]]:
    """Each query's exact top `k` stored rows by inner product, best first (ties by row)."""
    tops: list[list[int]] = []
    for query in queries:
        scores = vectors @ query
        tops.append([int(n) for n in np.argsort(-scores, kind="stable")[:k]])
    return tops


def distinct(texts: Sequence[str]) -> list[int]:
    """Each text's first position in `texts` (a text stored twice counts once, as its first)."""
    first: dict[str, int] = {}
    return [first.setdefault(text, n) for n, text in enumerate(texts)]


def exact_distinct(vectors: Vectors, queries: Vectors, texts: Sequence[str]) -> list[list[int]]:
    """`exact_top` over the distinct texts only, as their first positions."""
    rows = sorted(set(distinct(texts)))
    return [[rows[n] for n in top] for top in exact_top(vectors[rows], queries)]


def as_distinct(hits: Sequence[int], texts: Sequence[str]) -> list[int]:
    """A side's hits with each text at its first position, each once, in order (unknown hits,
    below 0, dropped)."""
    first = distinct(texts)
    return list(dict.fromkeys(first[h] for h in hits if 0 <= h < len(texts)))


def agreement(truth: Sequence[Sequence[int]], hits: Sequence[Sequence[int]], k: int) -> float:
    """Mean share of each query's exact top `k` found in its own top `k`."""
    if not truth:
        raise ValueError("no queries")
    shares = [len(set(t[:k]) & set(h[:k])) / len(t[:k]) for t, h in zip(truth, hits, strict=True)]
    return float(np.mean(shares))


@dataclass(frozen=True)
class IndexFigures:
    """One vector index searched in process with one query encoder's vectors."""

    kind: str
    encoder: str
    p50: float
    p95: float
    recall_5: float
    recall_10: float


def index_figures(
    vectors: Vectors,
    queries: dict[str, Vectors],
    truth: Sequence[Sequence[int]],
    model_id: str,
    texts: Sequence[str] | None = None,
) -> list[IndexFigures]:
    """Top-10 p50 and p95 ms (one query at a time) and recall@5/@10 against `truth` of the index
    kind the service builds for this many vectors and of a flat one, with each encoder's query
    vectors (`queries`: encoder name -> one row per query); with `texts`, hits are read as
    `as_distinct` reads them (for a truth from `exact_distinct`)."""
    ids = [str(n) for n in range(len(vectors))]
    figures: list[IndexFigures] = []
    for flat in (False, True):
        above = len(vectors) + 1 if flat else APPROXIMATE_ABOVE
        index = FaissIndex(vectors.shape[1], model_id, approximate_above=above)
        index.rebuild(zip(ids, vectors, strict=True))
        for encoder, query_rows in queries.items():
            times: list[float] = []
            hits: list[list[int]] = []
            for query in query_rows:
                started = time.perf_counter()
                found = index.search(query, TOP)
                times.append(1000 * (time.perf_counter() - started))
                found_rows = [int(h) for h, _ in found]
                hits.append(found_rows if texts is None else as_distinct(found_rows, texts))
            p50, p95 = np.percentile(times, [50, 95])
            figures.append(
                IndexFigures(
                    index.kind.value,
                    encoder,
                    float(p50),
                    float(p95),
                    agreement(truth, hits, 5),
                    agreement(truth, hits, 10),
                )
            )
    return figures
