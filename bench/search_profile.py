"""Where SearchMemory's time goes inside the memory service: py-spy samples by part, one run.

A project is filled as `bench.search_floor` fills it (`seed_project`: generated memories, the
first `--base-texts` embedded, the other vectors derived) and an empty project registered beside
it, in one real `python -m squirrel_memory` process. After warm-up searches, `--queries`
SearchMemory calls (top 10) are made one at a time over gRPC on the filled project, then as
many on the empty one (the request path alone: nothing to embed or read), while py-spy samples
the service's threads:

- `--gil` (the default): only the thread holding the GIL, so the Python work of the search,
  not the time a thread waits for the GIL or a core; the encoder's forward pass and FAISS's
  scan run without the GIL and show only as their Python around them;
- `--all-threads`: every thread that is not idle, the forward pass and FAISS included (a
  thread waiting for the GIL counts too).

Each sample goes to the part of the innermost frame that names one (`PARTS`, searched from the
leaf up), else to `request path` on the event loop's thread and `other` elsewhere. Per part it
prints the share of the samples and the milliseconds per call they stand for (samples / rate /
calls), for the filled project, the empty one and their difference: what a search spends
above its request path. Samples are of wall-clock time (a GIL holder waiting for a core is
still sampled), so on a loaded machine the milliseconds run above the CPU time: compare the
shares, and parts within one run. py-spy is not a dependency
(`.venv/bin/python -m pip install py-spy`).

Usage: python -m bench.search_profile [--size 10000] [--queries 600] [--base-texts 1000]
       [--rate 500] [--all-threads]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import structlog

from bench.common import git_repo, wait_idle
from bench.memory_process import memory_process, wait_model
from bench.search_floor import load
from bench.seeded_project import base_texts_arg, loaded_embedder, questions, seed_project
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project

WARMUP = 20
REQUEST_PATH = "request path"
OTHER = "other"
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("encoder", ("embed_query_now",)),
    ("vector index", ("FaissIndex.search ", "FaissIndex.similarities ")),
    ("row reads", ("load_memories ", "rows_of ", "row_reader.", "load_many")),
    ("lexical ranking", ("LexicalIndex.", "IndexState.", "_Tokenizer.")),
    (
        "hand-offs",
        (
            "ThreadPoolExecutor.submit ",
            "Future.set_result ",
            "call_soon_threadsafe ",
            "read_pair",
        ),
    ),
    ("query terms of hits", ("matched_terms ", "matched_counts ", "on_lexical")),
    ("fusion and ranking", ("Retriever._rank ", "fuse ", "fused_hits ", "placed ", "Ranking.")),
    ("page and reply", ("Retriever.search ", "ReadSide.search", "search_result ")),
)
"""Each part and the frame names that mark it (a frame is `function (file:line)`)."""
ORDER = (*(name for name, _ in PARTS), REQUEST_PATH, OTHER)


def part_of(frames: Sequence[str], main_thread: bool) -> str:
    """The part of one sampled stack (root first): the innermost frame naming one."""
    for frame in reversed(frames):
        for name, marks in PARTS:
            if any(mark in frame for mark in marks):
                return name
    return REQUEST_PATH if main_thread else OTHER


def parts_of(raw: str) -> Counter[str]:
    """Samples per part from py-spy's raw output (`thread;frame;...;frame count` per line)."""
    counts: Counter[str] = Counter()
    for line in raw.splitlines():
        stack, _, count = line.rstrip().rpartition(" ")
        if not stack or not count.isdigit():
            continue
        thread, *frames = stack.split(";")
        counts[part_of(frames, "MainThread" in thread)] += int(count)
    return counts


def py_spy() -> str:
    """The py-spy beside this interpreter or on PATH; exits 2 when there is none."""
    beside = Path(sys.executable).parent / "py-spy"
    found = str(beside) if beside.exists() else shutil.which("py-spy")
    if found is None:
        print("py-spy is not installed (.venv/bin/python -m pip install py-spy)", file=sys.stderr)
        raise SystemExit(2)
    return found


