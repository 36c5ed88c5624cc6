"""Shared benchmark parts: figures and their table, percentiles, RSS, processes (the memory text
the benches write is `bench.memory_text`)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = ROOT.parent / "shared" / "fixtures"
BENCH_USER = "bench"


# -- figures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One measured number: which benchmark, what, the value, its unit, and how it was got."""

    section: str
    measure: str
    value: float
    unit: str
    note: str = ""


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), linearly interpolated between the two nearest ranks."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def latency_figures(section: str, label: str, millis: Sequence[float]) -> list[Figure]:
    """p50 and p95 of a list of latencies in milliseconds."""
    note = f"n={len(millis)}"
    return [
        Figure(section, f"{label} p50", percentile(millis, 50), "ms", note),
        Figure(section, f"{label} p95", percentile(millis, 95), "ms", note),
    ]


def _shown(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    if abs(value) >= 100 or value == int(value):
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def markdown_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table of `head` and `rows`, each column as wide as its widest cell."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join(
        [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)]
    )


def format_table(figures: Sequence[Figure]) -> str:
    """A Markdown table of section, measure, value, unit and note."""
    rows = [(f.section, f.measure, _shown(f.value), f.unit, f.note) for f in figures]
    head = ("section", "measure", "value", "unit", "note")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def line(cells: Sequence[str]) -> str:
        padded = [
            c.rjust(w) if i == 2 else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(padded) + " |"

    out = [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows]
    return "\n".join(out)


def print_table(figures: Sequence[Figure]) -> None:
    print(format_table(figures), flush=True)


def write_json(path: Path, figures: Sequence[Figure], meta: dict[str, Any]) -> None:
    """The figures as `{"meta": {...}, "figures": [{section, measure, value, unit, note}]}`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [{**asdict(f), "value": None if math.isnan(f.value) else f.value} for f in figures]
    path.write_text(json.dumps({"meta": meta, "figures": rows}, indent=2) + "\n")


# -- processes ---------------------------------------------------------------------------------


def rss_mib(pid: int) -> float:
    """Resident set size of a process in MiB (NaN when it is gone)."""
    try:
        return float(psutil.Process(pid).memory_info().rss) / 2**20
    except psutil.Error:
        return math.nan


def progress(scenario: str, what: str) -> None:
    """A line on stderr as each phase ends (with the load average), so a run stopped before
    its table still says how far it got."""
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"[{datetime.now(UTC):%H:%M:%S}] {scenario}: {what} (load {load})", file=sys.stderr)


def wait_for(predicate: Callable[[], object], timeout: float, what: str) -> None:
    """Polls `predicate` until truthy; raises TimeoutError naming `what` at the deadline."""
    deadline = time.monotonic() + timeout
    delay = 0.02
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(delay)
        delay = min(delay * 1.5, 0.5)
    raise TimeoutError(f"{what} did not happen within {timeout:.0f}s")


def wait_idle(pid: int, timeout: float = 120.0, below_percent: float = 10.0) -> float:
    """Waits until a process uses under `below_percent` CPU over half a second; returns the wait."""
    process = psutil.Process(pid)
    started = time.monotonic()
    process.cpu_percent(None)

    def idle() -> bool:
        time.sleep(0.5)
        return bool(process.cpu_percent(None) < below_percent)

    wait_for(idle, timeout, f"process {pid} going idle")
    return time.monotonic() - started


def process_cpu_ns(pid: int) -> int:
    """CPU time (user + system, every thread, the ended ones too) of process `pid` so far, in ns.

    The counter `/proc/<pid>/stat` reports in clock ticks (10 ms), read at nanosecond precision
    through the process's CPU-time clock (Linux; psutil's tick-rounded figure elsewhere), so
    the CPU of one call a few milliseconds long can be read."""
    try:
        return time.clock_gettime_ns(((~pid) << 3) | 2)  # CPUCLOCK_SCHED of the process
    except (AttributeError, OSError):  # no such clock here
        times = psutil.Process(pid).cpu_times()
        return round(1e9 * (times.user + times.system))


def service_env(home: Path, **extra: str) -> dict[str, str]:
    """This environment without SQRL_* and API keys, with a private home and no real roots."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    none = home.parent / "no-transcripts"
    env.update(
        SQRL_HOME=str(home),
        SQRL_GENERAL_USER_ID=BENCH_USER,
        SQRL_GENERAL_LOG_LEVEL="warning",
        SQRL_INGEST_CLAUDE_ROOTS=str(none / "claude"),
        SQRL_INGEST_CODEX_ROOTS=str(none / "codex"),
        SQRL_INGEST_GEMINI_ROOTS=str(none / "gemini"),
        SQRL_INGEST_CURSOR_ROOTS=str(none / "none-cursor"),
        SQRL_INGEST_GIT_POLL_SECONDS="3600",
        SQRL_PROCESSOR_MIN_EVENTS="100000000",
        SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
    )
    env.update(extra)
    return env


def sqrl(
    env: dict[str, str], *args: str, cwd: Path | None = None, timeout: float = 300.0
) -> subprocess.CompletedProcess[str]:
    """Runs the real `sqrl` of this interpreter; raises with its stderr when it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"sqrl {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return done


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path.resolve()
