"""The ingest rows of `python -m bench`: fixture transcripts end to end into memory SQLite.

Copies of the shared Claude Code fixtures are moved into a watched root while `sqrl up` runs
and timed until `sqrl import` returns, then processed (`ProcessNow`); on the same services, a
bulk of copies at once, an idle `sqrl import`, and one new transcript to its first stored event.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import psutil

from bench.common import SHARED_FIXTURES, Figure, git_repo, service_env, sqrl
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import read_service_info
from tests.transcripts import place_claude


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