async def sampled(
    spy: str,
    pid: int,
    client: MemoryClient,
    project: str,
    texts: Sequence[str],
    args: Sequence[str],
) -> Counter[str]:
    """Samples per part while `texts` are searched on `project`, one at a time."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "raw.txt"
        command = [spy, "record", "-p", str(pid), "-f", "raw", "-o", str(out), *args]
        recorder = await asyncio.create_subprocess_exec(
            *command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        await asyncio.sleep(1.0)  # py-spy attaches before the first call
        for text in texts:
            await client.call(
                client.stub.SearchMemory,
                pb.SearchMemoryRequest(project_id=project, query=text, top_k=10),
            )
        recorder.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(recorder.communicate(), 60)
        if not out.exists():
            raise SystemExit(f"py-spy wrote no samples: {err.decode(errors='replace')[-400:]}")
        return parts_of(out.read_text(encoding="utf-8"))


def format_parts(
    search: Counter[str], empty: Counter[str], calls: int, rate: int, header: str
) -> str:
    total = sum(search.values()) or 1

    def ms(counts: Counter[str], part: str) -> float:
        return 1000 * counts[part] / rate / calls

    lines = [
        header,
        f"{'part':<22} {'share':>6} {'search ms':>9} {'empty ms':>8} {'above':>6}",
    ]
    for part in ORDER:
        lines.append(
            f"{part:<22} {100 * search[part] / total:>5.1f}% {ms(search, part):>9.2f} "
            f"{ms(empty, part):>8.2f} {ms(search, part) - ms(empty, part):>6.2f}"
        )
    lines.append(
        f"{'all':<22} {100.0:>5.1f}% {1000 * total / rate / calls:>9.2f} "
        f"{1000 * sum(empty.values()) / rate / calls:>8.2f}"
    )
    return "\n".join(lines)


async def run(size: int, queries: int, base_texts: int, rate: int, gil: bool) -> str:
    spy = py_spy()
    embedder = loaded_embedder()
    with tempfile.TemporaryDirectory() as tmp:
        home, full, empty = (Path(tmp) / part for part in ("home", "full", "empty"))
        HomeLayout(home).ensure()
        git_repo(full)
        git_repo(empty)
        await seed_project(full, size, embedder, base_texts)
        add_project(HomeLayout(home).projects, full)
        add_project(HomeLayout(home).projects, empty)
        async with memory_process(home) as service:
            await wait_model(service.client)
            wait_idle(service.pid)
            for project in (full, empty):
                for text in questions(WARMUP):
                    await service.client.call(
                        service.client.stub.SearchMemory,
                        pb.SearchMemoryRequest(project_id=str(project), query=text, top_k=10),
                    )
            args = ["-r", str(rate), "--threads", "--nonblocking", *(["--gil"] if gil else [])]
            asked = [f"{q} ({size})" for q in questions(queries)]
            before = load()
            search = await sampled(spy, service.pid, service.client, str(full), asked, args)
            empty_counts = await sampled(spy, service.pid, service.client, str(empty), asked, args)
            after = load()
    sampled_threads = "the GIL holder only" if gil else "every thread not idle"
    header = (
        f"SearchMemory at {size} memories, {queries} calls each, py-spy at {rate} Hz "
        f"({sampled_threads}); load 1/5/15 min {before} -> {after}"
    )
    return format_parts(search, empty_counts, queries, rate, header)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=600)
    parser.add_argument("--base-texts", type=base_texts_arg, default=1000, help="a count or all")
    parser.add_argument("--rate", type=int, default=500, help="samples a second")
    parser.add_argument("--all-threads", action="store_true", help="not only the GIL holder")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    print(
        asyncio.run(run(args.size, args.queries, args.base_texts, args.rate, not args.all_threads))
    )


if __name__ == "__main__":
    main()
