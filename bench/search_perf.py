"""Where SearchMemory's CPU goes inside the memory service, by the library it runs in (perf).

A project is filled as `bench.search_floor` fills it (`seed_project`: generated memories, the
first `--base-texts` embedded, the other vectors derived) and an empty project registered beside
it, in one real `python -m squirrel_memory` process. After warm-up calls, SearchMemory (top 10)
is asked of the filled project and of the empty one, one call at a time over gRPC, in blocks
that alternate (`--rounds` of each), while `perf record` samples the service's CPU (every
thread, only while it runs on a core: waiting for a core, for the GIL or for I/O is not
sampled). Each sample goes to the piece of the library its instruction is in (`PIECES`):

- `encoder`: onnxruntime's forward pass and the tokenizer (Rust);
- `Python`: the interpreter running the service's Python (ranking, fusion, the reply, gRPC's and
  asyncio's Python), less `collector`: the cyclic garbage collector's own functions;
- `C library`: malloc/free, copies (for onnxruntime and NumPy as for Python);
- `kernel`: system calls, thread wake-ups and the scheduler (the hand-offs between threads);
- `gRPC`, `protobuf`, `SQLite`, `NumPy`, `FAISS`, `asyncio`; `other`: the rest.

It prints per piece the CPU milliseconds per call the samples stand for (samples / rate /
calls), for the filled project, the empty one, and their difference (what a search costs above
an empty search's request path), then the same by thread (the event loop's, the others'), and
the service's CPU per call read from `/proc` over the same calls as a check of the sampling.
With `--baseline TREE` a second service runs TREE's code on the same memories (each side's
project seeded by its own tree's code in a child Python, as `bench.search_floor` seeds them),
sampled in the same rotation (its blocks alternate with this tree's, and which side goes first
turns with each block), so both sides see the same load.

perf is not a dependency (Debian: `apt-get install linux-perf`); it must be allowed to sample a
process of the same user (`kernel.perf_event_paranoid` at most 2).

Usage: python -m bench.search_perf [--size 400] [--queries 800] [--rounds 4] [--base-texts 1000]
       [--rate 2000] [--baseline TREE]
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
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

import structlog

from bench.common import git_repo, process_cpu_ns, wait_idle
from bench.memory_process import MemoryProcess, memory_process, wait_model
from bench.search_floor import THIS_TREE, load
from bench.seeded_project import (
    base_texts_arg,
    loaded_embedder,
    questions,
    seed_in_tree,
    seed_project,
)
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project

WARMUP = 20
TOP = 10
OTHER = "other"
COLLECTOR = "collector"
PIECES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("encoder", ("onnxruntime", "tokenizers")),
    ("FAISS", ("faiss",)),
    ("SQLite", ("sqlite",)),
    ("NumPy", ("_multiarray",)),
    ("protobuf", ("_message", "protobuf")),
    ("gRPC", ("cygrpc", "grpc", "libcrypto", "libssl")),
    ("asyncio", ("_asyncio", "select.cpython")),
    ("C library", ("libc.so", "libc-", "libstdc++", "libm.so", "libgcc", "ld-linux")),
    ("kernel", ("[kernel", "[vdso]")),
    ("Python", ("libpython", "python3")),
)
"""Each piece and the marks of the libraries it holds (searched in a sample's file name)."""
ORDER = (*(name for name, _ in PIECES), COLLECTOR, OTHER)
COLLECTOR_MARKS = ("gc_collect", "visit_decref", "visit_reachable", "subtract_refs")
"""Functions of the interpreter that are the cyclic garbage collector's."""
COLLECTOR_SUFFIX = "_traverse"


def piece_of(library: str, function: str) -> str:
    """The piece one sample belongs to, by its library's file name and its function."""
    name = library.rsplit("/", 1)[-1]
    for piece, marks in PIECES:
        if any(mark in name for mark in marks):
            if piece == "Python" and (
                function.startswith(COLLECTOR_MARKS) or function.endswith(COLLECTOR_SUFFIX)
            ):
                return COLLECTOR
            return piece
    return OTHER


@dataclass
class Samples:
    """Samples per piece and per thread (the event loop's or another), and the calls made."""

    pieces: Counter[str] = field(default_factory=Counter)
    threads: Counter[str] = field(default_factory=Counter)
    calls: int = 0
    cpu_ns: int = 0

    def add_script(self, text: str, pid: int) -> None:
        """Counts `perf script -F tid,ip,sym,dso` lines: `tid ip function (library)`."""
        for line in text.splitlines():
            parts = line.split(None, 2)
            if len(parts) < 3 or not parts[0].isdigit():
                continue
            rest = parts[2]
            opened = rest.rfind(" (")
            function, library = (
                (rest[:opened], rest[opened + 2 : -1]) if opened >= 0 else (rest, "")
            )
            self.pieces[piece_of(library, function)] += 1
            self.threads["event loop" if int(parts[0]) == pid else "other threads"] += 1


def perf() -> str:
    """The perf on PATH; exits 2 when there is none."""
    found = shutil.which("perf")
    if found is None:
        print("perf is not installed (Debian: apt-get install linux-perf)", file=sys.stderr)
        raise SystemExit(2)
    return found


async def sampled(
    tool: str, service: MemoryProcess, project: str, texts: Sequence[str], rate: int, into: Samples
) -> None:
    """Adds the samples of `texts` searched on `project`, one at a time, to `into`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "perf.data"
        command = [tool, "record", "-F", str(rate), "-p", str(service.pid), "-o", str(out)]
        recorder = await asyncio.create_subprocess_exec(
            *command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        await asyncio.sleep(1.0)  # perf attaches before the first call
        started = process_cpu_ns(service.pid)
        for text in texts:
            await service.client.call(
                service.client.stub.SearchMemory,
                pb.SearchMemoryRequest(project_id=project, query=text, top_k=TOP),
            )
        into.cpu_ns += process_cpu_ns(service.pid) - started
        into.calls += len(texts)
        recorder.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(recorder.communicate(), 120)
        if not out.exists():
            raise SystemExit(f"perf wrote no samples: {err.decode(errors='replace')[-400:]}")
        script = await asyncio.create_subprocess_exec(
            tool,
            "script",
            "-i",
            str(out),
            "-F",
            "tid,ip,sym,dso",
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        output, _ = await asyncio.wait_for(script.communicate(), 300)
        into.add_script(output.decode(errors="replace"), service.pid)


def format_table(sides: dict[str, tuple[Samples, Samples]], rate: int, header: str) -> str:
    """Per piece and thread: ms per call of a search, of an empty search, and above, per side."""

    def ms(samples: Samples, count: int) -> float:
        return 1000 * count / rate / max(1, samples.calls)

    names = list(sides)
    head = f"{'piece':<15}" + "".join(
        f" {n + ': search':>16} {'empty':>7} {'above':>7}" for n in names
    )
    lines = [header, head]
    rows = [*ORDER, "event loop", "other threads", "all (sampled)", "cpu from /proc"]
    for row in rows:
        cells = []
        for search, empty in sides.values():
            if row == "all (sampled)":
                a, b = ms(search, search.pieces.total()), ms(empty, empty.pieces.total())
            elif row == "cpu from /proc":
                a = search.cpu_ns / 1e6 / max(1, search.calls)
                b = empty.cpu_ns / 1e6 / max(1, empty.calls)
            elif row in ("event loop", "other threads"):
                a, b = ms(search, search.threads[row]), ms(empty, empty.threads[row])
            else:
                a, b = ms(search, search.pieces[row]), ms(empty, empty.pieces[row])
            cells.append(f" {a:>16.3f} {b:>7.3f} {a - b:>7.3f}")
        lines.append(f"{row:<15}" + "".join(cells))
    return "\n".join(lines)


async def run(
    size: int, queries: int, rounds: int, base_texts: int, rate: int, baseline: Path | None
) -> str:
    tool = perf()
    embedder = loaded_embedder()
    trees: list[tuple[str, Path | None]] = [("this", None)]
    if baseline is not None:
        trees.append(("baseline", baseline))
    with tempfile.TemporaryDirectory() as tmp:
        homes: list[tuple[Path, Path, Path]] = []
        for n, (_, tree) in enumerate(trees):
            home, side_full, side_empty = (
                Path(tmp) / f"{p}-{n}" for p in ("home", "full", "empty")
            )
            HomeLayout(home).ensure()
            git_repo(side_full)
            git_repo(side_empty)
            if baseline is None:
                await seed_project(side_full, size, embedder, base_texts)
            else:  # the same memories and vectors, each side's written by its own code, alike
                seed_in_tree(tree or THIS_TREE, side_full, size, base_texts)
            add_project(HomeLayout(home).projects, side_full)
            add_project(HomeLayout(home).projects, side_empty)
            homes.append((home, side_full, side_empty))
        samples = {name: (Samples(), Samples()) for name, _ in trees}
        asked = [f"{q} ({size})" for q in questions(queries)]
        block = max(1, len(asked) // max(1, rounds))
        async with AsyncExitStack() as stack:
            services = [
                await stack.enter_async_context(memory_process(home, tree))
                for (home, _, _), (_, tree) in zip(homes, trees, strict=True)
            ]
            for service, (_, side_full, side_empty) in zip(services, homes, strict=True):
                await wait_model(service.client)
                wait_idle(service.pid)
                for project in (side_full, side_empty):
                    for text in questions(WARMUP):
                        await service.client.call(
                            service.client.stub.SearchMemory,
                            pb.SearchMemoryRequest(project_id=str(project), query=text, top_k=TOP),
                        )
            before = load()
            sides = list(zip(services, homes, trees, strict=True))
            for turn, start in enumerate(range(0, len(asked), block)):
                texts = asked[start : start + block]
                # which side goes first turns with each block
                for service, (_, side_full, side_empty), (name, _) in (
                    sides[turn % len(sides) :] + sides[: turn % len(sides)]
                ):
                    search, nothing = samples[name]
                    await sampled(tool, service, str(side_full), texts, rate, search)
                    await sampled(tool, service, str(side_empty), texts, rate, nothing)
            after = load()
    header = (
        f"SearchMemory at {size} memories, {len(asked)} calls each way, perf at {rate} Hz, "
        f"CPU ms per call; load 1/5/15 min {before} -> {after}"
    )
    return format_table(samples, rate, header)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=400)
    parser.add_argument("--queries", type=int, default=800)
    parser.add_argument("--rounds", type=int, default=4, help="blocks of each way, alternating")
    parser.add_argument("--base-texts", type=base_texts_arg, default=1000, help="a count or all")
    parser.add_argument("--rate", type=int, default=2000, help="samples a second")
    parser.add_argument("--baseline", type=Path, default=None, help="another Squirrel tree")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    print(
        asyncio.run(
            run(args.size, args.queries, args.rounds, args.base_texts, args.rate, args.baseline)
        )
    )


if __name__ == "__main__":
    main()
