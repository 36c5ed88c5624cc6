"""The parts of a search timed one by one in process: where its time above the floor goes.

On a seeded project's store and vector index, opened in the bench's own process (no gRPC), each
question is asked part by part, the order rotating with each question:

- `encoder`: the shipped query encoder (int8) on the question, on a reader thread;
- `vector index`: the project's FAISS index searched with that vector for the candidate pool
  (`RetrievalSettings.candidate_pool`, 50), as a search asks it, on the same thread;
- `vector rows`: from there until the event loop has the memories of those hits: their rows
  read on that thread (`found_memories`, as a search reads them: every hit's row, where a search
  reads only those that can still match, so this is the most it reads) and the loop's wake-up;
- `lexical`: BM25 for the pool and its memories, one read on a reader thread (the in-memory
  lexical index once built, as the service answers);
- `search`: the whole of `Retriever.search` (top 10), on another spelling of the question so
  the encoder's cache of recent queries does not answer it;
- `vector-only search` and `lexical-only search`: the same with one side switched off
  (`RetrievalSettings.use_lexical` / `use_vector` false), each on its own spelling;
- `search cpu`: the CPU time of the process (every thread) over the whole `search`, which
  the load of a shared machine moves far less than its wall-clock time: what a change to the
  search's own work saves shows there even when the wall-clock figures cannot show it;
- `encoder cpu` and `vector index cpu`: the reader thread's own CPU time over the encoder and
  over the index search (`time.thread_time`);
- `vector side cpu` and `lexical cpu`: the process's CPU time over the whole `vector rows`
  read (encoder, index search, rows and the hand-off) and over the `lexical` one. What a
  `search cpu` holds beyond these two is the event loop's part: fusion, ranking and the page.

Before the parts, the project's vector index is loaded twice (`index load`): as saved, its int8
copy (`memories.int8`) or, above 4,096 vectors, its 4-bit codes (`memories.pq4`) read from their
file beside the index, and once more with those files set aside, so the copy or the codes are
made from the index as an index saved without them is loaded; wall-clock
and CPU seconds of each.

The lexical and the vector side of a search run on two reader threads at once, so `search`
is not their sum; set beside the one-sided searches it shows how much of the lexical side
overlaps the vector side on this machine, the load what they wait for. `bench.search_floor`
prints these figures beside its gRPC table; the module has no CLI of its own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.common import percentile
from squirrel_core.int8_copy_file import copy_path_for
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.index.codes_file import codes_path_for
from squirrel_memory.indexer import index_path
from squirrel_memory.retrieval import RetrievalSettings, Retriever
from squirrel_memory.storage import SqliteStore

PARTS = (
    "encoder",
    "vector index",
    "vector rows",
    "lexical",
    "search",
    "vector-only search",
    "lexical-only search",
    "search cpu",
    "encoder cpu",
    "vector index cpu",
    "vector side cpu",
    "lexical cpu",
)
TOP = 10
WARMUP = 10
LEXICAL_BUILD_SECONDS = 600.0
"""Longest wait for the in-memory lexical index (seconds at 100k memories)."""


@dataclass(frozen=True)
class IndexLoad:
    """One load of the project's vector index: wall-clock and CPU seconds, and whether its
    int8 copy or 4-bit codes were read from their file."""

    seconds: float
    cpu_seconds: float
    copy_read: bool


def _timed_load(path: Path, embedder: MiniLmEmbedder) -> tuple[FaissIndex, IndexLoad]:
    started, cpu = time.perf_counter(), time.process_time()
    index = FaissIndex.load(path, embedder.dim, embedder.model_id)
    read = index.copy_restored or index.codes_restored
    took = IndexLoad(time.perf_counter() - started, time.process_time() - cpu, read)
    return index, took


def index_loads(path: Path, embedder: MiniLmEmbedder) -> tuple[FaissIndex, IndexLoad, IndexLoad]:
    """The index at `path` loaded as saved, then again with its int8 copy's and 4-bit codes'
    files set aside (put back after); the first index and both loads."""
    index, saved = _timed_load(path, embedder)
    sides = [side for side in (copy_path_for(path), codes_path_for(path)) if side.exists()]
    for side in sides:
        side.rename(side.with_name(f"{side.name}.aside"))
    try:
        _, made = _timed_load(path, embedder)
    finally:
        for side in sides:
            side.with_name(f"{side.name}.aside").rename(side)
    return index, saved, made


@dataclass(frozen=True)
class PartTimes:
    """Milliseconds of each part over the questions, and the load around them."""

    millis: dict[str, list[float]]
    load_before: str
    load_after: str
    index_loads: tuple[IndexLoad, IndexLoad]
    """Loading the index with its int8 copy's file, then without it."""

    def p50(self, part: str) -> float:
        return percentile(self.millis[part], 50)


