"""An IVF index's first-pass candidates scored again two ways, on the same questions, interleaved.

`FaissIndex` searches an IVF index's probed lists first in a compact copy (its 4-bit codes above
`COMPACT_ABOVE` vectors, `ivf_fast_scan`; else its int8 copy), then scores the best candidates
again exactly. It did so by walking the probed lists again with a candidate filter (FAISS's own
scan, `IDSelectorBatch`); it now reconstructs the candidates' vectors and scores them in one
`faiss.knn` call. On a kept project (`bench.search_stages --keep DIR`, 100,000 memories: an IVF
index) each question is embedded with the shipped query encoder, its probed lists and first-pass
candidates (the codes' 4k + 32, or the int8 copy's) found once, then both ways score them, the
order alternating:

- `filtered scan`: the IVF index's `search_preassigned` over the probed lists with the candidates
  as a filter (the code before, written out here);
- `reconstructed`: the candidates' vectors reconstructed and scored by `faiss.knn` (the code
  now, `FaissIndex._coarse_search`).

It prints how many questions got the same top k (ids and scores to the bit) both ways, each
way's p50 and p95 thread CPU ms, with the load before and after, and beside them the answers'
recall@10: the share of NumPy's exact top 10 of every vector (the same int8 query vector) in
their top 10.

Usage: python -m bench.ivf_rescore PROJECT [--queries 200] [--k 50]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

from bench.common import percentile
from bench.seeded_project import loaded_embedder, questions
from squirrel_memory.index import FaissIndex, IndexKind
from squirrel_memory.index.coarse import probes_of
from squirrel_memory.index.faiss_index import IVF_COARSE_WIDTHS, IVF_COMPACT_WIDTH
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy
from squirrel_memory.indexer import index_path

Scored = tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]
TOP = 10


def filtered_scan(ivf: Any, query: Any, k: int, probes: Any, among: Any) -> Scored:
    """The probed lists scanned by the IVF index itself, only `among` scored (the code before)."""
    scores = np.empty((1, k), np.float32)
    int_ids = np.empty((1, k), np.int64)
    selector = faiss.IDSelectorBatch(among)
    params = faiss.SearchParametersIVF()
    params.sel, params.nprobe = selector, probes[1].shape[1]
    lists = np.ascontiguousarray(probes[1], dtype=np.int64)
    distances = np.ascontiguousarray(probes[0], dtype=np.float32)
    ivf.search_preassigned_c(
        1,
        faiss.swig_ptr(query),
        k,
        faiss.swig_ptr(lists),
        faiss.swig_ptr(distances),
        faiss.swig_ptr(scores),
        faiss.swig_ptr(int_ids),
        False,
        params,
    )
    del selector
    return scores, int_ids


def reconstructed(ivf: Any, query: Any, k: int, among: Any) -> Scored:
    """The candidates' own vectors scored by one knn call (the code now)."""
    picked = np.sort(among)
    rows = np.asarray(ivf.reconstruct_batch(picked), np.float32)
    scores, found = faiss.knn(query, rows, k, metric=faiss.METRIC_INNER_PRODUCT)
    return scores, picked[found]


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=50)
    args = parser.parse_args(argv)
    embedder = loaded_embedder()
    index = FaissIndex.load(index_path(str(args.project)), embedder.dim, embedder.model_id)
    if index.kind is not IndexKind.IVF:  # a bench looks inside
        raise SystemExit("not an IVF index (100,000 memories make one)")
    ivf, k = index._index, args.k
    codes = index._compact if isinstance(index._compact, IvfFastScanCopy) else None
    copy = index._coarse
    if codes is None and copy is None:
        raise SystemExit("an IVF index with neither codes nor an int8 copy")
    vectors, held = index._all_vectors()
    times: dict[str, list[float]] = {"filtered scan": [], "reconstructed": []}
    hits: dict[str, int] = dict.fromkeys(times, 0)
    same = asked = 0
    before = load()
    faiss.omp_set_num_threads(1)
    for n, text in enumerate(questions(args.queries)):
        query = index._checked_vector(embedder.embed_query_now(f"{text} (rescore)")).reshape(1, -1)
        if codes is not None:
            probes = codes.probes(query)
            times_k, plus = IVF_COMPACT_WIDTH
            candidates = codes.candidates(query, times_k * k + plus, probes)
        else:
            assert copy is not None
            probes = probes_of(ivf, query)
            times_k, plus = IVF_COARSE_WIDTHS[0]  # the first set a search asks for
            found = copy.candidates(query, times_k * k + plus, probes)
            if found is None:
                continue
            candidates = found.int_ids
        answers: dict[str, Scored] = {}
        ways = list(times)
        for way in ways[n % 2 :] + ways[: n % 2]:
            started = time.thread_time()
            if way == "filtered scan":
                answers[way] = filtered_scan(ivf, query, k, probes, candidates)
            else:
                answers[way] = reconstructed(ivf, query, k, candidates)
            times[way].append(1000 * (time.thread_time() - started))
        (s1, i1), (s2, i2) = answers["filtered scan"], answers["reconstructed"]
        asked += 1
        same += bool(np.array_equal(s1, s2) and np.array_equal(i1, i2))
        exact = set(held[np.argsort(-(vectors @ query[0]), kind="stable")[:TOP]].tolist())
        for way, (_, found_ids) in answers.items():
            hits[way] += len(exact & set(found_ids[0][:TOP].tolist()))
    after = load()
    first = "4-bit codes" if codes is not None else "int8 copy"
    print(f"{len(index)} vectors, IVF, first pass {first}, top {k}")
    print(f"load 1/5/15 min {before} -> {after}")
    print(f"the same top {k} (ids and scores to the bit): {same} of {asked} questions")
    for way, values in times.items():
        p50, p95 = percentile(values, 50), percentile(values, 95)
        recall = hits[way] / (TOP * asked) if asked else 0.0
        print(f"{way:<14} thread CPU ms p50 {p50:.3f} p95 {p95:.3f} recall@{TOP} {recall:.3f}")


if __name__ == "__main__":
    main()
