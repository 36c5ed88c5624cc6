"""Shared benchmark parts: figures and their table, percentiles, RSS, processes, memory text."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

from squirrel_memory.models import MemoryCandidate, MemoryType, Scope

ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURES = ROOT.parent / "shared" / "fixtures"
QUERIES_FILE = Path(__file__).resolve().parent / "data" / "retrieval_queries.json"
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


# -- realistic memories ------------------------------------------------------------------------

_AREAS = {
    "auth": ("src/auth/tokens.py", "src/auth/login.py", "tests/test_auth.py"),
    "api": ("src/api/routes.py", "src/api/handlers.py", "src/api/schemas.py"),
    "db": ("src/db/models.py", "src/db/session.py", "migrations/env.py"),
    "cache": ("src/cache/redis_cache.py", "src/cache/keys.py"),
    "cli": ("src/cli/main.py", "src/cli/commands.py"),
    "render": ("src/render/html.py", "templates/transcript.html", "templates/base.html"),
    "parser": ("src/parser/lexer.py", "src/parser/transcript.py", "src/parser/models.py"),
    "worker": ("src/worker/queue.py", "src/worker/tasks.py"),
    "search": ("src/search/index.py", "src/search/embed.py", "src/search/ranking.py"),
    "config": ("src/config/settings.py", "config/default.toml"),
    "ci": (".github/workflows/ci.yml", ".github/workflows/release.yml"),
    "deploy": ("deploy/Dockerfile", "deploy/compose.yml", "deploy/helm/values.yaml"),
    "tests": ("tests/conftest.py", "tests/fixtures/__init__.py", "pyproject.toml"),
    "frontend": ("web/src/App.tsx", "web/src/api.ts", "web/package.json"),
}
_LIBS = (
    "pydantic",
    "sqlalchemy",
    "alembic",
    "fastapi",
    "click",
    "textual",
    "jinja2",
    "mistune",
    "pygments",
    "redis",
    "celery",
    "pytest",
    "playwright",
    "ruff",
    "mypy",
    "uv",
    "docker",
    "grpc",
    "protobuf",
    "numpy",
    "faiss",
    "structlog",
    "httpx",
    "aiosqlite",
    "dateparser",
    "react",
    "vite",
    "typescript",
)
_PURPOSES = (
    "request validation",
    "database migrations",
    "HTML rendering",
    "background jobs",
    "caching sessions",
    "parsing transcripts",
    "command-line parsing",
    "syntax highlighting",
    "dependency management",
    "structured logging",
    "HTTP calls",
    "vector search",
    "snapshot tests",
    "type checking",
    "packaging",
)
_PROBLEMS = (
    "raises TypeError",
    "times out",
    "returns stale data",
    "leaks file handles",
    "deadlocks",
    "double-counts entries",
    "breaks on Windows paths",
    "fails with a validation error",
    "loses the timezone",
    "silently drops the last line",
    "re-renders the whole page",
)
_CONDITIONS = (
    "the cache version is not bumped",
    "two workers write at once",
    "the input ends in Z",
    "a transcript has no timestamp",
    "the session is larger than 50 MB",
    "tests run under xdist",
    "the token is expired",
    "the config file is missing",
    "the migration runs twice",
    "a path contains dashes",
    "the queue is empty",
)
_FIXES = (
    "bump CACHE_VERSION",
    "take the advisory lock first",
    "replace Z with +00:00",
    "sort with a None-safe key",
    "stream the file instead of loading it",
    "mark the test serial",
    "refresh the token before retrying",
    "fall back to the defaults",
    "guard it with IF NOT EXISTS",
    "encode the path with a separator map",
)
_ACTIONS = (
    "run the tests",
    "update the snapshots",
    "regenerate the HTML",
    "apply the migrations",
    "publish a release",
    "rebuild the index",
    "lint the code",
    "type check",
    "start the dev server",
    "reset the local database",
    "record a new fixture",
    "profile a slow request",
)
_COMMANDS = (
    "uv run pytest -q",
    "uv run pytest --snapshot-update",
    "make html",
    "alembic upgrade head",
    "git tag vX.Y.Z && git push --tags",
    "python -m app.reindex",
    "uv run ruff check .",
    "uv run mypy src",
    "npm run dev",
    "rm -f dev.db && make seed",
    "uv run pytest --record-mode=once",
    "py-spy record -o profile.svg -- python -m app",
)
_STYLE = (
    "full type hints and mypy strict",
    "small pure functions",
    "dataclasses over dicts",
    "pathlib over os.path",
    "f-strings",
    "early returns",
    "explicit imports",
    "logging over print",
    "pytest fixtures over setUp",
    "conventional commit messages",
    "short docstrings",
    "tabs-free YAML",
)
_OTHER = (
    "untyped code",
    "large classes",
    "bare tuples",
    "string paths",
    "percent formatting",
    "nested ifs",
    "star imports",
    "print debugging",
    "unittest classes",
    "free-form commits",
    "long docstrings",
    "anchors",
)

DEVELOPER_QUESTIONS: tuple[str, ...] = (
    "how do I run the tests",
    "add a delete endpoint for inventory items",
    "why does the cache return stale data after changing the models",
    "fix the flaky login test",
    "where are the database migrations and how do I apply them",
    "add a new field to the transcript entry models",
    "the worker deadlocks when two jobs write at once",
    "publish a new version to PyPI",
    "which python versions does CI test",
    "render markdown with syntax highlighting in messages",
    "parse ISO timestamps that end in Z",
    "speed up rendering of very large sessions",
    "refresh an expired JWT token before retrying the request",
    "configure redis caching for sessions",
    "what coding style does the user prefer for functions",
    "rebuild the vector search index",
    "update the HTML snapshot tests",
    "deploy with docker compose",
    "where is the CLI entry point defined",
    "TypeError when sorting entries without a timestamp",
)


def fixture_vocabulary() -> list[str]:
    """Words of the hand-written memories beside the fixture transcripts (bench/data)."""
    data = json.loads(QUERIES_FILE.read_text(encoding="utf-8"))
    words: set[str] = set()
    for memory in data["memories"]:
        for word in memory["content"].replace("`", " ").split():
            cleaned = word.strip(".,;:()'\"")
            if len(cleaned) > 3 and cleaned.isascii():
                words.add(cleaned)
    return sorted(words)


class MemoryGenerator:
    """Memories of all four types with keys, tags and file paths, built from templates, the
    vocabulary of the fixture project and a mix of areas; deterministic for a seed."""

    def __init__(self, seed: int = 7) -> None:
        self._rng = random.Random(seed)
        self._words = fixture_vocabulary()

    def _detail(self) -> str:
        return " ".join(self._rng.sample(self._words, self._rng.randint(3, 9)))

    def candidate(self, n: int) -> MemoryCandidate:
        rng = self._rng
        area = rng.choice(list(_AREAS))
        paths = tuple(rng.sample(_AREAS[area], rng.randint(1, min(2, len(_AREAS[area])))))
        lib = rng.choice(_LIBS)
        kind = rng.choices(list(MemoryType), weights=(2, 4, 3, 2))[0]
        importance = round(rng.uniform(0.3, 0.9), 2)
        if kind is MemoryType.PROJECT_FACT:
            content = (
                f"The {area} code in {paths[0]} uses {lib} for {rng.choice(_PURPOSES)}; "
                f"{self._detail()}."
            )
            return MemoryCandidate(
                kind, f"{area}_{lib}_{n}", content, (area, lib), importance, paths
            )
        if kind is MemoryType.PITFALL:
            content = (
                f"{lib} in {paths[0]} {rng.choice(_PROBLEMS)} when {rng.choice(_CONDITIONS)}; "
                f"{rng.choice(_FIXES)}. {self._detail()}."
            )
            return MemoryCandidate(
                kind, f"pitfall_{area}_{n}", content, (area, lib, "bug"), importance, paths
            )
        if kind is MemoryType.RECIPE:
            action = rng.choice(_ACTIONS)
            content = f"To {action} for {area}: `{rng.choice(_COMMANDS)}` ({self._detail()})."
            return MemoryCandidate(
                kind, f"recipe_{area}_{n}", content, (area, "howto"), importance, paths
            )
        pick = rng.randrange(len(_STYLE))
        content = f"Prefers {_STYLE[pick]} over {_OTHER[pick]} in {area} code; {self._detail()}."
        return MemoryCandidate(
            kind,
            f"style_{area}_{n}",
            content,
            ("style", area),
            importance,
            (),
            scope=Scope.USER,
        )

    def candidates(self, count: int) -> list[MemoryCandidate]:
        return [self.candidate(n) for n in range(count)]
