"""SearchMemory against its floor, measured in the same run: p50, p95 and floor ratio by size.

For each size (400, 10k and 100k memories by default) a project is filled with the bench's
generated memory texts (`seed_project` of `bench.seeded_project`, run by `seed_in_tree` in a
child Python: up to `--base-texts` embedded with MiniLM, `all` for every one, through the
on-disk embedding cache of `bench.embedding_cache`; the other vectors DERIVED from them; the
output gives the share embedded) and an empty project is registered beside it, in one real
`python -m squirrel_memory` process. Every question is then asked three ways, one after the
other, in an order that changes with each question (`balanced_orders`):

- `search`: SearchMemory (top 10) on the filled project, over gRPC;
- `empty`: SearchMemory on the empty project (gRPC, the service's request path, no embedding);
- `encoder`: the shipped query encoder alone (`embed_query_now`, int8) in this process.

The floor is p50(empty) + p50(encoder); the ratio is p50(search) / floor. What sits above the
floor is the pipeline around the encoder: FAISS, the row reads, BM25, fusion and hand-offs.

Beside the wall-clock times, the CPU time each call costs, which does not count the time a call
waits for a core: for `search` and `empty` the memory service process's CPU time (every thread)
from just before the call to just after its answer, for `encoder` this process's; each summed
over the questions and divided by their number (a mean). The CPU floor is cpu(empty) +
cpu(encoder), the CPU ratio cpu(search) / CPU floor.

Beside it, in this process on the same vectors and the questions' int8 query vectors: the
vector index the service builds at that size (flat below 50k, IVF above) and a flat one, each
searched for the top 10 one query at a time: p50 and p95 ms and two recalls@10. `own`: against
NumPy's exact top 10 for the same int8 query vector, which counts only what the index loses (a
flat index may order equal or nearly equal scores otherwise, so it can read just below 1).
`float`: against NumPy's exact top 10 for the float model's vector of the question (exact
float search, the truth of `bench.mem0_exact`), which counts the int8 query encoder's loss too.
Then, the service stopped, the parts of a search on the filled project in this process
(`bench.search_parts`: encoder, vector index, vector rows, lexical, the whole search), p50 ms.

With `--baseline TREE` (another checkout, e.g. the code before a change) a second service runs
that tree's code on the same memories, asked the same questions, so both are measured under the
same load. The two sides are set up alike: each project is seeded by its own tree's code in a
child Python (this side's too), each service is its own child process, and no side has a fixed
place in the order of the calls: the sides' order turns, the cycle runs backwards and forwards
and its first call rotates, so each side's search follows the encoder (which leaves the next
call's caches cold), its own empty search and the other side's as often as the other side's
search does. The load average (`uptime`) is printed before and after each size.

With `--baseline TREE` the sides are also compared question by question: the median of each
question's difference (this side's call minus the baseline's, measured in the same cycle) with
a 95 % bootstrap interval, the median ratio and the share of questions where this side was
faster (`bench.paired_times`), so a change of a few per cent shows where two p50s of a noisy
machine hide it.

With `--store side-by-side` the filled project holds the texts of `bench.mem0_side`'s
searched store instead (the long conversations' turns, then generated memories' contents; one
project fact per text), every one embedded by the float MiniLM through the embedding cache (a
store of real text read back in seconds once `bench.mem0_side --cached` or an earlier run made
its vectors), both sides written by this tree's code (`--base-texts` does not apply).

Usage: python -m bench.search_floor [--sizes 400,10000,100000] [--queries 150]
       [--base-texts 3000|all] [--baseline TREE] [--store generated|side-by-side]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import structlog

from bench.common import git_repo, percentile, process_cpu_ns, wait_idle
from bench.mem0_cached import cached_vectors, searched_texts, seed_searched
from bench.memory_process import memory_process, wait_model
from bench.paired_times import paired
from bench.search_parts import PartTimes, format_parts, measure_parts
from bench.seeded_project import (
    Vectors,
    base_texts_arg,
    loaded_embedder,
    questions,
    seed_in_tree,
)
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path

WARMUP = 10
THIS_TREE = Path(__file__).resolve().parents[1]
"""This checkout (what `seed_in_tree` runs for this side)."""
TOP = 10
GENERATED = "generated"
SIDE_BY_SIDE = "side-by-side"
Call = Callable[[str], Awaitable[Any]]


@dataclass(frozen=True)
class Timed:
    """A call to time, and the CPU clock (ns) of the process that does its work."""

    call: Call
    cpu_ns: Callable[[], int]


@dataclass(frozen=True)
class Times:
    """Each call's wall-clock milliseconds per text, and its CPU milliseconds per text."""

    millis: list[float]
    cpu: list[float]

    @property
    def cpu_mean(self) -> float:
        return sum(self.cpu) / len(self.cpu)


