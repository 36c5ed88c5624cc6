"""Where one search's CPU goes, stage by stage and thread by thread, at each store size.

For each size (400, 10k and 100k memories by default) a project is filled as `bench.search_floor`
fills it (`seed_project`: up to `--base-texts` vectors embedded, the rest derived; `--keep DIR`
keeps the filled projects under DIR and reuses them on the next run, so two trees can be timed on
the same store) and searched in this process (`Retriever.search`, top 10, the shipped settings),
one question at a time. Each stage of a search is wrapped where it is called and timed by the CPU
clock of the thread it runs on (`time.thread_time_ns`), so waiting for a core or for the GIL is
not counted:

- the vector reader's job (`vector job`): the query's embedding (`encoder`), the vector index
  searched for the pool (`vector index`), the exact cosines of the lexical hits outside it
  (`exact cosines`), the rows of the hits worth reading (`vector rows`), and the rest of the job
  (`vector other`: the rescaling, which hits to read, the job's start and end);
- the lexical reader's job (`lexical job`): the query's words to tokens (`tokenizer`, a SQLite
  round trip for a word not seen before), the in-memory index brought up to the snapshot
  (`lexical catch-up`), BM25 (`bm25`), the hits' rows (`lexical rows`), the query terms each weak
  hit holds (`matched terms`) and the rest (`lexical other`);
- the event loop's thread (`event loop`): the query parsed (`parse`), score fusion (`fusion`),
  the candidates placed in order (`placing`), the page's scored memories and results (`page`),
  and the rest (`event loop other`: the hand-offs to and from the readers, the live filter,
  asyncio, the log line);
- `search cpu`: the process's CPU (every thread) over the whole search; `search wall`: its
  wall-clock time;
- the floor in process, each question asked of it right after the search: `empty search` (the
  process's CPU over `Retriever.search` on an empty project, no vector to search, the same
  path), `encoder alone` (this thread's CPU over the query encoder, on another spelling of the
  question so its cache of recent queries does not answer). Below the stages, per size: the CPU
  floor (their p50s added), the ratio of `search cpu` to it, what 1.3x the floor leaves above
  it, and what the vector index and BM25 alone take of that (their p50s added).

Each stage prints its median, 95th percentile and mean CPU ms per search (a stage a search does
not reach counts as 0 for it). A stage whose code is missing (an older tree) prints `-`. Last,
per size, the memory rows a search asks for (the ids of each of its row reads, through the row
cache) and those it reads from the file (not in the cache), p50 and mean per search.
With `--baseline TREE` the same bench runs TREE's code (its services and core, this bench) on the
same kept stores right after this tree's, one side after the other; it needs `--keep`.

With `--ids-looked-up` each question is asked a second time, the same text, the order rotating,
with a row cache of its own and the lexical index's memory ids hidden (side `ids looked up`):
its hits are then looked up in `memory_fts_docs` by doc id, through the row cache's doc map,
as before the index carried the ids. The encoder's cache of recent queries answers the second
ask of a question, so compare the lexical stages only.

With `--rows-kept` each question is asked a second time (the order rotating) with a row cache
that holds every memory row of the project, decoded, and every full-text doc id (side `rows
kept`): the row reads then touch no row of the file, which is the most that keeping what ranking
needs in memory, beside the indexes, could save them.

Usage: python -m bench.search_stages [--sizes 400,10000,100000] [--queries 200]
       [--base-texts 3000|all] [--keep DIR] [--baseline TREE | --rows-kept | --ids-looked-up]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import structlog

from bench.common import git_repo, percentile
from bench.memory_process import tree_env
from bench.seeded_project import base_texts_arg, loaded_embedder, questions, seed_project
from bench.stage_floor import (
    IDS_LOOKED_UP,
    ROWS_KEPT,
    TARGET,
    every_row_kept,
    floor_parts,
    memory_ids_hidden,
)
from bench.stage_probes import ROWS_ASKED, ROWS_READ, Clocks, probes
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.retrieval import Retriever
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.row_cache import RowCache

TOP = 10
WARMUP = 10
LEXICAL_BUILD_SECONDS = 900.0
"""Longest wait for the in-memory lexical index (minutes at 100k memories on a loaded machine)."""

# Each stage: its name, the thread it runs on, and the stages it holds (its `other` is what is
# left of it once they are taken away).
VECTOR_PARTS = ("encoder", "vector index", "exact cosines", "vector rows")
LEXICAL_PARTS = ("tokenizer", "lexical catch-up", "bm25", "lexical rows", "matched terms")
LOOP_PARTS = ("parse", "fusion", "placing", "page")
STAGES: tuple[tuple[str, str], ...] = (
    *((s, "vector reader") for s in VECTOR_PARTS),
    ("vector other", "vector reader"),
    ("vector job", "vector reader"),
    *((s, "lexical reader") for s in LEXICAL_PARTS),
    ("lexical other", "lexical reader"),
    ("lexical job", "lexical reader"),
    *((s, "event loop") for s in LOOP_PARTS),
    ("event loop other", "event loop"),
    ("event loop", "event loop"),
    ("search cpu", "every thread"),
    ("search wall", "wall clock"),
    ("empty search", "every thread"),
    ("encoder alone", "event loop"),
)

DERIVED = {
    "vector other": ("vector job", VECTOR_PARTS),
    "lexical other": ("lexical job", LEXICAL_PARTS),
    "event loop other": ("event loop", LOOP_PARTS),
}


@dataclass(frozen=True)
class StageTimes:
    """CPU ms per search of each stage found, the loads around the timed searches."""

    size: int
    side: str
    millis: dict[str, list[float]]
    load_before: str
    load_after: str

    def figure(self, stage: str, what: str) -> float | None:
        values = self.millis.get(stage)
        if values is None:
            return None
        if what == "mean":
            return sum(values) / len(values)
        return percentile(values, 50 if what == "p50" else 95)


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def per_search(taken: dict[str, int], found: set[str]) -> dict[str, float]:
    """One search's CPU ms per stage found (0 for a stage it did not reach), `other`s derived."""
    ms = {stage: taken.get(stage, 0) / 1e6 for stage in found}
    for other, (whole, parts) in DERIVED.items():
        if whole in found:
            ms[other] = ms[whole] - sum(ms.get(p, 0.0) for p in parts)
    return ms


