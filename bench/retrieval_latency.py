"""SearchMemory and GetTaskContext latency via gRPC against a real memory service process.

For each size (1k, 10k, 100k memories) a fresh project is filled straight through the store
(`apply_processing_result`, ADD_NEW decisions in large transactions) and its FAISS index file is
written (`bench.seeded_project`) before `python -m squirrel_memory` starts on a private home
(`bench.memory_process`). Up to `--base-texts`
distinct memory texts are embedded with the real MiniLM model (`--base-texts all`: every one),
through the on-disk cache of `bench.embedding_cache` so a second run reads them back; the
vectors of the remaining memories are DERIVED (normalised sum of two embedded vectors plus
noise), which the output says.
Once the model is loaded (`GetProcessingStatus.embedder_loading` false) and the service is idle,
each RPC is timed over realistic developer questions. Also reported: index build time, seconds
to SERVING, and the service's RSS idle (model loaded) and after the queries.

Targets: search p95 <= 8 ms at 10k and <= 30 ms at 100k; task context p95 <= 15 ms at 10k.

With `--baseline TREE` (a checkout of another version of Squirrel, e.g. `git worktree add`), the
same memories are written to a second project by that tree's own code (so its schema version
fits) and a second memory service runs that tree's code beside this one; every question goes to
both, alternating which goes first, so both see the same load, and the table adds the baseline's
figures and the ratio baseline / this.

With `--questions intents` the questions are short questions of a kind search reads an intent
in ("what is this repository?", "how do I run the tests?": `retrieval/intents.py`), the memories
answering it read beside the ranked ones; they repeat, so the query encoder's cache answers all
but the first of each on both sides alike, and the times are the rest of the search.

Usage: python -m bench.retrieval_latency [--sizes 1000,10000,100000] [--queries 200]
       [--base-texts 3000|all] [--baseline TREE] [--questions developer|intents]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from bench.common import (
    Figure,
    git_repo,
    latency_figures,
    percentile,
    print_table,
    rss_mib,
    wait_idle,
)
from bench.memory_process import memory_process, wait_model
from bench.seeded_project import (
    WRITE_BATCH,
    SeedReport,
    base_texts_arg,
    loaded_embedder,
    questions,
    seed_in_tree,
    seed_project,
)
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_memory.embedding.minilm import MiniLmEmbedder

__all__ = [
    # A newer tree's `seed_in_tree` seeds this tree as its baseline by importing these two from
    # here (`bench.seeded_project._SEED_IN_TREE`): this name must hold them in every version.
    # Their home is `bench.seeded_project`; every bench imports them from there.
    "loaded_embedder",
    "seed_project",
]

SECTION = "retrieval"
TARGETS = {
    ("SearchMemory", 10_000): 8.0,
    ("SearchMemory", 100_000): 30.0,
    ("GetTaskContext", 10_000): 15.0,
}
ACTIVE_FILES = (
    ("src/api/routes.py",),
    ("src/auth/tokens.py", "tests/test_auth.py"),
    (),
    ("src/db/models.py",),
)


async def timed(call: Callable[[Any], Awaitable[Any]], requests: Sequence[Any]) -> list[float]:
    """Milliseconds per call, one at a time."""
    times: list[float] = []
    for request in requests:
        started = time.perf_counter()
        await call(request)
        times.append(1000 * (time.perf_counter() - started))
    return times


async def timed_pairs(
    calls: Sequence[Callable[[Any], Awaitable[Any]]], requests: Sequence[Any]
) -> list[list[float]]:
    """Milliseconds per call for each of `calls` on every request, one call at a time; which
    call goes first rotates with each request, so no side always runs on a warmer machine."""
    times: list[list[float]] = [[] for _ in calls]
    for n, request in enumerate(requests):
        for k in range(len(calls)):
            side = (n + k) % len(calls)
            started = time.perf_counter()
            await calls[side](request)
            times[side].append(1000 * (time.perf_counter() - started))
    return times


@dataclass
class _Side:
    """One memory service under test: its name in the table, home, project and code tree."""

    name: str
    home: Path
    root: Path
    tree: Path | None


def _rpc_calls(
    client: MemoryClient, project_id: str
) -> tuple[Callable[[Any], Awaitable[Any]], Callable[[Any], Awaitable[Any]]]:
    async def search(n_query: tuple[int, str]) -> Any:
        return await client.call(
            client.stub.SearchMemory,
            pb.SearchMemoryRequest(project_id=project_id, query=n_query[1], top_k=10),
        )

    async def context(n_query: tuple[int, str]) -> Any:
        n, query = n_query
        return await client.call(
            client.stub.GetTaskContext,
            pb.GetTaskContextRequest(
                project_id=project_id,
                task_description=query,
                active_file_paths=list(ACTIVE_FILES[n % len(ACTIVE_FILES)]),
            ),
        )

    return search, context


def _with_target(found: list[Figure], rpc: str, size: int) -> list[Figure]:
    target = TARGETS.get((rpc, size))
    if target is None:
        return found
    p95 = found[1]
    verdict = "meets" if p95.value <= target else "MISSES"
    note = f"{p95.note}; {verdict} target <= {target:g} ms"
    return [found[0], Figure(p95.section, p95.measure, p95.value, p95.unit, note)]


async def measure_size(
    size: int,
    queries: int,
    embedder: MiniLmEmbedder,
    base_texts: int,
    baseline: Path | None = None,
    asked: str = "developer",
) -> list[Figure]:
    label = f"{size // 1000}k"
    with tempfile.TemporaryDirectory() as tmp:
        sides = [_Side("", Path(tmp) / "home", Path(tmp) / "repo", None)]
        if baseline is not None:
            sides.append(_Side("baseline ", Path(tmp) / "home-b", Path(tmp) / "repo-b", baseline))
        seed: SeedReport | None = None
        for side in sides:
            HomeLayout(side.home).ensure()
            git_repo(side.root)
            if side.tree is None:
                seed, _ = await seed_project(side.root, size, embedder, base_texts)
            else:
                seed_in_tree(side.tree, side.root, size, base_texts)
            add_project(HomeLayout(side.home).projects, side.root)
        assert seed is not None
        derived = (
            f"{seed.derived} of {seed.memories} vectors DERIVED from {seed.embedded} embedded"
            if seed.derived
            else f"all {seed.memories} vectors embedded with MiniLM"
        )
        figures = [
            Figure(SECTION, f"{label}: store write (ADD_NEW)", seed.memories / seed.write_seconds,
                   "memories/s", f"{WRITE_BATCH} per transaction"),
            Figure(SECTION, f"{label}: MiniLM embedding", seed.embedded / seed.embed_seconds,
                   "texts/s", derived),
            Figure(SECTION, f"{label}: index build + save", seed.index_build_seconds, "s",
                   f"{seed.index_kind}"),
        ]  # fmt: skip
        async with AsyncExitStack() as stack:
            services = [
                await stack.enter_async_context(memory_process(side.home, side.tree))
                for side in sides
            ]
            waits = [await wait_model(service.client) for service in services]
            for service in services:
                wait_idle(service.pid)
            idle = [rss_mib(service.pid) for service in services]
            calls = [
                _rpc_calls(service.client, str(side.root))
                for service, side in zip(services, sides, strict=True)
            ]
            texts = list(enumerate(_asked(asked, queries)))
            warm = list(enumerate(questions(10), start=queries))  # caches, first-use paths
            await timed_pairs([c[0] for c in calls], warm)
            await timed_pairs([c[1] for c in calls], warm)
            search_ms = await timed_pairs([c[0] for c in calls], texts)
            context_ms = await timed_pairs([c[1] for c in calls], texts)
            for n, (side, service) in enumerate(zip(sides, services, strict=True)):
                tag = f"{label}: {side.name}"
                figures += [
                    Figure(SECTION, f"{tag}start to SERVING", service.serving_seconds, "s"),
                    Figure(SECTION, f"{tag}SERVING to model loaded", waits[n], "s"),
                    Figure(SECTION, f"{tag}memory RSS idle, model loaded", idle[n], "MiB"),
                    Figure(SECTION, f"{tag}memory RSS after queries", rss_mib(service.pid), "MiB"),
                ]
                for rpc, millis in (("SearchMemory", search_ms), ("GetTaskContext", context_ms)):
                    found = latency_figures(SECTION, f"{tag}{rpc} gRPC", millis[n])
                    figures += _with_target(found, rpc, size) if n == 0 else found
            if baseline is not None:
                figures += _ratios(label, search_ms, context_ms)
    return figures


def _ratios(
    label: str, search_ms: list[list[float]], context_ms: list[list[float]]
) -> list[Figure]:
    """Baseline / this tree for p50 and p95 (above 1: this tree is faster)."""
    out: list[Figure] = []
    for rpc, millis in (("SearchMemory", search_ms), ("GetTaskContext", context_ms)):
        for q in (50, 95):
            ratio = percentile(millis[1], q) / percentile(millis[0], q)
            out.append(
                Figure(SECTION, f"{label}: {rpc} p{q} baseline / this", ratio, "x",
                       "same questions, alternating order")
            )  # fmt: skip
    return out


#: Short questions of the kinds search reads an intent in (`--questions intents`).
INTENT_QUESTIONS = (
    "what is this repository?",
    "what is this project?",
    "what language is it written in?",
    "how do I run the tests?",
    "how do I build it?",
    "how do I start the app?",
    "where are the tests?",
    "how should commits be written?",
    "how long should answers be?",
    "what does this codebase do?",
)


def _asked(kind: str, count: int) -> list[str]:
    if kind == "intents":
        return [INTENT_QUESTIONS[i % len(INTENT_QUESTIONS)] for i in range(count)]
    return questions(count)


async def run(
    sizes: Sequence[int],
    queries: int,
    base_texts: int,
    baseline: Path | None = None,
    asked: str = "developer",
) -> list[Figure]:
    """Every figure of this benchmark, size by size."""
    embedder = loaded_embedder()
    figures: list[Figure] = []
    for size in sizes:
        figures += await measure_size(size, queries, embedder, base_texts, baseline, asked)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--base-texts", type=base_texts_arg, default=3000, help="a count or all")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="another Squirrel tree to run side by side"
    )
    parser.add_argument("--questions", choices=("developer", "intents"), default="developer")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sizes = [int(s) for s in args.sizes.split(",")]
    figures = run(sizes, args.queries, args.base_texts, args.baseline, args.questions)
    print_table(asyncio.run(figures))


if __name__ == "__main__":
    main()
