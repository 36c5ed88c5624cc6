"""Searches right after an ingest write against searches with nothing written before them.

While a session runs, its events reach the memory service in small batches, each one write
transaction on the project's file, and a search falls between them. This bench seeds a project
(`seed_project` of `bench.seeded_project`: `--size` generated memories, up to
`--base-texts` of them embedded, the other vectors derived), opens its store, vector index and
`Retriever` in its own process (no gRPC, as `bench.search_parts`) and asks each question one of
two ways, in blocks of ten questions, the ways alternating block by block:

- `after events`: `append_events` of one new batch of three events (not timed), then the
  search (top 10);
- `quiet`: the search alone, nothing written since the block began.

Each question is asked once, with the size in its spelling, so the encoder's cache of recent
queries never answers. It prints per way the search's wall-clock p50 and p95 and its mean CPU
time (the process's, every thread), and the ratio of `after events` to `quiet`: 1.0 when a write
of no memory row leaves a search as cheap as a quiet one, above it when such writes drop what
the searches before had read.

With `--baseline TREE` the same run follows with TREE's code (another checkout, e.g. the code
before a change) in a child Python, its own store seeded by its own code; `--rounds N` repeats
the pair, the side started first swapping each round.

Usage: python -m bench.search_after_writes [--size 10000] [--queries 200] [--base-texts 1000]
       [--baseline TREE] [--rounds 1]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import structlog

from bench.common import git_repo, percentile, service_env
from bench.memory_process import SOURCE_ROOTS
from bench.search_floor import load
from bench.search_parts import LEXICAL_BUILD_SECONDS, TOP
from bench.seeded_project import loaded_embedder, questions, seed_project
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.retrieval import Retriever
from squirrel_memory.storage import SqliteStore

WAYS = ("after events", "quiet")
WARMUP = 10
BLOCK = 10
"""Questions asked one way before the other way takes over."""
USER = "bench"
CHILD_SECONDS = 3600


def batch(n: int) -> list[Event]:
    """Three new events of one session (a user's ask, the reply, a command), unique to `n`."""
    at = datetime(2026, 1, 5, 9, tzinfo=UTC) + timedelta(seconds=3 * n)
    parts = (
        (EventType.USER_MESSAGE, {"text": f"Run the test suite again ({n})."}),
        (EventType.ASSISTANT_RESPONSE, {"text": f"Running it now, step {n}."}),
        (EventType.COMMAND_RUN, {"command": f"make test N={n}", "tool_use_id": f"tu{n}"}),
    )
    return [
        Event(SourceTool.CLAUDE_CODE, kind, at + timedelta(seconds=i), content, session_id=USER)
        for i, (kind, content) in enumerate(parts)
    ]


async def measure(size: int, queries: int, base_texts: int) -> str:
    """The two ways' figures on a project of `size` memories, as one line per way."""
    embedder = loaded_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        git_repo(root)
        await seed_project(root, size, embedder, base_texts)
        store = await SqliteStore.open(str(root))
        try:
            await asyncio.to_thread(store.wait_lexical_index, LEXICAL_BUILD_SECONDS)
            index = FaissIndex.load(index_path(str(root)), embedder.dim, embedder.model_id)
            retriever = Retriever(store, embedder=embedder, index=index)
            wall: dict[str, list[float]] = {way: [] for way in WAYS}
            cpu: dict[str, list[float]] = {way: [] for way in WAYS}
            written = [0]

            async def ask(way: str, text: str) -> None:
                if way == "after events":
                    written[0] += 1
                    await store.append_events(store.project_id, USER, batch(written[0]), [])
                started, cpu_started = time.perf_counter(), time.process_time()
                await retriever.search(store.project_id, f"{text} ({way})", TOP)
                wall[way].append(1000 * (time.perf_counter() - started))
                cpu[way].append(1000 * (time.process_time() - cpu_started))

            for text in questions(WARMUP):
                for way in WAYS:
                    await ask(way, f"{text} (warm-up)")
            for way in WAYS:
                wall[way].clear()
                cpu[way].clear()
            before = load()
            for n, text in enumerate(questions(queries)):
                await ask(WAYS[(n // BLOCK) % len(WAYS)], f"{text} ({size})")
            after = load()
        finally:
            await store.close()
    means = {way: sum(cpu[way]) / len(cpu[way]) for way in WAYS}
    lines = [
        f"{size:>7} {way:<12} p50 {percentile(wall[way], 50):7.2f} ms  "
        f"p95 {percentile(wall[way], 95):7.2f} ms  cpu {means[way]:6.2f} ms"
        for way in WAYS
    ]
    p50 = {way: percentile(wall[way], 50) for way in WAYS}
    lines.append(
        f"{size:>7} after/quiet  p50 {p50[WAYS[0]] / p50[WAYS[1]]:.2f}x  "
        f"cpu {means[WAYS[0]] / means[WAYS[1]]:.2f}x  load 1/5/15 min {before} -> {after}"
    )
    return "\n".join(lines)


def run_tree(tree: Path, argv: list[str]) -> str:
    """This bench run by `tree`'s product code (this tree's bench) in a child Python."""
    here = Path(__file__).resolve().parent.parent
    roots = [str((tree / r).resolve()) for r in SOURCE_ROOTS]
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **service_env(Path(tmp) / "home"),
            "PYTHONPATH": os.pathsep.join([*roots, str(here)]),
        }
        done = subprocess.run(
            [sys.executable, "-m", "bench.search_after_writes", *argv],
            env=env,
            cwd=here,
            check=False,
            capture_output=True,
            text=True,
            timeout=CHILD_SECONDS,
        )
    if done.returncode != 0:
        raise SystemExit(f"the run with {tree} failed: {done.stderr.strip()[-2000:]}")
    return done.stdout.strip("\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--base-texts", type=int, default=1000)
    parser.add_argument("--baseline", type=Path, default=None, help="another Squirrel tree")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    logging.disable(logging.INFO)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    own = ["--size", str(args.size), "--queries", str(args.queries)]
    own += ["--base-texts", str(args.base_texts)]
    if args.baseline is None:
        for _ in range(args.rounds):
            print(asyncio.run(measure(args.size, args.queries, args.base_texts)), flush=True)
        return
    this = Path(__file__).resolve().parent.parent
    for n in range(args.rounds):
        sides = [("this", this), ("baseline", args.baseline)]
        for name, tree in sides if n % 2 == 0 else sides[::-1]:
            print(f"{name} ({tree}), round {n + 1}:\n{run_tree(tree, own)}", flush=True)


if __name__ == "__main__":
    main()
