"""What each of a search's two indexes costs, and its alternatives, in process, by store size.

For each size (400, 10k and 100k memories by default) a project is filled as `bench.search_stages`
fills it (`seed_project`, up to `--base-texts` vectors embedded, the rest derived; `--keep DIR`
keeps the projects for the next run) and opened in this process. Each question (one with a word
no memory holds, as the search benches ask) is put to every way below, the order rotating; before
each timed call the shipped query encoder embeds another spelling of the question, so the caches
hold what they hold in a search (the encoder's weights, not the index).

The vector index (the pool of 50 a search asks for, the int8 query vector):

- `shipped`: `FaissIndex.search`, as a search calls it (one OpenMP thread; above 2,048 vectors
  the int8 first pass, its candidates scored again exactly; above 4,096 the 4-bit codes' pass
  instead, its 2k + 32 candidates scored exactly; IVF above 50,000);
- `baseline` (with `--baseline TREE`): the same index files searched by TREE's `FaissIndex`
  (its `index/faiss_index.py` loaded beside this tree's, its imports resolved in this tree, so
  only a tree whose other index modules this one still has), asked in the same rotation;
- `int8 pass`: the int8 first pass alone (2k + 32 candidates from the int8 copy; 4k + 32 of
  the probed lists for IVF, the quantizer's search included; an index with 4-bit codes keeps no
  int8 copy, so one is made for it);
- `4-bit pass`: the 4-bit codes' pass alone (a flat index's 2k + 32 candidates; an IVF index's
  4k + 32 of its codes' probed lists, the quantizer's search included), where the index holds
  them;
- `quantizer`: an IVF index's quantizer search alone (the lists its codes probe);
- `int8 way`: at an IVF index with 4-bit codes, the search as it ran before them
  (`first_pass.int8_answer`: the int8 pass over the IVF index's own probed lists, its 4k + 32
  candidates scored exactly, wider or the lists' own scan when they cannot vouch), on an int8
  copy made here: the code before, in the same process and rotation (a `--baseline` tree's
  `faiss_index.py` would run on this tree's layout, which makes the codes);
- `ivf here`: at a flat index above 4,096 vectors (`COMPACT_ABOVE`), the same memories in the
  index the service builds above 50,000 (IVF, its 4-bit codes in its lists, its candidates
  scored exactly), built in the bench: flat against IVF at a size where either could serve;
- `float flat`: a float32 `IndexFlatIP` of the same vectors scanned in full (exact, no copy);
- `ivf own`: the IVF index's own search (its probed lists in float32), at the IVF sizes;
- each also with two OpenMP threads (`, 2 threads`), the process's CPU counted (every thread).

The lexical side (SQLite store, the in-memory BM25 index built):

- `tokenizer`: the question's words to FTS5 tokens (a SQLite round trip for a word not seen);
- `bm25`: the in-memory index's top 50 of those tokens (`IndexState.best`);
- `lexical read`: the store's BM25 read for the pool with its memories, as a search runs it
  (`search_fts_memories`: one read transaction, catch-up, BM25, rows through the row cache);
- `fts5 query`: the same top 50 asked of FTS5 itself (`MATCH` + `bm25()` + the rows in one SQL
  query, MaxScore-pruned), the path the in-memory index replaced, which still answers when the
  index cannot.

Per way: CPU ms p50 and p95 (the calling thread's; the process's for two threads) and wall p50;
for the ways that answer a top k (shipped, baseline, int8 way, ivf here, float flat, ivf own)
recall@10:
the share of the exact top 10 in the top 10 of their pool of 50, against NumPy's exact search
of every vector with the same int8 query vector (`rec own`: what the index loses) and with the float
model's vector of the question (`rec flt`: exact float search, which counts the int8 query
encoder's loss too).

Usage: python -m bench.index_costs [--sizes 400,10000,100000] [--queries 150] [--keep DIR]
       [--base-texts 3000|all] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import logging
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import faiss
import numpy as np
import structlog

from bench.common import percentile
from bench.search_floor import load
from bench.search_stages import seeded
from bench.seeded_project import base_texts_arg, loaded_embedder, questions
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.index import FaissIndex, IndexKind
from squirrel_memory.index.coarse import Int8Copy, probes_of
from squirrel_memory.index.faiss_index import (
    COARSE_WIDTHS,
    COMPACT_WIDTH,
    IVF_COARSE_WIDTHS,
    IVF_COMPACT_WIDTH,
)
from squirrel_memory.index.first_pass import COMPACT_ABOVE, int8_answer
from squirrel_memory.index.ivf_fast_scan import IvfFastScanCopy
from squirrel_memory.indexer import index_path
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.search_terms import match_terms
from squirrel_memory.storage.sqlite.search import fts_match_expression, ranked_rows

POOL = 50
LEXICAL_BUILD_SECONDS = 600.0
Way = Callable[[int], object]
"""One way, called with the question's number."""


