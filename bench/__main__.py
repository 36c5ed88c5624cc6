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
import sqlite3
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
    cli_latency,
    fixture_pipeline,
    foresight,
    foresight_table,
    hook_latency,
    mcp_latency,
    retrieval_latency,
    retrieval_quality,
    writes,
)
from bench import service_startup as startup
from bench.common import (
    SHARED_FIXTURES,
    Figure,
    git_repo,
    print_table,
    service_env,
    sqrl,
    write_json,
)
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import read_service_info
from squirrel_memory.index import FaissIndex
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import TaskContextSettings
from tests.transcripts import place_claude

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


# -- ingest end to end -------------------------------------------------------------------------


def _transcripts() -> list[Path]:
    base = SHARED_FIXTURES / "claude"
    return sorted(p for p in base.rglob("*.jsonl") if p.stat().st_size > 0)


def _stored_events(repo: Path) -> int:
    with sqlite3.connect(repo / ".ctx" / "data.db", timeout=10) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])


async def _process_all(home: Path, project_id: str) -> tuple[int, int, float]:
    layout = HomeLayout(home)
    token = layout.token.read_text().strip()
    client = MemoryClient(open_channel(target_of(layout.service_file("memory"))), token, 1800)
    try:
        started = time.perf_counter()
        report = await client.call(
            client.stub.ProcessNow, pb.ProcessNowRequest(project_id=project_id, drain=True)
        )
        return report.events_processed, report.memories_added, time.perf_counter() - started
    finally:
        await client.close()


async def _wait_model(home: Path, timeout: float) -> None:
    layout = HomeLayout(home)
    token = layout.token.read_text().strip()
    client = MemoryClient(open_channel(target_of(layout.service_file("memory"))), token, 30)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = await client.call(
                client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest()
            )
            if not status.embedder_loading:
                return
            await asyncio.sleep(0.1)
    finally:
        await client.close()


def _wait_settled(home: Path, names: Sequence[str], timeout: float = 60.0) -> None:
    """Waits until the services have finished starting: the memory service has loaded its
    embedding model (in the background after SERVING) and they use under 5 % of a core over
    half a second, or `timeout`."""
    asyncio.run(_wait_model(home, timeout))
    layout = HomeLayout(home)
    procs = []
    for name in names:
        info = read_service_info(layout.service_file(name))
        if info is not None:
            procs.append(psutil.Process(info.pid))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = sum(sum(p.cpu_times()[:2]) for p in procs)
        time.sleep(0.5)
        if sum(sum(p.cpu_times()[:2]) for p in procs) - before < 0.025:
            return


def _stage(sources: Sequence[Path], staging: Path, repo: Path, tag: str, copies: int) -> list[Path]:
    """Copies of the fixtures (each record's `cwd` moved into `repo`), each with its own file name
    and session ids, written under `staging`."""
    return [
        place_claude(src, staging, str(repo), f"{tag}{copy}-{number}-{src.name}", f"-{tag}{copy}")
        for copy in range(copies)
        for number, src in enumerate(sources)
    ]


def _move_in(staged: Sequence[Path], staging: Path, claude: Path) -> list[Path]:
    placed = [claude / path.relative_to(staging) for path in staged]
    for source, target in zip(staged, placed, strict=True):
        target.parent.mkdir(parents=True, exist_ok=True)
        source.rename(target)
    return placed


def _timed_import(env: dict[str, str]) -> tuple[dict[str, int], float]:
    started = time.perf_counter()
    summary = json.loads(sqrl(env, "import", "--json", timeout=1800).stdout)
    return summary, time.perf_counter() - started


def _first_stored(
    env: dict[str, str], home: Path, repo: Path, staging: Path, claude: Path, source: Path, tag: str
) -> float:
    """Seconds from one new transcript moved into the watched root to its first event in SQLite
    (the count polled every 5 ms), with no `sqrl import`: what the watcher alone delivers."""
    staged = _stage([source], staging, repo, tag, 1)
    _wait_settled(home, ("memory", "ingest"))
    with sqlite3.connect(repo / ".ctx" / "data.db", timeout=10) as conn:
        before = int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        started = time.perf_counter()
        _move_in(staged, staging, claude)
        while int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]) == before:
            if time.perf_counter() - started > 60:
                raise RuntimeError(f"no event of {source.name} stored within 60 s")
            time.sleep(0.005)
        elapsed = time.perf_counter() - started
    _timed_import(env)  # the rest of the file, so the next measure starts caught up
    return elapsed


