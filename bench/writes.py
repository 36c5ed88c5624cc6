"""Write throughput over gRPC against a real memory service process.

- `Remember`, one call per statement, waiting for each answer (what a host's tool call does);
- `RememberMany` in batches (a bulk import), and how long the vector index then takes to
  catch up (`vectors_pending` back to 0): writes are acknowledged once in SQLite, the
  embeddings follow in batches;
- the memory service's CPU time per memory during the `RememberMany` calls (its vector index
  embeds the batches meanwhile, on the same cores) and its RSS after the writes;
- the same statements through `manual.remember_many` on a store in-process, in calls of
  `--batch` (the store path alone: no gRPC, no embedding), and one call each;
- extraction's write path in-process (`Processor.write_candidates`: each candidate decided
  against its anchor, then one transaction per pass), with no manual memory in the project and
  with one (then every candidate is also compared with look-alike manual memories);
- a repository sync in-process (`sync_repository_memories`): the same texts as facts read from
  a repository, added by a first reading, then all changed and updated by a second;
- the home's change mark after 200 changes 2 ms apart: rewritten with an fsync on the event
  loop for each (the memory service before `ChangeMarks`) against `ChangeMarks` (off the loop,
  no fsync, at most once per interval): the loop's time held per change, and the rewrites.

The statements are the turns of `bench/data/long_conversations.json` (long, real coding
conversation turns), each under its own key, in a fresh project per mode.

With `--baseline TREE` (another checkout, e.g. the code before a change) only the gRPC part
runs, against this tree's memory service and TREE's, one after the other, `--rounds` times (the
side started first swapping each round), with the 1-minute load beside each side, and then the
ratios this/baseline of the medians over rounds.

Usage: python -m bench.writes [--single 200] [--batched 700] [--batch 100]
       [--baseline TREE] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import psutil
import structlog

from bench.common import Figure, git_repo, percentile, print_table, wait_idle
from bench.mem0_child import conversations
from bench.memory_process import MemoryProcess, memory_process, wait_model
from bench.writes_in_process import SECTION, USER, in_process_figures, mark_costs
from squirrel.v1 import memory_pb2 as mpb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project

CATCH_UP_TIMEOUT_S = 600.0


def statements(texts: Sequence[str], prefix: str) -> list[pb.RememberRequest]:
    return [
        pb.RememberRequest(
            user_id=USER, type=mpb.MEMORY_TYPE_PROJECT_FACT, key=f"{prefix}-{n:05d}", content=text
        )
        for n, text in enumerate(texts)
    ]


async def vectors_pending(client: MemoryClient, project: str) -> int:
    status = await client.call(
        client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest(project_id=project)
    )
    return sum(p.vectors_pending for p in status.projects)


async def catch_up(client: MemoryClient, project: str) -> float:
    """Seconds until the project's vector index holds every memory written so far."""
    started = time.perf_counter()
    while await vectors_pending(client, project):
        if time.perf_counter() - started > CATCH_UP_TIMEOUT_S:
            raise TimeoutError("the vector index did not catch up")
        await asyncio.sleep(0.05)
    return time.perf_counter() - started


async def remember_one_by_one(
    client: MemoryClient, project: str, items: Sequence[pb.RememberRequest]
) -> tuple[float, list[float]]:
    """(seconds for all, ms per call)."""
    times: list[float] = []
    started = time.perf_counter()
    for item in items:
        item.project_id = project
        t0 = time.perf_counter()
        await client.call(client.stub.Remember, item)
        times.append(1000 * (time.perf_counter() - t0))
    return time.perf_counter() - started, times


async def remember_batched(
    client: MemoryClient, project: str, items: Sequence[pb.RememberRequest], batch: int
) -> float:
    """Seconds for all items sent as `RememberMany` calls of `batch` items; every item must
    come back remembered."""
    started = time.perf_counter()
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        reply = await client.call(
            client.stub.RememberMany, pb.RememberManyRequest(project_id=project, items=chunk)
        )
        failed = [r.error.message for r in reply.results if r.HasField("error")]
        if failed or len(reply.results) != len(chunk):
            raise RuntimeError(f"RememberMany refused items: {failed[:3]}")
    return time.perf_counter() - started


def _project(home: Path, root: Path) -> str:
    add_project(HomeLayout(home).projects, git_repo(root))
    return str(root.resolve())