TOP = 10


@dataclass
class Times:
    cpu: list[float]
    wall: list[float]
    recall: float = float("nan")
    recall_float: float = float("nan")


@dataclass(frozen=True)
class SizeCosts:
    size: int
    kind: str
    ways: dict[str, Times]
    load_before: str
    load_after: str


def _threads(count: int, way: Way) -> Way:
    def call(n: int) -> object:
        faiss.omp_set_num_threads(count)
        try:
            return way(n)
        finally:
            faiss.omp_set_num_threads(1)

    return call


def baseline_index(tree: Path) -> Any:
    """TREE's `FaissIndex` class: its `index/faiss_index.py` loaded as a module of its own (its
    imports of the other index modules resolve in this tree)."""
    path = tree / "services/memory/squirrel_memory/index/faiss_index.py"
    spec = importlib.util.spec_from_file_location("baseline_faiss_index", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"no index module at {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FaissIndex


def vector_ways(
    index: FaissIndex, queries: np.ndarray, baseline: Any = None, *, ivf_above: int = COMPACT_ABOVE
) -> dict[str, tuple[Way, bool]]:
    """Each vector way and whether its CPU is the process's (more than one thread); `baseline`:
    another tree's index of the same files; a flat index of more than `ivf_above` vectors is
    also built as IVF (`ivf here`)."""
    ivf = index.kind is IndexKind.IVF
    inner: Any = index._index
    # An index with 4-bit codes keeps no int8 copy: the int8 pass is timed on one made here.
    copy: Any = index._coarse
    if copy is None:
        copy = Int8Copy(index.dim, ivf=inner) if ivf else Int8Copy(index.dim, *index._all_vectors())
    times, plus = (IVF_COARSE_WIDTHS if ivf else COARSE_WIDTHS)[0]
    wide = min(times * POOL + plus, len(index))

    def shipped(n: int) -> object:
        return index.search(queries[n], POOL)

    def int8_pass(n: int) -> object:
        query = queries[n : n + 1]
        return copy.candidates(query, wide, probes_of(inner, query) if ivf else None)

    ways: dict[str, tuple[Way, bool]] = {"shipped": (shipped, False)}
    if baseline is not None:

        def before(n: int) -> object:
            return baseline.search(queries[n], POOL)

        ways["baseline"] = (before, False)
    ways["int8 pass"] = (int8_pass, False)
    ways["int8 pass, 2 threads"] = (_threads(2, int8_pass), True)
    codes: Any = index._compact
    if isinstance(codes, IvfFastScanCopy):
        ivf_times, ivf_plus = IVF_COMPACT_WIDTH

        def ivf_compact_pass(n: int) -> object:
            query = queries[n : n + 1]
            return codes.candidates(query, ivf_times * POOL + ivf_plus, codes.probes(query))

        def quantizer(n: int) -> object:
            return codes.probes(queries[n : n + 1])

        def int8_way(n: int) -> object:
            return int8_answer(
                inner,
                copy,
                queries[n : n + 1],
                POOL,
                count=len(index),
                widths=IVF_COARSE_WIDTHS,
                rows=None,
            )

        ways["int8 way"] = (int8_way, False)
        ways["4-bit pass"] = (ivf_compact_pass, False)
        ways["quantizer"] = (quantizer, False)
    elif codes is not None:
        compact_times, compact_plus = COMPACT_WIDTH

        def compact_pass(n: int) -> object:
            return codes.candidates(queries[n], compact_times * POOL + compact_plus)

        ways["4-bit pass"] = (compact_pass, False)
    if ivf:

        def ivf_own(n: int) -> object:
            return inner.search(queries[n : n + 1], POOL)

        ways["ivf own"] = (ivf_own, False)
        ways["ivf own, 2 threads"] = (_threads(2, ivf_own), True)
    vectors, held = index._all_vectors()
    if not ivf and len(index) > ivf_above:
        # The index the service builds above `APPROXIMATE_ABOVE` (IVF, its 4-bit codes in its
        # lists), built here of the same memories: flat against IVF at a size both could serve.
        names = [index._names[int(i)] for i in held]
        here = FaissIndex(index.dim, index.model_id, approximate_above=len(index) - 1)
        here.rebuild(zip(names, vectors, strict=True))

        def ivf_here(n: int) -> object:
            return here.search(queries[n], POOL)

        ways["ivf here"] = (ivf_here, False)
    flat = faiss.IndexIDMap2(faiss.IndexFlatIP(index.dim))
    flat.add_with_ids(vectors, held)

    def float_flat(n: int) -> object:
        return flat.search(queries[n : n + 1], POOL)

    ways["float flat"] = (float_flat, False)
    ways["float flat, 2 threads"] = (_threads(2, float_flat), True)
    return ways


def top_ids(index: FaissIndex, answer: object) -> list[int]:
    """The int ids of an answer's top 10: hits (memory ids) or FAISS's (scores, ids)."""
    if isinstance(answer, list):
        return [index._ids[name] for name, _ in answer[:TOP]]
    _, found = cast(tuple[Any, Any], answer)
    return [int(i) for i in found[0][:TOP]]


def recalls(
    index: FaissIndex,
    ways: dict[str, tuple[Way, bool]],
    queries: np.ndarray,
    float_queries: np.ndarray,
    times: dict[str, Times],
) -> None:
    """Set each answering way's recall@10 against NumPy's exact top 10 of every vector, for the
    int8 query vector and for the float one (outside the timed calls)."""
    vectors, held = index._all_vectors()
    truth = [
        [set(held[np.argsort(-(vectors @ q), kind="stable")[:TOP]].tolist()) for q in qs]
        for qs in (queries, float_queries)
    ]
    for name in ("shipped", "baseline", "int8 way", "ivf here", "float flat", "ivf own"):
        if name not in ways:
            continue
        found = [set(top_ids(index, ways[name][0](n))) for n in range(len(queries))]
        own, flt = ([len(f & t) for f, t in zip(found, sets, strict=True)] for sets in truth)
        times[name].recall = sum(own) / (TOP * len(queries))
        times[name].recall_float = sum(flt) / (TOP * len(queries))


def lexical_ways(
    store: SqliteStore, conn: sqlite3.Connection, texts: Sequence[str], project_id: str
) -> dict[str, tuple[Way, bool]]:
    lexical: Any = store._lexical
    state = lexical._state
    tokenizer = lexical._tokenizer
    terms = [match_terms(t) for t in texts]
    tokens = [tokenizer.tokens(t) or [] for t in terms]
    fresh = [[*t, f"unseen{n}way"] for n, t in enumerate(terms)]

    def tokenize(n: int) -> object:
        return tokenizer.tokens(fresh[n])

    def bm25(n: int) -> object:
        return state.best(tokens[n], None, POOL)

    read = store._fts_read

    def lexical_read(n: int) -> object:
        run = read(project_id, texts[n], None, POOL)
        return run(conn) if run is not None else None

    def fts5(n: int) -> object:
        expression = fts_match_expression(texts[n])
        if expression is None:
            return None
        conn.execute("BEGIN")
        try:
            return ranked_rows(conn, project_id, expression, None, POOL)
        finally:
            conn.execute("COMMIT")

    return {
        "tokenizer": (tokenize, False),
        "bm25": (bm25, False),
        "lexical read": (lexical_read, False),
        "fts5 query": (fts5, False),
    }


def timed(
    ways: dict[str, tuple[Way, bool]], embedder: MiniLmEmbedder, texts: Sequence[str]
) -> dict[str, Times]:
    """Every way on every question, the order rotating; the encoder runs before each call."""
    out = {name: Times([], []) for name in ways}
    names = list(ways)
    for n, text in enumerate(texts):
        for k in range(len(names)):
            name = names[(n + k) % len(names)]
            way, whole_process = ways[name]
            embedder.embed_query_now(f"{text} ({name})")
            clock = time.process_time if whole_process else time.thread_time
            cpu, wall = clock(), time.perf_counter()
            way(n)
            out[name].wall.append(1000 * (time.perf_counter() - wall))
            out[name].cpu.append(1000 * (clock() - cpu))
    return out


async def measure(
    size: int,
    texts: Sequence[str],
    embedder: MiniLmEmbedder,
    keep: Path,
    base_texts: int,
    baseline: Path | None = None,
) -> SizeCosts:
    project = await seeded(keep, size, embedder, base_texts)
    path = index_path(str(project))
    index = FaissIndex.load(path, embedder.dim, embedder.model_id)
    before_index = None
    if baseline is not None:
        before_index = baseline_index(baseline).load(path, embedder.dim, embedder.model_id)
    store = await SqliteStore.open(str(project))
    try:
        await asyncio.to_thread(store.wait_lexical_index, LEXICAL_BUILD_SECONDS)
        queries = np.stack([embedder.embed_query_now(t).reshape(-1) for t in texts])
        # The vectors as the index searches with them (unit length, float32).
        queries = np.stack([index._checked_vector(q) for q in queries])
        float_queries = np.stack([index._checked_vector(embedder.embed_now([t])[0]) for t in texts])

        def run(conn: sqlite3.Connection) -> tuple[str, dict[str, Times], str]:
            ways = {
                **vector_ways(index, queries, before_index),
                **lexical_ways(store, conn, texts, str(project)),
            }
            timed(ways, embedder, texts[:10])  # warm-up
            before = load()
            found = timed(ways, embedder, texts)
            after = load()
            recalls(index, ways, queries, float_queries, found)
            return before, found, after

        faiss.omp_set_num_threads(1)
        before, found, after = await store._db.read(run)
    finally:
        await store.close()
    return SizeCosts(size, index.kind.value, found, before, after)


def format_costs(rows: Sequence[SizeCosts]) -> str:
    head = (
        f"{'size':>7} {'index':>5} {'way':<22} {'cpu p50':>8} {'cpu p95':>8} {'wall p50':>8} "
        f"{'rec own':>7} {'rec flt':>7}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.size:>7} {r.kind:>5} load 1/5/15 min {r.load_before} -> {r.load_after}")
        for name, t in r.ways.items():
            lines.append(
                f"{r.size:>7} {r.kind:>5} {name:<22} {percentile(t.cpu, 50):>8.3f} "
                f"{percentile(t.cpu, 95):>8.3f} {percentile(t.wall, 50):>8.3f} "
                f"{t.recall:>7.3f} {t.recall_float:>7.3f}"
            )
    return "\n".join(lines)


async def run(
    sizes: Sequence[int], queries: int, keep: Path, base_texts: int, baseline: Path | None = None
) -> list[SizeCosts]:
    embedder = loaded_embedder()
    out = []
    for size in sizes:
        texts = [f"{q} (costs {size})" for q in questions(queries)]
        out.append(await measure(size, texts, embedder, keep, base_texts, baseline))
        print(format_costs(out[-1:]), flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="400,10000,100000")
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--base-texts", type=base_texts_arg, default=3000, help="a count or all")
    parser.add_argument("--keep", type=Path, default=None, help="keep the filled projects here")
    parser.add_argument("--baseline", type=Path, default=None, help="another Squirrel tree")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep if args.keep is not None else Path(tmp)
        rows = asyncio.run(run(sizes, args.queries, keep, args.base_texts, args.baseline))
    print(
        "CPU ms: the calling thread's (the process's, every thread, for `2 threads`); the "
        f"encoder ran before each call; {os.cpu_count()} cores; rec own / rec flt = recall@10"
        " against exact search with the int8 / the float query vector"
    )
    print(format_costs(rows))


if __name__ == "__main__":
    main()
