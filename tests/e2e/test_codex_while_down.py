"""A Codex session that never calls a memory tool while the services are down: nothing starts
them (`sqrl mcp` starts them only for a tool call), so its rollout grows, and a new one is
written, with no ingest reading. The next `sqrl up` reads both from ingest's cursors: the rest of
the rollout it had read part of, and the new one whole, each event stored once."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from squirrel_core.events import SourceTool
from squirrel_ingest.parsers import parse_file
from tests.conftest import wait_until
from tests.transcripts import FIXTURES

pytestmark = pytest.mark.e2e

ROLLOUT = (
    FIXTURES / "codex" / "rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"
)
ROLLOUT_CWD = "/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code"
SECOND = (
    FIXTURES
    / "codex"
    / "speakers"
    / "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"
)
SECOND_CWD = "/Users/Sample_User/repos/shop"
FIRST_PART_LINES = 8
"""Lines of the rollout written while the services run (its session_meta and first turn)."""


@dataclass
class Install:
    env: dict[str, str]
    repo: Path
    codex: Path

    def sqrl(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "squirrel_cli", *args],
            env=self.env,
            cwd=self.repo,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def hashes(self) -> list[str]:
        try:
            with contextlib.closing(
                sqlite3.connect(self.repo / ".ctx" / "data.db", timeout=5)
            ) as conn:
                return [str(r[0]) for r in conn.execute("SELECT hash FROM events")]
        except sqlite3.Error:
            return []


@pytest.fixture
def install(tmp_path: Path) -> Iterator[Install]:
    repo = (tmp_path / "repo").resolve()
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    codex = tmp_path / "codex" / "sessions"
    codex.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(
        SQRL_HOME=str(tmp_path / "home"),
        SQRL_INGEST_CLAUDE_ROOTS=str(tmp_path / "no-claude"),
        SQRL_INGEST_CODEX_ROOTS=str(codex),
        SQRL_INGEST_GEMINI_ROOTS=str(tmp_path / "no-gemini"),
        SQRL_INGEST_CURSOR_ROOTS=str(tmp_path / "no-cursor"),
        SQRL_INGEST_BATCH_AGE_SECONDS="0.1",
        SQRL_INGEST_RESCAN_SECONDS="2",
        SQRL_INGEST_GIT_POLL_SECONDS="3600",
        SQRL_PROCESSOR_MIN_EVENTS="100000000",
        SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
    )
    made = Install(env, repo, codex)
    assert made.sqrl("init").returncode == 0
    try:
        yield made
    finally:
        made.sqrl("down")


def _lines(source: Path, cwd_in_fixture: str, cwd: Path) -> list[str]:
    """The rollout's lines with its working folder moved into the test's repository."""
    text = source.read_text()
    return text.replace(cwd_in_fixture, str(cwd)).splitlines(keepends=True)


def _expected(path: Path) -> int:
    return len(parse_file(SourceTool.CODEX, str(path), path.read_bytes()).events)


def test_rollouts_written_while_down_are_read_from_the_cursors_at_the_next_up(
    install: Install,
) -> None:
    day = install.codex / "2026" / "01" / "02"
    day.mkdir(parents=True)
    rollout = day / ROLLOUT.name
    lines = _lines(ROLLOUT, ROLLOUT_CWD, install.repo)
    rollout.write_text("".join(lines[:FIRST_PART_LINES]))
    first = _expected(rollout)
    assert first > 0

    started = install.sqrl("up", "--detach")
    assert started.returncode == 0, started.stderr
    wait_until(lambda: len(install.hashes()) == first, timeout=240, interval=0.5)
    stopped = install.sqrl("down")
    assert stopped.returncode == 0, stopped.stderr

    # The session goes on with the services down (no memory tool called: nothing starts them),
    # and another session starts in the same project.
    with rollout.open("a") as fh:
        fh.write("".join(lines[FIRST_PART_LINES:]))
    later = install.codex / "2026" / "05" / "11"
    later.mkdir(parents=True)
    second = later / SECOND.name
    second.write_text("".join(_lines(SECOND, SECOND_CWD, install.repo)))
    total = _expected(rollout) + _expected(second)
    assert total > first + _expected(second)  # the rollout did grow while down

    started = install.sqrl("up", "--detach")
    assert started.returncode == 0, started.stderr
    wait_until(lambda: len(install.hashes()) >= total, timeout=240, interval=0.5)
    stored = install.hashes()
    assert len(stored) == total and len(set(stored)) == total  # all of it, nothing twice
