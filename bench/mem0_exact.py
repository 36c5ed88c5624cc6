"""`bench.mem0_side`'s truth: exact float search, and the vector indexes measured against it.

The truth of a query is its exact top k by NumPy: the float MiniLM vector of the query (as sent,
tag included) against the float vector of every stored text alone, by inner product (the vectors
are unit length). A side's recall@k is the share of that top k in its own top k, each row named
by its text (a text stored twice is found whichever copy a side returns). It says how
close a search comes to exact vector search over the same texts, not whether it answers the
question (the gold turns say that); a hybrid search that ranks a lexical hit first moves away
from it on purpose.
"""

from __future__ import annotations

import time
from collections import Counter
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
    """Each text's first position in `texts` (both copies of a text stored twice name it by
    the first)."""
    first: dict[str, int] = {}
    return [first.setdefault(text, n) for n, text in enumerate(texts)]


def by_text(rows: Sequence[int], texts: Sequence[str]) -> list[int]:
    """Rows named by their text's first position, in order, copies kept (so a side that breaks
    a tie between two copies of a text the other way still found that text); unknown rows
    (below 0) dropped."""
    first = distinct(texts)
    return [first[r] for r in rows if 0 <= r < len(texts)]


def agreement(truth: Sequence[Sequence[int]], hits: Sequence[Sequence[int]], k: int) -> float:
    """Mean share of each query's exact top `k` found in its own top `k` (as multisets: a text
    twice in the truth counts twice)."""
    if not truth:
        raise ValueError("no queries")
    shares = [
        sum((Counter(t[:k]) & Counter(h[:k])).values()) / len(t[:k])
        for t, h in zip(truth, hits, strict=True)
    ]
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
    approximate_above: int = APPROXIMATE_ABOVE,
) -> list[IndexFigures]:
    """Top-10 p50 and p95 ms (one query at a time) and recall@5/@10 against `truth` of the index
    kind the service builds for this many vectors and of a flat one, with each encoder's query
    vectors (`queries`: encoder name -> one row per query); with `texts`, hits are read
    `by_text` (for a truth read so). `approximate_above`: the size above which the first index
    is IVF (the service's threshold unless told)."""
    ids = [str(n) for n in range(len(vectors))]
    figures: list[IndexFigures] = []
    for flat in (False, True):
        above = len(vectors) + 1 if flat else approximate_above
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
                hits.append(found_rows if texts is None else by_text(found_rows, texts))
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