async def time_stages(
    root: Path,
    embedder: Embedder,
    texts: Sequence[str],
    size: int,
    side: str,
    *,
    rows_kept: bool = False,
    ids_looked_up: bool = False,
) -> list[StageTimes]:
    """Each stage's CPU per search on the seeded project at `root`, and the floor's parts; with
    `rows_kept` a second side (`rows kept`) asks each question again, in rotating order, with
    every memory row already decoded in the row cache; with `ids_looked_up` a second side (`ids
    looked up`, a row cache of its own) asks each question again, the same text, with the
    lexical index's memory ids hidden."""
    store = await SqliteStore.open(str(root))
    empty = await SqliteStore.open(str(git_repo(root.parent / f"empty-{size}")))
    try:
        await asyncio.to_thread(store.wait_lexical_index, LEXICAL_BUILD_SECONDS)
        index = await asyncio.to_thread(
            FaissIndex.load, index_path(str(root)), embedder.dim, embedder.model_id
        )
        retriever = Retriever(store, embedder=embedder, index=index)
        nothing = Retriever(
            empty, embedder=embedder, index=FaissIndex(embedder.dim, embedder.model_id)
        )
        db = store._db  # a bench looks inside
        caches = [(side, db.rows)]
        if rows_kept:
            caches.append((ROWS_KEPT, await db.read(every_row_kept)))
        if ids_looked_up:
            caches.append((IDS_LOOKED_UP, RowCache()))
        clocks = Clocks()
        millis: dict[str, dict[str, list[float]]] = {name: {} for name, _ in caches}
        with probes(store, retriever, index, clocks):
            for name, cache in caches:
                db.rows = cache
                for text in texts[:WARMUP]:
                    with memory_ids_hidden(store._lexical if name == IDS_LOOKED_UP else None):
                        await retriever.search(store.project_id, f"{text} (warm-up {name})", TOP)
            before = load()
            for n, text in enumerate(texts):
                for k in range(len(caches)):
                    name, cache = caches[(n + k) % len(caches)]
                    db.rows = cache
                    spelled = text if name in (side, IDS_LOOKED_UP) else f"{text} ({name})"
                    with memory_ids_hidden(store._lexical if name == IDS_LOOKED_UP else None):
                        ms = await _one_search(retriever, spelled, clocks)
                    ms.update(await floor_parts(nothing, embedder, spelled))
                    for stage, value in ms.items():
                        millis[name].setdefault(stage, []).append(value)
            after = load()
        return [StageTimes(size, name, millis[name], before, after) for name, _ in caches]
    finally:
        await store.close()
        await empty.close()


