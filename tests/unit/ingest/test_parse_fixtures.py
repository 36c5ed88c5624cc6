"""Every shared fixture transcript parses without a parser error, and yields conversation."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_core.events import EventType, SourceTool
from squirrel_ingest.parsers import parse_file, parser_for

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures"
_FOLDERS = {
    "claude": SourceTool.CLAUDE_CODE,
    "codex": SourceTool.CODEX,
    "gemini": SourceTool.GEMINI_CLI,
}


def _transcripts() -> list[tuple[Path, SourceTool]]:
    if not SHARED.is_dir():
        return []
    found = []
    for path in sorted(SHARED.rglob("*")):
        if not path.is_file() or path.suffix not in (".json", ".jsonl") or path.name == "logs.json":
            continue
        if path.name.endswith(".meta.json"):
            continue
        source = parser_for(str(path)) or _FOLDERS[path.relative_to(SHARED).parts[0]]
        found.append((path, source))
    return found


@pytest.fixture(scope="module")
def transcripts() -> list[tuple[Path, SourceTool]]:
    found = _transcripts()
    if not found:
        pytest.skip("shared fixture folder is absent")
    return found


def test_every_fixture_parses_without_parser_errors(
    transcripts: list[tuple[Path, SourceTool]],
) -> None:
    failures = []
    for path, source in transcripts:
        result = parse_file(source, str(path), path.read_bytes())
        if result.skipped.get("internal_error") or result.skipped.get("malformed_json"):
            failures.append((path.name, result.skipped))
    assert failures == []


def test_every_source_yields_prompts_replies_and_tool_activity(
    transcripts: list[tuple[Path, SourceTool]],
) -> None:
    seen: dict[SourceTool, set[EventType]] = {}
    for path, source in transcripts:
        for event in parse_file(source, str(path), path.read_bytes()).events:
            seen.setdefault(source, set()).add(event.event_type)
            assert event.timestamp.tzinfo is not None
            assert event.source_tool is source
    wanted = {
        EventType.USER_MESSAGE,
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
    }
    for source in (SourceTool.CLAUDE_CODE, SourceTool.CODEX, SourceTool.GEMINI_CLI):
        assert wanted <= seen[source], source
