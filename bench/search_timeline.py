"""Where one search's wall-clock time goes along its critical path: a mark per step, by thread.

`bench.search_stages` gives each stage's CPU on its own thread, which leaves out the waits (for
a reader thread to wake, for the GIL, for a core, for the event loop to wake again). Here each
question goes through `Retriever.search_rows` (top 10, the shipped settings; what SearchMemory
calls) in this process on a filled project (`--keep DIR` as `bench.search_stages` fills and
keeps it), and the search path is marked, each mark the wall-clock ms since the search began:

- on the event loop: `pair handed off` (both reads queued to the readers), `loop woken` (the
  paired read's answer back on the loop), `ranked` (fusion and placing done), `end` (the page);
- on the vector reader: `vector job start`, `encoder start` and `encoder end` (the query's
  embedding), `index end` (the vector index searched), `hits end` (the exact cosines of the
  lexical hits outside the pool and which rows to read), `vector job end` (its rows read);
- on the lexical reader: `lexical job start` and `lexical job end` (BM25 and its rows).

It prints each mark's p50 over the questions, in the order of the p50s, and beside each the
p50 of its step (the time from the mark before it on the critical path, the vector side's;
the lexical marks stand beside it). With `--vector-only` the searches run with the lexical side
off (`RetrievalSettings(use_lexical=False)`), to see what the lexical side running beside the
encoder costs it.

Usage: python -m bench.search_timeline [--sizes 10000,100000] [--queries 150] [--keep DIR]
       [--base-texts 3000|all] [--vector-only]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import structlog

from bench.common import percentile
from bench.search_stages import seeded
from bench.seeded_project import base_texts_arg, loaded_embedder, questions
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.retrieval import RetrievalSettings, Retriever
from squirrel_memory.retrieval import candidates as candidates_module
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.database import SqliteDatabase

WARMUP = 10
TOP = 10
CRITICAL = (
    "pair handed off",
    "vector job start",
    "encoder start",
    "encoder end",
    "index end",
    "hits end",
    "vector job end",
    "loop woken",
    "ranked",
    "end",
)
"""The marks of the critical path, in the order a search passes them."""
LEXICAL = ("lexical job start", "lexical job end")


class Marks:
    """The marks of the search being timed: ns since its start, the first of each name."""

    def __init__(self) -> None:
        self.started = 0
        self.at: dict[str, int] = {}

    def begin(self) -> None:
        self.at = {}
        self.started = time.perf_counter_ns()

    def mark(self, name: str) -> None:
        self.at.setdefault(name, time.perf_counter_ns())

    def millis(self) -> dict[str, float]:
        return {name: (ns - self.started) / 1e6 for name, ns in self.at.items()}


@contextmanager
def marked(marks: Marks, embedder: Embedder, index: FaissIndex) -> Iterator[None]:
    """The search path wrapped to leave its marks (undone on exit)."""
    pair = SqliteDatabase.read_pair
    nearest = candidates_module._VectorSearch.nearest
    rank = Retriever._rank

    async def ranked(self: Retriever, *args: Any, **kwargs: Any) -> Any:
        try:
            return await rank(self, *args, **kwargs)
        finally:
            marks.mark("ranked")

    async def read_pair(self: SqliteDatabase, first: Any, second: Any) -> Any:
        def vector(conn: Any) -> Any:
            marks.mark("vector job start")
            try:
                return first(conn)
            finally:
                marks.mark("vector job end")

        def lexical(conn: Any) -> Any:
            marks.mark("lexical job start")
            try:
                return second(conn)
            finally:
                marks.mark("lexical job end")

        marks.mark("pair handed off")
        try:
            return await pair(self, vector, lexical)
        finally:
            marks.mark("loop woken")

    def hits(self: Any) -> Any:
        try:
            return nearest(self)
        finally:
            marks.mark("hits end")

    embed, search = embedder.embed_query_now, index.search

    def embed_query_now(text: str) -> Any:
        marks.mark("encoder start")
        try:
            return embed(text)
        finally:
            marks.mark("encoder end")

    def index_search(query: Any, k: int) -> Any:
        try:
            return search(query, k)
        finally:
            marks.mark("index end")

    SqliteDatabase.read_pair = read_pair  # type: ignore[method-assign]
    Retriever._rank = ranked  # type: ignore[method-assign]
    candidates_module._VectorSearch.nearest = hits  # type: ignore[method-assign]
    embedder.embed_query_now = embed_query_now  # type: ignore[method-assign]
    index.search = index_search  # type: ignore[method-assign]
    try:
        yield
    finally:
        SqliteDatabase.read_pair = pair  # type: ignore[method-assign]
        Retriever._rank = rank  # type: ignore[method-assign]
        candidates_module._VectorSearch.nearest = nearest  # type: ignore[method-assign]
        del embedder.embed_query_now
        del index.search


def steps(p50s: dict[str, float]) -> dict[str, float]:
    """Each critical mark's step: its p50 less the p50 of the critical mark before it found
    (the first from the search's start); a lexical mark's step is from the lexical start."""
    out: dict[str, float] = {}
    before = 0.0
    for name in CRITICAL:
        if name in p50s:
            out[name] = p50s[name] - before
            before = p50s[name]
    if LEXICAL[0] in p50s:
        out[LEXICAL[0]] = p50s[LEXICAL[0]] - p50s.get("pair handed off", 0.0)
        if LEXICAL[1] in p50s:
            out[LEXICAL[1]] = p50s[LEXICAL[1]] - p50s[LEXICAL[0]]
    return out


def format_marks(size: int, side: str, p50s: dict[str, float], load: str) -> str:
    """One line per mark, in the order of their p50s: the mark's p50 and its step's."""
    step = steps(p50s)
    lines = [f"{size:>7} {side:<12} load 1/5/15 min {load}"]
    for name, at in sorted(p50s.items(), key=lambda item: item[1]):
        lane = "lexical" if name in LEXICAL else "critical"
        lines.append(
            f"{size:>7} {side:<12} {name:<18} {lane:<8} at {at:7.3f}  step {step[name]:6.3f}"
        )
    return "\n".join(lines)


async def time_marks(
    project: Path, embedder: Embedder, texts: Sequence[str], vector_only: bool
) -> dict[str, float]:
    """The p50 of each mark over `texts` on the project at `project`."""
    store = await SqliteStore.open(str(project))
    try:
        await asyncio.to_thread(store.wait_lexical_index, 600.0)
        index = await asyncio.to_thread(
            FaissIndex.load, index_path(str(project)), embedder.dim, embedder.model_id
        )
        settings = RetrievalSettings(use_lexical=False) if vector_only else RetrievalSettings()
        retriever = Retriever(store, embedder=embedder, index=index, settings=settings)
        marks = Marks()
        found: dict[str, list[float]] = {}
        with marked(marks, embedder, index):
            warm = [f"{t} (warm-up)" for t in texts[:WARMUP]]
            for n, text in enumerate([*warm, *texts]):
                marks.begin()
                await retriever.search_rows(store.project_id, text, TOP)
                marks.mark("end")
                if n < len(warm):
                    continue
                for name, ms in marks.millis().items():
                    found.setdefault(name, []).append(ms)
        return {name: percentile(ms, 50) for name, ms in found.items()}
    finally:
        await store.close()


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


async def run(
    sizes: Sequence[int], queries: int, base_texts: int, keep: Path, vector_only: bool
) -> list[str]:
    embedder = loaded_embedder()
    out: list[str] = []
    side = "vector only" if vector_only else "search"
    for size in sizes:
        project = await seeded(keep, size, embedder, base_texts)
        texts = [f"{q} (timeline {size})" for q in questions(queries)]
        before = load()
        p50s = await time_marks(project, embedder, texts, vector_only)
        out.append(format_marks(size, side, p50s, f"{before} -> {load()}"))
        print(out[-1], flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=150)
    parser.add_argument("--base-texts", type=base_texts_arg, default=3000, help="a count or all")
    parser.add_argument("--keep", type=Path, default=None, help="keep the filled projects here")
    parser.add_argument("--vector-only", action="store_true", help="the lexical side off")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep if args.keep is not None else Path(tmp)
        asyncio.run(run(sizes, args.queries, args.base_texts, keep, args.vector_only))
    print(
        "ms of wall clock since the search began, p50 over the questions; step = the p50 less"
        " the p50 of the critical mark before it (lexical marks: from the hand-off, and the"
        " lexical job's own span)"
    )


if __name__ == "__main__":
    main()