async def _one_search(retriever: Retriever, text: str, clocks: Clocks) -> dict[str, float]:
    """One search's CPU ms per stage, its process CPU and its wall-clock ms."""
    clocks.take()
    clocks.take_counts()
    wall, process = time.perf_counter_ns(), time.process_time_ns()
    loop = time.thread_time_ns()
    await retriever.search(retriever.project_id, text, TOP)
    loop = time.thread_time_ns() - loop
    process = time.process_time_ns() - process
    wall = time.perf_counter_ns() - wall
    taken = clocks.take()
    taken["event loop"] = loop
    ms = per_search(taken, clocks.found | {"event loop"})
    ms["search cpu"] = process / 1e6
    ms["search wall"] = wall / 1e6
    ms.update((name, float(n)) for name, n in clocks.take_counts().items())
    return ms


async def seeded(root: Path, size: int, embedder: MiniLmEmbedder, base_texts: int) -> Path:
    """The project of `size` memories under `root` (filled now unless a run filled it)."""
    project = root / f"project-{size}-{base_texts}"
    done = project / ".seeded"
    if not done.exists():
        project.mkdir(parents=True, exist_ok=True)
        git_repo(project)
        await seed_project(project, size, embedder, base_texts)
        done.write_text("done\n")
    return project


def asked(size: int, queries: int) -> list[str]:
    """The questions of one size, each unique (no cache answers for them)."""
    return [f"{q} (stages {size})" for q in questions(queries)]


async def run_side(
    sizes: Sequence[int],
    queries: int,
    base_texts: int,
    keep: Path,
    side: str,
    *,
    rows_kept: bool = False,
    ids_looked_up: bool = False,
) -> list[StageTimes]:
    embedder = loaded_embedder()
    out: list[StageTimes] = []
    for size in sizes:
        project = await seeded(keep, size, embedder, base_texts)
        texts = asked(size, queries)
        out += await time_stages(
            project, embedder, texts, size, side, rows_kept=rows_kept, ids_looked_up=ids_looked_up
        )
    return out


