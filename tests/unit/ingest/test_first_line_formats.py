"""Which assistant wrote a transcript, judged from its first line as each parser reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_core.events import SourceTool
from squirrel_ingest.parsers import source_of_first_line

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _first_line(path: Path) -> bytes:
    with path.open("rb") as fh:
        return next(line for line in fh if line.strip())


def _files(folder: str) -> list[Path]:
    return sorted(p for p in (FIXTURES / folder).rglob("*.jsonl") if p.stat().st_size)


@pytest.mark.parametrize(
    ("folder", "source"),
    [
        ("claude", SourceTool.CLAUDE_CODE),
        ("codex", SourceTool.CODEX),
        ("gemini", SourceTool.GEMINI_CLI),
    ],
)
def test_every_fixture_transcript_is_known_by_its_first_line(
    folder: str, source: SourceTool
) -> None:
    files = _files(folder)

    assert files
    assert {p.name: source_of_first_line(_first_line(p)) for p in files} == {
        p.name: source for p in files
    }


def test_the_bare_meta_line_of_an_old_codex_rollout_is_codex() -> None:
    line = b'{"id": "0197a5c0", "timestamp": "2025-06-01T10:00:00Z", "instructions": ""}\n'

    assert source_of_first_line(line) is SourceTool.CODEX


@pytest.mark.parametrize(
    "line",
    [
        b'{"event": "page_view", "timestamp": "2026-01-02T10:00:00Z"}\n',
        b'{"type": "message", "text": "hello"}\n',  # a type no parser reads
        b'{"type": "session_meta", "timestamp": "2026-01-02T10:00:00Z"}\n',  # no payload
        b'{"type": "user", "payload": {"text": "hi"}}\n',  # a wrapped record of no known type
        b'{"projectHash": "0b7d", "kind": "main"}\n',  # a Gemini-like line without its session
        b"[1, 2, 3]\n",
        b"2026-01-02 10:00:00 INFO server started\n",
        b"\n",
    ],
)
def test_a_line_of_no_known_format_is_no_source(line: bytes) -> None:
    assert source_of_first_line(line) is None
