"""Backlog import through the real `sqrl up`: kill -9 of ingest or memory loses and repeats nothing."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest

from tests.conftest import wait_until
from tests.transcripts import FIXTURES, place_claude

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

COPIES = 12


def _transcripts() -> list[Path]:
    return sorted(p for p in (FIXTURES / "claude").rglob("*.jsonl") if p.stat().st_size > 0)


def _prepare(tmp: Path, name: str) -> tuple[dict[str, str], Path, Path]:
    home = tmp / f"{name}-home"
    repo = tmp / f"{name}-repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    claude = tmp / f"{name}-claude" / "projects"
    for copy in range(COPIES):
        for source in _transcripts():
            place_claude(source, claude, str(repo.resolve()), f"{copy}-{source.name}", f"-{copy}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.update(
        SQRL_HOME=str(home),
        SQRL_INGEST_CLAUDE_ROOTS=str(claude),
        SQRL_INGEST_CODEX_ROOTS=str(tmp / "no-codex"),
        SQRL_INGEST_GEMINI_ROOTS=str(tmp / "no-gemini"),
        SQRL_INGEST_CURSOR_ROOTS=str(tmp / "none-cursor"),
        SQRL_INGEST_BATCH_EVENTS="50",
        SQRL_INGEST_GIT_POLL_SECONDS="3600",
        SQRL_PROCESSOR_MIN_EVENTS="100000000",
        SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
    )
    return env, repo.resolve(), home


def _sqrl(
    env: dict[str, str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "squirrel_cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
    )


def _events(repo: Path) -> Counter[tuple[str, str, str, str]]:
    """The stored events, project-independent, as a multiset."""
    with sqlite3.connect(repo / ".ctx" / "data.db") as conn:
        rows = conn.execute(
            "SELECT session_id, timestamp, event_type, content_json FROM events"
        ).fetchall()
    # Commands carry the folder they ran in: the repository's own path, which differs per run.
    roots = sorted({str(repo), str(repo.resolve())}, key=len, reverse=True)

    def neutral(content: str) -> str:
        for root in roots:
            content = content.replace(json.dumps(root)[1:-1], "<repo>")
        return json.dumps(json.loads(content), sort_keys=True)

    return Counter((str(a), str(b), str(c), neutral(d)) for a, b, c, d in rows)


def _count(repo: Path) -> int:
    try:
        with sqlite3.connect(repo / ".ctx" / "data.db", timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    except sqlite3.Error:
        return -1


def _run(env: dict[str, str], repo: Path, victim: str | None) -> Counter[tuple[str, str, str, str]]:
    assert _sqrl(env, "init", cwd=repo).returncode == 0
    started = _sqrl(env, "up", "--detach")
    assert started.returncode == 0, started.stderr
    try:
        if victim is not None:
            wait_until(lambda: _count(repo) > 0, interval=0.01)
            status = json.loads(_sqrl(env, "status", "--json").stdout)
            pid = {s["service"]: s["pid"] for s in status["services"]}[victim]
            psutil.Process(pid).kill()

            def restarted() -> bool:
                services = json.loads(_sqrl(env, "status", "--json").stdout)["services"]
                row = {s["service"]: s for s in services}[victim]
                return row["restarts"] >= 1 and row["health"] == "SERVING"

            wait_until(restarted)
        # ImportBacklog returns once every file is read to its end and delivered.
        imported = _sqrl(env, "import", "--json")
        assert imported.returncode == 0, imported.stderr
    finally:
        _sqrl(env, "down")
    return _events(repo)


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory: pytest.TempPathFactory) -> Counter[tuple[str, str, str, str]]:
    env, repo, _ = _prepare(tmp_path_factory.mktemp("clean"), "clean")
    return _run(env, repo, None)


@pytest.mark.parametrize("victim", ["ingest", "memory"])
def test_kill_9_during_backlog_import_loses_and_repeats_nothing(
    clean_run: Counter[tuple[str, str, str, str]], tmp_path: Path, victim: str
) -> None:
    env, repo, _ = _prepare(tmp_path, victim)
    started = time.monotonic()
    faulty = _run(env, repo, victim)
    assert sum(clean_run.values()) > 1000
    assert faulty == clean_run, f"after killing {victim} ({time.monotonic() - started:.1f}s)"
    assert max(faulty.values()) == 1