def baseline_side(
    tree: Path, sizes: Sequence[int], queries: int, base_texts: int, keep: Path
) -> list[StageTimes]:
    """This bench run on `tree`'s code (its services and core) on the same kept stores."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stages.json"
        argv = [
            sys.executable,
            "-m",
            "bench.search_stages",
            "--sizes",
            ",".join(str(s) for s in sizes),
            "--queries",
            str(queries),
            "--base-texts",
            str(base_texts),
            "--keep",
            str(keep),
            "--side",
            "baseline",
            "--json",
            str(out),
        ]
        env = {**os.environ, **tree_env(tree)}
        root = Path(__file__).resolve().parent.parent
        subprocess.run(argv, env=env, cwd=root, check=True, stdout=subprocess.DEVNULL)
        return [StageTimes(**row) for row in json.loads(out.read_text())]


def format_stages(rows: Sequence[StageTimes]) -> str:
    """Per size and side: one line per stage, its thread and CPU ms p50 / p95 / mean; then the
    floor, the ratio and the budget."""
    head = f"{'size':>7} {'side':<9} {'stage':<17} {'thread':<15} {'p50':>7} {'p95':>7} {'mean':>7}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.size:>7} {r.side:<9} load 1/5/15 min {r.load_before} -> {r.load_after}")
        for stage, thread in STAGES:
            cells = [r.figure(stage, what) for what in ("p50", "p95", "mean")]
            shown = " ".join("      -" if c is None else f"{c:>7.3f}" for c in cells)
            lines.append(f"{r.size:>7} {r.side:<9} {stage:<17} {thread:<15} {shown}")
    lines += [format_budget(r) for r in rows]
    lines += [format_rows_read(r) for r in rows]
    return "\n".join(lines)


def format_rows_read(r: StageTimes) -> str:
    """One line: the memory rows a search asks for (each read's ids, through the row cache)
    and those read from the file, p50 and mean per search (`-` where the tree has no such
    function)."""

    def shown(name: str) -> str:
        values = r.millis.get(name)
        if not values:
            return "-"
        return f"{percentile(values, 50):.1f} ({sum(values) / len(values):.1f})"

    return (
        f"{r.size:>7} {r.side:<9} memory rows per search, p50 (mean): asked {shown(ROWS_ASKED)},"
        f" read from the file {shown(ROWS_READ)}"
    )


def format_budget(r: StageTimes) -> str:
    """One line: the CPU floor in process (p50 of an empty search + p50 of the encoder alone),
    the search's ratio to it, what `TARGET` times the floor leaves above it, and the vector
    index's and BM25's p50 added (two stages no change around them removes)."""
    parts = [r.figure(s, "p50") for s in ("empty search", "encoder alone", "search cpu")]
    if any(p is None for p in parts):
        return f"{r.size:>7} {r.side:<9} floor: not measured (an older tree)"
    empty, encoder, search = (p or 0.0 for p in parts)
    floor = empty + encoder
    fixed = sum(r.figure(s, "p50") or 0.0 for s in ("vector index", "bm25"))
    return (
        f"{r.size:>7} {r.side:<9} floor {floor:.2f} ms (empty {empty:.2f} + encoder {encoder:.2f}),"
        f" search {search:.2f} ms = {search / floor:.2f}x; {TARGET}x leaves"
        f" {(TARGET - 1) * floor:.2f} ms above the floor, vector index + bm25 take {fixed:.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="400,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--base-texts", type=base_texts_arg, default=3000, help="a count or all")
    parser.add_argument("--keep", type=Path, default=None, help="keep the filled projects here")
    parser.add_argument("--baseline", type=Path, default=None, help="another Squirrel tree")
    parser.add_argument(
        "--rows-kept",
        action="store_true",
        help="a second side: each question again with every memory row decoded in the row cache",
    )
    parser.add_argument(
        "--ids-looked-up",
        action="store_true",
        help="a second side: each question again (the same text, a row cache of its own) with "
        "the lexical index's memory ids hidden, its hits looked up by doc id",
    )
    parser.add_argument("--side", default="this", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.baseline is not None and args.keep is None:
        parser.error("--baseline needs --keep (both sides search the same kept stores)")
    if sum((args.baseline is not None, args.rows_kept, args.ids_looked_up)) > 1:
        parser.error(
            "--baseline, --rows-kept and --ids-looked-up are different comparisons; ask one"
        )
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep if args.keep is not None else Path(tmp)
        rows = asyncio.run(
            run_side(
                sizes,
                args.queries,
                args.base_texts,
                keep,
                args.side,
                rows_kept=args.rows_kept,
                ids_looked_up=args.ids_looked_up,
            )
        )
    if args.json is not None:
        args.json.write_text(json.dumps([vars(r) for r in rows]))
        return
    if args.baseline is not None:
        base = baseline_side(args.baseline, sizes, args.queries, args.base_texts, args.keep)
        rows = [r for pair in zip(rows, base, strict=True) for r in pair]
    print(
        "CPU ms per search by stage (thread CPU time of the thread each stage runs on; "
        "search cpu: the process's, every thread; search wall: wall-clock ms); "
        "`other`: the job or thread's CPU less its stages above"
    )
    print(format_stages(rows))


if __name__ == "__main__":
    main()