async def measure_parts(
    root: Path, embedder: MiniLmEmbedder, texts: Sequence[str], load: Callable[[], str]
) -> PartTimes:
    """Each part's time on the project at `root` (seeded, its index file written)."""
    store = await SqliteStore.open(str(root))
    try:
        await asyncio.to_thread(store.wait_lexical_index, LEXICAL_BUILD_SECONDS)
        index, saved, made = await asyncio.to_thread(index_loads, index_path(str(root)), embedder)
        retriever = Retriever(store, embedder=embedder, index=index)
        pool = RetrievalSettings().candidate_pool
        millis: dict[str, list[float]] = {part: [] for part in PARTS}

        async def vector_side(text: str) -> None:
            marks: list[float] = []
            cpu: list[float] = []

            def nearest() -> list[tuple[str, float]]:
                cpu.append(time.thread_time())
                marks.append(time.perf_counter())
                vector = embedder.embed_query_now(text)[0]
                marks.append(time.perf_counter())
                cpu.append(time.thread_time())
                hits = index.search(vector, pool)
                marks.append(time.perf_counter())
                cpu.append(time.thread_time())
                return hits

            side_cpu = time.process_time()
            await store.found_memories(nearest)
            millis["vector side cpu"].append(1000 * (time.process_time() - side_cpu))
            started, encoded, searched = marks
            millis["encoder"].append(1000 * (encoded - started))
            millis["vector index"].append(1000 * (searched - encoded))
            millis["vector rows"].append(1000 * (time.perf_counter() - searched))
            millis["encoder cpu"].append(1000 * (cpu[1] - cpu[0]))
            millis["vector index cpu"].append(1000 * (cpu[2] - cpu[1]))

        async def lexical(text: str) -> None:
            started, cpu = time.perf_counter(), time.process_time()
            await store.search_fts_memories(store.project_id, text, None, pool)
            millis["lexical"].append(1000 * (time.perf_counter() - started))
            millis["lexical cpu"].append(1000 * (time.process_time() - cpu))

        def searching(part: str, searcher: Retriever) -> Callable[[str], Awaitable[None]]:
            async def search(text: str) -> None:
                started, cpu = time.perf_counter(), time.process_time()
                await searcher.search(store.project_id, f"{text} ({part})", TOP)
                millis[part].append(1000 * (time.perf_counter() - started))
                if part == "search":
                    millis["search cpu"].append(1000 * (time.process_time() - cpu))

            return search

        one_sided = [
            Retriever(store, embedder=embedder, index=index, settings=settings)
            for settings in (
                RetrievalSettings(use_lexical=False),
                RetrievalSettings(use_vector=False),
            )
        ]
        units: list[Callable[[str], Awaitable[None]]] = [
            vector_side,
            lexical,
            searching("search", retriever),
            searching("vector-only search", one_sided[0]),
            searching("lexical-only search", one_sided[1]),
        ]
        for text in texts[:WARMUP]:
            for unit in units:
                await unit(f"{text} (warm-up)")
        for part in PARTS:
            millis[part].clear()
        before = load()
        for n, text in enumerate(texts):
            for k in range(len(units)):
                await units[(n + k) % len(units)](text)
        return PartTimes(millis, before, load(), (saved, made))
    finally:
        await store.close()


def format_parts(size: int, parts: PartTimes) -> str:
    """One line of p50s (ms) per size, the load beside it."""
    figures = "  ".join(f"{part} {parts.p50(part):.2f}" for part in PARTS)
    loads = "  ".join(
        f"{name} {took.seconds:.2f} s (cpu {took.cpu_seconds:.2f} s, copy or codes "
        f"{'read' if took.copy_read else 'made'})"
        for name, took in zip(
            ("saved", "without copy or codes file"), parts.index_loads, strict=True
        )
    )
    return (
        f"{size:>7} in process, p50 ms: {figures}  "
        f"load 1/5/15 min {parts.load_before} -> {parts.load_after}\n"
        f"{size:>7} index load: {loads}"
    )
