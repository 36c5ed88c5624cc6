"""`python -m bench [--quick] [--json PATH]`: every benchmark, one table, the same figures as JSON.

Sections, in order: startup (cold start to SERVING, idle RSS), ingest (fixture transcripts end to
end into memory through `sqrl up` + `sqrl import`, then processing), pipeline (AppendEvents and
processing throughput, bench/fixture_pipeline.py), writes (`Remember` and `RememberMany` over
gRPC, bench/writes.py), retrieval (bench/retrieval_latency.py),
mcp + budget + rss (bench/mcp_latency.py), quality (bench/retrieval_quality.py, shipped
settings), answer-key (bench/answer_key.py: the fixture projects' memories scored against
our gold notes, rules extractor), foresight (bench/foresight.py: each fixture project's sessions
replayed in order, what the hooks would have injected scored against what the session then
did) and hooks (`sqrl hook` wall time, services up and down,
bench/hook_latency.py) and cli (everyday `sqrl` commands and `sqrl mcp` to its `initialize`
answer, median wall time next to bare Python, bench/cli_latency.py). `--quick` runs 1k/10k
only, with fewer runs and calls, in a few minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import logging
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import psutil
import structlog

from bench import (
    answer_key,
    answer_key_table,
    cli_latency,
    fixture_pipeline,
    foresight,
    foresight_table,
    hook_latency,
    ingest_end_to_end,
    mcp_latency,
    retrieval_latency,
    retrieval_quality,
    writes,
)
from bench import service_startup as startup
from bench.common import (
    SHARED_FIXTURES,
    Figure,
    print_table,
    write_json,
)
from squirrel_memory.index import FaissIndex
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import TaskContextSettings

DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "latest.json"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Plan:
    """How much each benchmark does."""

    startup_runs: int
    ingest_copies: int
    pipeline_runs: int
    sizes: tuple[int, ...]
    queries: int
    base_texts: int
    mcp_sizes: tuple[int, ...]
    mcp_calls: int
    cli_runs: int = 5
    #: `Remember` calls one at a time, items sent with `RememberMany`, items per call.
    writes: tuple[int, int, int] = (100, 300, 100)
    #: Copies of the fixtures moved in at once after the first run (a window of several seconds).
    ingest_bulk: int = 5


QUICK = Plan(1, 1, 1, (1_000, 10_000), 60, 1_000, (10_000,), 12, 5)
FULL = Plan(
    3,
    3,
    3,
    (1_000, 10_000, 100_000),
    200,
    3_000,
    (1_000, 10_000, 100_000),
    40,
    7,
    (200, 580, 100),
    10,
)


# -- startup -----------------------------------------------------------------------------------


def startup_figures(runs: int) -> list[Figure]:
    times: list[float] = []
    bare: list[float] = []
    rss: dict[str, list[float]] = {}
    for _ in range(runs):
        elapsed, sizes = startup.one_run()
        times.append(elapsed)
        bare.extend(startup.bare_python() for _ in range(3))
        for name, mib in sizes.items():
            rss.setdefault(name, []).append(mib)
    median = statistics.median(times)
    floor = statistics.median(bare)
    note = f"median of {runs} fresh homes; {median / floor:.0f}x python -c pass ({floor:.3f} s)"
    figures = [Figure("startup", "sqrl up --detach to all SERVING", median, "s", note)]
    figures += [
        Figure("rss", f"{name} idle, empty home", statistics.median(values), "MiB", note)
        for name, values in rss.items()
    ]
    return figures


# -- pipeline (fixture_pipeline.py) ------------------------------------------------------------


def pipeline_figures(runs: int) -> list[Figure]:
    projects = list(fixture_pipeline.fixture_projects(fixture_pipeline.DEFAULT_FIXTURES))
    results = [asyncio.run(fixture_pipeline.run_once(projects, False)) for _ in range(runs)]
    events = results[0][0]
    note = f"{events} events, {len(projects)} projects, median of {runs}"
    return [
        Figure("pipeline", "AppendEvents via gRPC, batches of 500",
               statistics.median(n / a for n, a, _ in results), "events/s", note),
        Figure("pipeline", "processing, rules extractor",
               statistics.median(n / p for n, _, p in results), "events/s", note),
    ]  # fmt: skip


# -- retrieval quality (retrieval_quality.py, shipped settings only) ---------------------------


async def _quality(root: Path) -> tuple[str, dict[str, retrieval_quality.Quality]]:
    data = json.loads(retrieval_quality.DEFAULT_DATA.read_text(encoding="utf-8"))
    queries = [retrieval_quality.Query(q["query"], tuple(q["relevant"])) for q in data["queries"]]
    embedder, embedder_name = retrieval_quality.choose_embedder("auto")
    store = await SqliteStore.open(str(root))
    try:
        await retrieval_quality.build_memories(store, retrieval_quality.DEFAULT_FIXTURES, data)
        items = await retrieval_quality.live_memories(store)
        vectors = await embedder.embed([embedding_text(m) for m in items])
        index = FaissIndex(embedder.dim, embedder.model_id)
        index.upsert(zip([m.id for m in items], vectors, strict=True))
        shipped = TaskContextSettings()
        base = RetrievalSettings()
        modes = {
            "lexical-only": RetrievalSettings(use_vector=False),
            "vector-only": RetrievalSettings(use_lexical=False),
            "hybrid": base,
        }
        results = {}
        for name, settings in modes.items():
            retriever = Retriever(store, embedder=embedder, index=index, settings=settings)
            threshold = (
                shipped.min_relevance if settings.use_vector else shipped.min_relevance_lexical
            )
            ranking = await retrieval_quality.rank_all(retriever, str(root), queries)
            results[name] = retrieval_quality.quality(ranking, queries, threshold)
        return f"{embedder_name}, {len(items)} memories, {len(queries)} queries", results
    finally:
        await store.close()


def quality_figures() -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve() / "claude-code-log"
        root.mkdir()
        note, results = asyncio.run(_quality(root))
    if "FAKE" in note:
        note = "FAKE embedder: " + note
    figures: list[Figure] = []
    for mode, q in results.items():
        figures += [
            Figure("quality", f"{mode} recall@5", q.recall5, "ratio", note),
            Figure("quality", f"{mode} recall@10", q.recall10, "ratio"),
            Figure("quality", f"{mode} MRR", q.mrr, "ratio"),
            Figure("quality", f"{mode} abstention accuracy, shipped threshold", q.shipped, "ratio"),
        ]
    return figures


# -- answer key (answer_key.py) ---------------------------------------------------------------


def answer_key_figures() -> list[Figure]:
    if not fixture_pipeline.DEFAULT_FIXTURES.is_dir():
        return []
    measured = answer_key.measure(fixture_pipeline.DEFAULT_FIXTURES, "rules")
    return answer_key_table.figures(measured.scores)


# -- foresight (foresight.py) ------------------------------------------------------------------


def foresight_figures() -> list[Figure]:
    if not SHARED_FIXTURES.is_dir():
        return []
    return foresight_table.figures(foresight.measure(SHARED_FIXTURES))


# -- the run -----------------------------------------------------------------------------------


def run_plan(plan: Plan, only: Sequence[str]) -> list[Figure]:
    steps: dict[str, Callable[[], list[Figure]]] = {
        "startup": lambda: startup_figures(plan.startup_runs),
        "ingest": lambda: ingest_end_to_end.ingest_figures(plan.ingest_copies, plan.ingest_bulk),
        "pipeline": lambda: pipeline_figures(plan.pipeline_runs),
        "writes": lambda: asyncio.run(writes.measure(*plan.writes)),
        "retrieval": lambda: asyncio.run(
            retrieval_latency.run(plan.sizes, plan.queries, plan.base_texts)
        ),
        "mcp": lambda: [
            figure
            for size in plan.mcp_sizes
            for figure in asyncio.run(mcp_latency.measure(size, plan.mcp_calls, plan.base_texts))
        ],
        "quality": quality_figures,
        "answer-key": answer_key_figures,
        "foresight": foresight_figures,
        "hooks": lambda: asyncio.run(hook_latency.measure(1000, plan.mcp_calls, 3)),
        "cli": lambda: cli_latency.measure(plan.cli_runs),
    }
    figures: list[Figure] = []
    for name, step in steps.items():
        if only and name not in only:
            continue
        started = time.perf_counter()
        print(f"running {name} ...", file=sys.stderr, flush=True)
        found = step()
        print(f"  {name} done in {time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)
        figures += found
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k/10k only, fewer runs")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write figures")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        choices=(
            "startup",
            "ingest",
            "pipeline",
            "writes",
            "retrieval",
            "mcp",
            "quality",
            "answer-key",
            "foresight",
            "hooks",
            "cli",
        ),
        help="run only this section (repeatable)",
    )
    parser.add_argument(
        "--ingest-copies",
        type=int,
        metavar="N",
        help="copies of the fixtures moved in at once for the ingest bulk row (quick 5, full 10)",
    )
    args = parser.parse_args(argv)
    # In-process services log; keep their warnings (e.g. an index file not written yet) quiet.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    plan = QUICK if args.quick else FULL
    if args.ingest_copies is not None:
        plan = dataclasses.replace(plan, ingest_bulk=max(0, args.ingest_copies))
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    started = time.perf_counter()
    figures = run_plan(plan, args.only)
    print_table(figures)
    meta = {
        "format": FORMAT_VERSION,
        "mode": "quick" if args.quick else "full",
        "sections": args.only or ["all"],
        "started_at": started_at,
        "duration_seconds": round(time.perf_counter() - started, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": psutil.cpu_count(),
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
    }
    write_json(args.json, figures, meta)
    print(f"figures written to {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