async def grpc_writes(
    texts: Sequence[str], single: int, batched: int, batch: int, tree: Path | None = None
) -> dict[str, float]:
    """`Remember` one at a time and `RememberMany` in calls of `batch` against a memory service
    process running `tree`'s code (None: this tree's), each in a fresh project of a fresh home."""
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        HomeLayout(home).ensure()
        one_project = _project(home, Path(tmp) / "one")
        many_project = _project(home, Path(tmp) / "many")
        service: MemoryProcess
        async with memory_process(home, tree) as service:
            client = service.client
            await wait_model(client)
            wait_idle(service.pid)
            load = os.getloadavg()[0]
            process = psutil.Process(service.pid)
            cpu_start = sum(process.cpu_times()[:2])
            one_s, times = await remember_one_by_one(
                client, one_project, statements(texts[:single], "one")
            )
            one_cpu_ms = 1000 * (sum(process.cpu_times()[:2]) - cpu_start) / single
            one_catch_up = await catch_up(client, one_project)
            wait_idle(service.pid)
            cpu_before = sum(process.cpu_times()[:2])
            many_s = await remember_batched(
                client, many_project, statements(texts[single : single + batched], "many"), batch
            )
            cpu_ms = 1000 * (sum(process.cpu_times()[:2]) - cpu_before) / batched
            many_catch_up = await catch_up(client, many_project)
            # The whole work of the bulk write, wherever the index's worker ran it: inside the
            # timed calls or after them (when its batches start depends on the gaps between calls).
            cpu_total_ms = 1000 * (sum(process.cpu_times()[:2]) - cpu_before) / batched
            rss = process.memory_info().rss / 2**20
    return {
        "one_rate": single / one_s,
        "one_p50": statistics.median(times),
        "one_p95": percentile(times, 95),
        "one_cpu_ms": one_cpu_ms,
        "one_catch_up": one_catch_up,
        "many_rate": batched / many_s,
        "many_done_rate": batched / (many_s + many_catch_up),
        "many_cpu_ms": cpu_ms,
        "many_cpu_total_ms": cpu_total_ms,
        "rss": rss,
        "load": load,
    }


_COMPARED = (
    ("one_rate", "Remember over gRPC, one at a time", "memories/s"),
    ("one_p50", "Remember p50", "ms"),
    ("one_p95", "Remember p95", "ms"),
    ("one_cpu_ms", "Remember: memory service CPU per call", "ms"),
    ("one_catch_up", "Remember: vector index caught up after", "s"),
    ("many_rate", "RememberMany over gRPC", "memories/s"),
    ("many_cpu_ms", "RememberMany: memory service CPU per memory", "ms"),
    ("many_cpu_total_ms", "RememberMany: CPU per memory until in the vector index", "ms"),
    ("many_done_rate", "RememberMany: written and in the vector index", "memories/s"),
    ("rss", "memory RSS after the writes", "MiB"),
)


async def compare(
    texts: Sequence[str], single: int, batched: int, batch: int, baseline: Path, rounds: int
) -> list[Figure]:
    """The gRPC writes of this tree and of `baseline`, alternating, `rounds` times each."""
    runs: dict[str, list[dict[str, float]]] = {"this": [], "baseline": []}
    sides: list[tuple[str, Path | None]] = [("this", None), ("baseline", baseline)]
    for n in range(rounds):
        for name, tree in sides if n % 2 == 0 else sides[::-1]:
            got = await grpc_writes(texts, single, batched, batch, tree)
            runs[name].append(got)
            print(
                f"round {n + 1} {name:8}  load {got['load']:5.2f}  "
                + "  ".join(f"{key} {got[key]:.2f}" for key, _, _ in _COMPARED),
                flush=True,
            )
    figures: list[Figure] = []
    for key, measure, unit in _COMPARED:
        this = statistics.median(r[key] for r in runs["this"])
        base = statistics.median(r[key] for r in runs["baseline"])
        note = f"median of {rounds} rounds"
        figures.append(Figure(SECTION, f"{measure} (this)", this, unit, note))
        figures.append(Figure(SECTION, f"{measure} (baseline)", base, unit, note))
        figures.append(Figure(SECTION, f"{measure}: this / baseline", this / base, "x", note))
    return figures + await mark_costs(200)


async def measure(single: int, batched: int, batch: int) -> list[Figure]:
    texts = conversations()[0][: single + batched]
    got = await grpc_writes(texts, single, batched, batch)
    one_s = single / got["one_rate"]
    one_catch_up = got["one_catch_up"]
    many_s = batched / got["many_rate"]
    many_catch_up = batched / got["many_done_rate"] - many_s
    cpu_ms = got["many_cpu_ms"]
    rss = got["rss"]
    p50, p95 = got["one_p50"], got["one_p95"]
    in_process = await in_process_figures(texts, single, batch)
    note = f"{single} long conversation turns, one call each, own project"
    batch_note = f"{batched} turns, RememberMany of {batch}, own project"
    return [
        Figure(SECTION, "Remember over gRPC, one at a time", single / one_s, "memories/s", note),
        Figure(SECTION, "Remember p50", p50, "ms", note),
        Figure(SECTION, "Remember p95", p95, "ms", note),
        Figure(SECTION, "Remember: vector index caught up after", one_catch_up, "s", note),
        Figure(SECTION, "RememberMany over gRPC", batched / many_s, "memories/s", batch_note),
        Figure(
            SECTION,
            "RememberMany: written and in the vector index",
            batched / (many_s + many_catch_up),
            "memories/s",
            batch_note + "; until vectors_pending is 0",
        ),
        Figure(
            SECTION,
            "RememberMany: memory service CPU per memory",
            cpu_ms,
            "ms",
            batch_note + "; user+system of every thread, the vector index's included",
        ),
        Figure(SECTION, "memory RSS after the writes", rss, "MiB"),
        *in_process,
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--single", type=int, default=200)
    parser.add_argument("--batched", type=int, default=580)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--baseline", type=Path, default=None, help="another Squirrel tree")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    if args.baseline is None:
        print_table(asyncio.run(measure(args.single, args.batched, args.batch)))
        return
    texts = conversations()[0][: args.single + args.batched]
    print_table(
        asyncio.run(
            compare(texts, args.single, args.batched, args.batch, args.baseline, args.rounds)
        )
    )


if __name__ == "__main__":
    main()