def load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


@dataclass(frozen=True)
class VectorFigures:
    """One vector index searched in process: its kind, top-10 p50 and p95 ms, recall@10 against
    the exact top 10 of the query vector searched (`recall`) and of the float one
    (`recall_float`, NaN when not measured)."""

    kind: str
    p50: float
    p95: float
    recall: float
    recall_float: float = float("nan")


def exact_ids(vectors: Vectors, query: Vectors) -> set[int]:
    """The exact top 10 rows by inner product (NumPy)."""
    return {int(i) for i in np.argsort(-(vectors @ query), kind="stable")[:TOP]}


def vector_figures(
    vectors: Vectors,
    queries: Vectors,
    model_id: str,
    *,
    flat: bool = False,
    float_queries: Vectors | None = None,
) -> VectorFigures:
    """Top-10 search time (p50 and p95 ms, one query at a time) and recall@10 of the index kind
    the service builds for this many vectors (`flat`: a flat one whatever the size), searched
    with `queries`: against the exact top 10 by NumPy of the same query vectors, and, given
    `float_queries` (the float model's vectors of the same questions, row for row), against
    theirs (exact float search)."""
    ids = [str(n) for n in range(len(vectors))]
    if flat:
        index = FaissIndex(vectors.shape[1], model_id, approximate_above=len(vectors) + 1)
    else:
        index = FaissIndex(vectors.shape[1], model_id)
    index.rebuild(zip(ids, vectors, strict=True))
    times: list[float] = []
    found, found_float = 0, 0
    for n, query in enumerate(queries):
        started = time.perf_counter()
        hits = index.search(query, TOP)
        times.append(1000 * (time.perf_counter() - started))
        got = {int(h) for h, _ in hits}
        found += len(exact_ids(vectors, query) & got)
        if float_queries is not None:
            found_float += len(exact_ids(vectors, float_queries[n]) & got)
    asked = TOP * len(queries)
    return VectorFigures(
        index.kind.value,
        percentile(times, 50),
        percentile(times, 95),
        found / asked,
        float("nan") if float_queries is None else found_float / asked,
    )


@dataclass
class Row:
    """One side's figures at one size."""

    size: int
    side: str
    search: Times
    empty: Times
    encoder: Times
    load_before: str
    load_after: str
    embedded_share: float
    vectors: VectorFigures
    flat: VectorFigures

    @property
    def floor(self) -> float:
        return percentile(self.empty.millis, 50) + percentile(self.encoder.millis, 50)

    @property
    def ratio(self) -> float:
        return percentile(self.search.millis, 50) / self.floor

    @property
    def cpu_floor(self) -> float:
        return self.empty.cpu_mean + self.encoder.cpu_mean

    @property
    def cpu_ratio(self) -> float:
        return self.search.cpu_mean / self.cpu_floor


def saved_vectors(root: Path, embedder: MiniLmEmbedder) -> Vectors:
    """The vectors of the index file a seeding wrote under `root` (the in-process figures'
    vectors), by memory id."""
    index = FaissIndex.load(index_path(str(root)), embedder.dim, embedder.model_id)
    return np.stack([index.vector(name) for name in sorted(index.memory_ids())])


def _search(client: MemoryClient, project_id: str) -> Call:
    async def call(query: str) -> Any:
        return await client.call(
            client.stub.SearchMemory,
            pb.SearchMemoryRequest(project_id=project_id, query=query, top_k=10),
        )

    return call


def _encoder(embedder: MiniLmEmbedder) -> Call:
    async def call(query: str) -> Any:
        return embedder.embed_query_now(query)

    return call