def ingest_figures(copies: int, bulk_copies: int) -> list[Figure]:
    """Fixture transcripts moved into a watched Claude root while `sqrl up` runs; timed until
    `sqrl import` returns (every file read to its end and delivered to memory), then processed.

    The copies (each record's `cwd` moved into the bench repository) are written beside the
    root before the clock starts, then renamed into it, so the figure is ingest's work, not the
    bench's JSON rewriting; the clock starts once the services have settled after their start.
    Every copy has its own name (some fixtures share a file name).

    Then, on the same running services: `bulk_copies` copies moved in at once the same way (the
    fixed costs of a run weigh less over a window of several seconds), an idle `sqrl import
    --json` on the caught-up home, and the time from one new transcript to its first stored
    event (the watcher alone)."""
    sources = _transcripts()
    with tempfile.TemporaryDirectory() as tmp:
        repo = git_repo(Path(tmp) / "repo")
        claude = Path(tmp) / "claude" / "projects"
        claude.mkdir(parents=True)
        staging = Path(tmp) / "staging"
        home = Path(tmp) / "home"
        env = service_env(home, SQRL_INGEST_CLAUDE_ROOTS=str(claude))
        sqrl(env, "init", cwd=repo)
        sqrl(env, "up", "--detach")
        try:
            staged = _stage(sources, staging, repo, "", copies)
            placed = [claude / path.relative_to(staging) for path in staged]
            _wait_settled(home, ("memory", "ingest"))
            started = time.perf_counter()
            for source, target in zip(staged, placed, strict=True):
                target.parent.mkdir(parents=True, exist_ok=True)
                source.rename(target)
            summary = json.loads(sqrl(env, "import", "--json", timeout=1800).stdout)
            elapsed = time.perf_counter() - started
            lines = sum(len(p.read_bytes().splitlines()) for p in placed)
            size = sum(p.stat().st_size for p in placed)
            events = _stored_events(repo)
            processed, added, process_s = asyncio.run(_process_all(home, str(repo)))
            bulk = _stage(sources, staging, repo, "bulk", bulk_copies) if bulk_copies else []
            _wait_settled(home, ("memory", "ingest"))
            started = time.perf_counter()
            bulk_placed = _move_in(bulk, staging, claude)
            bulk_summary, _ = _timed_import(env)
            bulk_s = time.perf_counter() - started
            bulk_lines = sum(len(p.read_bytes().splitlines()) for p in bulk_placed)
            bulk_events = _stored_events(repo) - events
            asyncio.run(_process_all(home, str(repo)))
            _wait_settled(home, ("memory", "ingest"))
            idle = [_timed_import(env)[1] for _ in range(3)]
            middle = sorted(sources, key=lambda p: p.stat().st_size)[len(sources) // 2]
            first = [
                _first_stored(env, home, repo, staging, claude, middle, f"first{n}")
                for n in range(3)
            ]
        finally:
            sqrl(env, "down")
    note = f"{len(placed)} files, {size / 1e6:.1f} MB, {lines} lines, {events} events stored"
    figures = [
        Figure("ingest", "transcripts to memory SQLite, lines", lines / elapsed, "lines/s", note),
        Figure("ingest", "transcripts to memory SQLite, bytes", size / 1e6 / elapsed, "MB/s", note),
        Figure("ingest", "transcripts to memory SQLite, events", events / elapsed, "events/s",
               f"sqrl import saw {summary.get('files', 0)} files; the watcher had delivered "
               f"{events - int(summary.get('events', 0))} events before it"),
        Figure("ingest", "ProcessNow drain in the service (rules)", processed / process_s,
               "events/s", f"{processed} events, {added} memories added"),
    ]  # fmt: skip
    if bulk_placed:
        figures.append(
            Figure("ingest", f"{bulk_copies} copies at once to memory SQLite, lines",
                   bulk_lines / bulk_s, "lines/s",
                   f"{len(bulk_placed)} files, {bulk_lines} lines, {bulk_events} events stored, "
                   f"{bulk_s:.1f} s; sqrl import saw {bulk_summary.get('files', 0)} files")
        )  # fmt: skip
    figures += [
        Figure("ingest", "sqrl import --json, idle and caught up", statistics.median(idle), "s",
               f"median of {len(idle)}: " + ", ".join(f"{s:.2f}" for s in idle)),
        Figure("ingest", "new transcript to its first stored event", statistics.median(first),
               "s", f"a {middle.stat().st_size / 1e3:.0f} kB transcript, watcher only, median of "
               f"{len(first)}: " + ", ".join(f"{s:.2f}" for s in first)),
    ]  # fmt: skip
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
    return answer_key.figures(measured.scores)


# -- foresight (foresight.py) ------------------------------------------------------------------


def foresight_figures() -> list[Figure]:
    if not SHARED_FIXTURES.is_dir():
        return []
    return foresight_table.figures(foresight.measure(SHARED_FIXTURES))


# -- the run -----------------------------------------------------------------------------------


def run_plan(plan: Plan, only: Sequence[str]) -> list[Figure]:
    steps: dict[str, Callable[[], list[Figure]]] = {
        "startup": lambda: startup_figures(plan.startup_runs),
        "ingest": lambda: ingest_figures(plan.ingest_copies, plan.ingest_bulk),
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
        "hooks": lambda: asyncio.run(hook_latency.measure(1000, plan.mcp_calls)),
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
