"""The fixture pipeline reads a transcript in the format its content says, wherever the file
lies (an exported Codex or Gemini session outside their folders), and refuses a file in no
known format by name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench.fixture_pipeline import (
    UnknownTranscriptError,
    fixture_projects,
    parse,
    transcript_parser,
)
from squirrel_core.events import SourceTool
from squirrel_ingest.parsers import ClaudeFileParser, CodexFileParser, GeminiJsonlParser

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CLAUDE = (
    FIXTURES / "claude" / "claude-code-log-sample" / "07f2e15c-a38b-454b-9148-60edc06de401.jsonl"
)
CODEX = (
    FIXTURES / "codex" / "rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"
)
GEMINI = FIXTURES / "gemini" / "jsonl_v040.jsonl"
GEMINI_DOCUMENT = FIXTURES / "gemini" / "session-2026-01-16T11-01-file-ops-37b7abef.json"


def _exported(source: Path, tmp_path: Path) -> Path:
    """`source` copied under a plain name in a folder no assistant uses."""
    target = tmp_path / "exports" / "session.jsonl"
    target.parent.mkdir()
    shutil.copyfile(source, target)
    return target


@pytest.mark.parametrize(
    ("source", "parser", "tool"),
    [
        (CODEX, CodexFileParser, SourceTool.CODEX),
        (GEMINI, GeminiJsonlParser, SourceTool.GEMINI_CLI),
        (CLAUDE, ClaudeFileParser, SourceTool.CLAUDE_CODE),
    ],
    ids=["codex", "gemini", "claude"],
)
def test_an_exported_transcript_is_read_in_its_own_format(
    source: Path, parser: type, tool: SourceTool, tmp_path: Path
) -> None:
    path = _exported(source, tmp_path)

    events = parse([path], "/home/dev/app")

    assert isinstance(transcript_parser(path), parser)
    assert events and {e.source_tool for e in events} == {tool}
    assert {e.cwd for e in events} == {"/home/dev/app"}


def test_a_file_its_name_places_keeps_the_parser_its_name_gives(tmp_path: Path) -> None:
    path = tmp_path / CODEX.name  # `rollout-*.jsonl`: Codex by name, before any content
    shutil.copyfile(CODEX, path)

    assert isinstance(transcript_parser(path), CodexFileParser)


def test_a_gemini_chat_kept_as_one_json_document_is_a_transcript_of_its_folder(
    tmp_path: Path,
) -> None:
    project = tmp_path / "transcripts" / "demo"
    project.mkdir(parents=True)
    document = project / GEMINI_DOCUMENT.name
    shutil.copyfile(GEMINI_DOCUMENT, document)
    (project / "notes.json").write_text("{}", encoding="utf-8")  # not a chat: left out

    [(name, paths)] = list(fixture_projects(tmp_path / "transcripts"))
    events = parse(paths, "/home/dev/app")

    assert (name, paths) == ("demo", [document])
    assert events and {e.source_tool for e in events} == {SourceTool.GEMINI_CLI}
    assert {e.cwd for e in events} == {"/home/dev/app"}


def _chat(folder: Path, directories: list[str] | None) -> Path:
    head: dict[str, object] = {"sessionId": "s1", "projectHash": "0" * 64}
    if directories is not None:
        head["directories"] = directories
    read = {
        "id": "r1",
        "name": "read_file",
        "args": {"file_path": "/home/ana/shop/mix.exs"},
        "status": "success",
        "result": [
            {"functionResponse": {"id": "r1", "name": "read_file", "response": {"output": "x"}}}
        ],
    }
    message = {
        "id": "m1",
        "type": "gemini",
        "timestamp": "2026-05-04T09:00:00Z",
        "content": "",
        "toolCalls": [read],
    }
    document = folder / "session-2026-05-04T09-00-0000aaaa.json"
    document.write_text(json.dumps({**head, "messages": [message]}), encoding="utf-8")
    return document


def test_a_gemini_chat_that_names_its_folder_is_moved_like_other_transcripts(
    tmp_path: Path,
) -> None:
    named = parse([_chat(tmp_path, ["/home/ana/shop"])], "/home/dev/app")
    unnamed = parse([_chat(tmp_path, None)], "/home/dev/app")

    assert {p for e in named for p in e.file_paths} == {"mix.exs"}
    assert {e.cwd for e in named} == {"/home/dev/app"}
    # Without `directories` the chat is read in the replay's folder: its paths stay as written.
    assert {p for e in unnamed for p in e.file_paths} == {"/home/ana/shop/mix.exs"}


def test_a_file_in_no_known_format_is_refused_with_its_name(tmp_path: Path) -> None:
    foreign = tmp_path / "events.jsonl"
    foreign.write_text('{"event": "page_view", "url": "/"}\n', encoding="utf-8")
    good = _exported(CODEX, tmp_path)

    with pytest.raises(UnknownTranscriptError) as refused:
        parse([good, foreign], "/home/dev/app")
    assert str(foreign) in str(refused.value)


def test_an_empty_or_blank_file_has_no_events_and_no_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.jsonl"
    blank.write_bytes(b"\n\n")

    assert transcript_parser(empty) is None
    assert parse([empty, blank], "/home/dev/app") == []