def balanced_orders(sides: int, count: int) -> list[list[int]]:
    """The order of the calls for each of `count` texts, the calls laid out as the encoder (0)
    then each side's search and empty search (`1 + 2 * side`, `2 + 2 * side`).

    A call's cost depends on the call before it (the encoder in this process leaves the caches
    to the next service cold), so a fixed cycle (encoder, this side, the other side) would charge
    one side more whichever code it ran. Here the sides' order turns every `2 * calls` texts,
    the cycle runs backwards every other `calls` texts, and its first call rotates with each
    text: over every `2 * calls * sides` texts each side's search follows the encoder as often
    as every other side's does, its own empty search as often, another side's empty search as
    often.
    """
    calls = 1 + 2 * sides
    orders: list[list[int]] = []
    for n in range(count):
        turn = (n // (2 * calls)) % sides
        cycle = [0]
        for side in [*range(turn, sides), *range(turn)]:
            cycle += [1 + 2 * side, 2 + 2 * side]
        if (n // calls) % 2:
            cycle.reverse()
        start = n % calls
        orders.append(cycle[start:] + cycle[:start])
    return orders


async def timed_rotating(
    calls: Sequence[Timed], texts: Sequence[str], orders: Sequence[Sequence[int]] | None = None
) -> list[Times]:
    """Wall-clock and CPU milliseconds of each call on every text, one call at a time, in the
    order `orders` gives for each text (default: the first call rotating). The CPU clock is
    read just outside the wall-clock marks."""
    times = [Times([], []) for _ in calls]
    for n, text in enumerate(texts):
        order = (
            orders[n] if orders is not None else [(n + k) % len(calls) for k in range(len(calls))]
        )
        for which in order:
            cpu = calls[which].cpu_ns()
            started = time.perf_counter()
            await calls[which].call(text)
            ended = time.perf_counter()
            times[which].cpu.append((calls[which].cpu_ns() - cpu) / 1e6)
            times[which].millis.append(1000 * (ended - started))
    return times


async def measure_size(
    size: int,
    queries: int,
    embedder: MiniLmEmbedder,
    base_texts: int,
    baseline: Path | None,
    store: str = GENERATED,
) -> tuple[list[Row], PartTimes]:
    sides: list[tuple[str, Path | None]] = [("this", None)]
    if baseline is not None:
        sides.append(("baseline", baseline))
    cached = None
    if store == SIDE_BY_SIDE:
        texts = searched_texts(size)
        cached = cached_vectors(texts)
        vectors, share = cached.vectors, 1.0
    with tempfile.TemporaryDirectory() as tmp:
        homes: list[Path] = []
        projects: list[tuple[str, str]] = []
        for n, (_, tree) in enumerate(sides):
            home, full, empty = (Path(tmp) / f"{part}-{n}" for part in ("home", "full", "empty"))
            HomeLayout(home).ensure()
            git_repo(full)
            git_repo(empty)
            if cached is not None:
                await seed_searched(full, texts, cached)
            else:  # each side by its own code in a child Python, the same way
                seed_in_tree(tree or THIS_TREE, full, size, base_texts)
                if tree is None:
                    vectors = saved_vectors(full, embedder)
                    share = min(base_texts, len(vectors)) / len(vectors)
            add_project(HomeLayout(home).projects, full)
            add_project(HomeLayout(home).projects, empty)
            homes.append(home)
            projects.append((str(full), str(empty)))
        asked = [f"{q} ({size})" for q in questions(queries)]
        async with AsyncExitStack() as stack:
            services = [
                await stack.enter_async_context(memory_process(home, tree))
                for home, (_, tree) in zip(homes, sides, strict=True)
            ]
            for service in services:
                await wait_model(service.client)
                wait_idle(service.pid)
            calls = [Timed(_encoder(embedder), time.process_time_ns)]
            for service, (full_id, empty_id) in zip(services, projects, strict=True):
                cpu = partial(process_cpu_ns, service.pid)
                calls += [
                    Timed(_search(service.client, full_id), cpu),
                    Timed(_search(service.client, empty_id), cpu),
                ]
            orders = balanced_orders(len(services), max(WARMUP, len(asked)))
            await timed_rotating(calls, questions(WARMUP), orders)
            before = load()
            timed = await timed_rotating(calls, asked, orders)
            after = load()
        own = [f"{q} (parts {size})" for q in questions(queries)]
        parts = await measure_parts(Path(projects[0][0]), embedder, own, load)
    # After the timed calls: the encoder keeps recent queries, which would cut its time above.
    query_vectors = np.stack([embedder.embed_query_now(q).reshape(-1) for q in asked])
    # the float model's vector of each question alone (the memories' encoder): the float truth
    float_vectors = np.stack([embedder.embed_now([q])[0] for q in asked])
    figures, flat = (
        vector_figures(
            vectors, query_vectors, embedder.model_id, flat=f, float_queries=float_vectors
        )
        for f in (False, True)
    )
    rows = [
        Row(
            size,
            name,
            timed[1 + 2 * n],
            timed[2 + 2 * n],
            timed[0],
            before,
            after,
            share,
            figures,
            flat,
        )
        for n, (name, _) in enumerate(sides)
    ]
    return rows, parts


def format_paired(rows: Sequence[Row]) -> str:
    """Each size's search and empty search, this side against the baseline question by question
    (`bench.paired_times`); "" without a baseline."""
    lines: list[str] = []
    for this in (r for r in rows if r.side == "this"):
        base = next((r for r in rows if r.side == "baseline" and r.size == this.size), None)
        if base is None:
            continue
        for call, mine, theirs in (
            ("search", this.search, base.search),
            ("empty", this.empty, base.empty),
        ):
            found = paired(mine.millis, theirs.millis)
            lines.append(f"{this.size:>7} {call:<6} this - baseline: {found.line()}")
    if not lines:
        return ""
    return "\n".join(["paired, per question (median difference [95% bootstrap interval]):", *lines])


def format_rows(rows: Sequence[Row]) -> str:
    head = (
        f"{'size':>7} {'side':<9} {'search p50':>10} {'p95':>7} {'empty p50':>9} "
        f"{'encoder p50':>11} {'floor':>6} {'ratio':>6} {'cpu search':>10} {'cpu empty':>9} "
        f"{'cpu encoder':>11} {'cpu floor':>9} {'cpu ratio':>9} {'embedded':>8} "
        f"{'index':>5} {'p50':>5} {'p95':>5} {'rec own':>7} {'rec flt':>7} {'flat p50':>8} "
        f"{'p95':>5} {'rec own':>7} {'rec flt':>7}"
        "  load 1/5/15 min (before -> after)"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.size:>7} {r.side:<9} {percentile(r.search.millis, 50):>10.2f} "
            f"{percentile(r.search.millis, 95):>7.2f} {percentile(r.empty.millis, 50):>9.2f} "
            f"{percentile(r.encoder.millis, 50):>11.2f} {r.floor:>6.2f} {r.ratio:>5.2f}x "
            f"{r.search.cpu_mean:>10.2f} {r.empty.cpu_mean:>9.2f} {r.encoder.cpu_mean:>11.2f} "
            f"{r.cpu_floor:>9.2f} {r.cpu_ratio:>8.2f}x "
            f"{100 * r.embedded_share:>7.1f}% {r.vectors.kind:>5} {r.vectors.p50:>5.2f} "
            f"{r.vectors.p95:>5.2f} {r.vectors.recall:>7.3f} {r.vectors.recall_float:>7.3f} "
            f"{r.flat.p50:>8.2f} {r.flat.p95:>5.2f} {r.flat.recall:>7.3f} "
            f"{r.flat.recall_float:>7.3f}  "
            f"{r.load_before} -> {r.load_after}"
        )
    return "\n".join(lines)


async def run(
    sizes: Sequence[int],
    queries: int,
    base_texts: int,
    baseline: Path | None,
    store: str = GENERATED,
) -> tuple[list[Row], list[str]]:
    embedder = loaded_embedder()
    rows: list[Row] = []
    parts: list[str] = []
    for size in sizes:
        found, timed = await measure_size(size, queries, embedder, base_texts, baseline, store)
        parts.append(format_parts(size, timed))
        print(format_rows(found), format_paired(found), parts[-1], sep="\n", flush=True)
        rows += found
    return rows, parts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="400,10000,100000")
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--base-texts", type=base_texts_arg, default=3000, help="a count or all")
    parser.add_argument("--baseline", type=Path, default=None, help="another Squirrel tree")
    parser.add_argument(
        "--store",
        choices=(GENERATED, SIDE_BY_SIDE),
        default=GENERATED,
        help="generated memories, or the side-by-side's texts, every one embedded (cached)",
    )
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sizes = [int(s) for s in args.sizes.split(",")]
    rows, parts = asyncio.run(run(sizes, args.queries, args.base_texts, args.baseline, args.store))
    print(
        "times in ms; floor = empty p50 + encoder p50; ratio = search p50 / floor;"
        " cpu search / empty / encoder = mean CPU ms per call (the service process's, every"
        " thread, for search and empty; this process's for the encoder); cpu floor = cpu empty"
        " + cpu encoder; cpu ratio = cpu search / cpu floor;"
        " embedded = share of vectors embedded (the rest derived); index / p50 / p95 = the"
        " service's index kind in process, searched with the int8 query vectors, top-10 p50 and"
        " p95; rec own = its recall@10 against NumPy's exact top 10 for the same int8 query"
        " vector (the index's loss alone); rec flt = against NumPy's exact top 10 for the float"
        " model's query vector (exact float search: the index's and the int8 encoder's loss);"
        " flat p50 / p95 / rec own / rec flt = the same of a flat index on the same vectors;"
        " in process = bench.search_parts"
    )
    print(format_rows(rows), format_paired(rows), *parts, sep="\n")


if __name__ == "__main__":
    main()
