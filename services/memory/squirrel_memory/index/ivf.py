"""The IVF-Flat index a large project's vectors are kept in: when it is built, how many lists
it has and probes, and when it is trained again."""

from __future__ import annotations

import math
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from squirrel_memory.index.base import Vector

# Measured (bench/index_bench.py, 384-d, k=10, one thread, 2 vCPU): exact search p95 is 4-5 ms
# at 50k, 7-17 ms at 100k and 13-14 ms at 150k, and with the other core busy it reached
# 19-22 ms at 75k-100k. Above this count the index is rebuilt as IVF-Flat (about 1 ms p95 at
# 100k), which supports remove_ids; HNSW cannot delete and took 1.5-3x longer to build.
APPROXIMATE_ABOVE = 50_000
# IVF probes this share of its nlist = 4*sqrt(n) lists. Recall@10 against exact search was 1.0
# for queries near stored vectors and 0.82 for queries unrelated to every vector (where the
# true top 10 are near-ties anyway); 20 % probes gave 0.92 at twice the latency.
IVF_PROBE_FRACTION = 0.1
# An IVF index is retrained once it has grown this many times beyond its training size.
IVF_RETRAIN_GROWTH = 2.0


def built_ivf(vectors: Vector, int_ids: npt.NDArray[np.int64], threads: int) -> Any:
    """An IVF-Flat index (inner product, a hashtable direct map) of `vectors`, trained on them
    (a fixed sample of 256 per list when there are more) with `threads` OpenMP threads; one
    thread is set again afterwards."""
    count, dim = vectors.shape
    nlist = max(16, round(4 * math.sqrt(count)))
    quantizer = faiss.IndexFlatIP(dim)
    ivf = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
    ivf.nprobe = max(1, math.ceil(IVF_PROBE_FRACTION * nlist))
    faiss.omp_set_num_threads(threads)
    try:
        sample = vectors
        if count > 256 * nlist:
            rng = np.random.default_rng(0)
            sample = vectors[rng.choice(count, 256 * nlist, replace=False)]
        ivf.train(sample)
        ivf.set_direct_map_type(faiss.DirectMap.Hashtable)  # type: ignore[attr-defined]
        ivf.add_with_ids(vectors, int_ids)
    finally:
        faiss.omp_set_num_threads(1)
    return ivf
