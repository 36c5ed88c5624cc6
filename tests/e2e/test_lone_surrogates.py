"""A transcript line holding half of an emoji (a host that counts UTF-16 units cut a message or a
tool's output inside a surrogate pair, written as a JSON `\\ud83d` escape), through the real
`sqrl up`: the line is read with U+FFFD in its place, and every line after it too. Before, the
line stopped redaction and delivery (UTF-8 and protobuf refuse a lone surrogate), and the file
was retried at every rescan without getting past it: nothing of that session came in again."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from squirrel_core.events import SourceTool
from squirrel_ingest.parsers import parse_file
from tests.conftest import wait_until
from tests.transcripts import FIXTURES, relocate_line

pytestmark = pytest.mark.e2e

TURNS = [FIXTURES / "claude" / "incremental-simple" / f"turn-{n}.jsonl" for n in (1, 2)]
CUT = "\ud83d"


def _cut_inside_an_emoji(line: str, cwd: str) -> str:
    """The record with half of an emoji after the text of each of its string `content` and
    `text` values (what the user typed, the assistant said, a tool printed)."""
    record = json.loads(relocate_line(line, cwd))

    def cut(value: object, key: str | None = None) -> object:
        if isinstance(value, dict):
            return {k: cut(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [cut(v, key) for v in value]
        if isinstance(value, str) and key in ("content", "text") and value:
            return value + " and then " + CUT
        return value

    return json.dumps(cut(record)) + "\n"  # ensure_ascii: the half is written as `\ud83d`


def _count(db: Path, text: str) -> tuple[int, int]:
    """(events, events whose content holds `text`) in the store, (0, 0) before it exists."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as c:
            total = c.execute("SELECT count(*) FROM events").fetchone()[0]
            holding = c.execute(
                "SELECT count(*) FROM events WHERE instr(content_json, ?) > 0", (text,)
            ).fetchone()[0]
            return int(total), int(holding)
    except sqlite3.Error:
        return 0, 0


def test_a_line_cut_inside_an_emoji_is_read_and_so_is_every_line_after_it(
    tmp_path: Path,
) -> None:
    repo = (tmp_path / "repo").resolve()
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    claude = tmp_path / "claude" / "projects"
    folder = claude / ("-" + str(repo).strip("/").replace("/", "-"))
    folder.mkdir(parents=True)
    lines = [line for turn in TURNS for line in turn.read_text().splitlines(keepends=True)]
    transcript = folder / "cut.jsonl"
    transcript.write_text("".join(_cut_inside_an_emoji(line, str(repo)) for line in lines))
    assert b"\\ud83d" in transcript.read_bytes()
    expected = len(
        parse_file(SourceTool.CLAUDE_CODE, str(transcript), transcript.read_bytes()).events
    )
    assert expected > 2
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(
        SQRL_HOME=str(tmp_path / "home"),
        SQRL_INGEST_CLAUDE_ROOTS=str(claude),
        SQRL_INGEST_CODEX_ROOTS=str(tmp_path / "no-codex"),
        SQRL_INGEST_GEMINI_ROOTS=str(tmp_path / "no-gemini"),
        SQRL_INGEST_CURSOR_ROOTS=str(tmp_path / "no-cursor"),
        SQRL_INGEST_BATCH_AGE_SECONDS="0.1",
        SQRL_INGEST_RESCAN_SECONDS="1",
        SQRL_INGEST_GIT_POLL_SECONDS="3600",
        SQRL_PROCESSOR_MIN_EVENTS="100000000",
        SQRL_PROCESSOR_INTERVAL_SECONDS="3600",
    )

    def sqrl(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "squirrel_cli", *args],
            env=env,
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=300,
        )

    assert sqrl("init", "--no-mcp").returncode == 0
    try:
        assert sqrl("up", "--detach").returncode == 0
        db = repo / ".ctx" / "data.db"
        wait_until(lambda: _count(db, "\ufffd")[0] >= expected)
        total, holding = _count(db, "and then \ufffd")
        assert total == expected
        assert holding >= 2  # the user's message and the assistant's answer, each kept
    finally:
        sqrl("down")
