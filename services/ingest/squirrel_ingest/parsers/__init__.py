"""Transcript parsers: turn Claude Code, Codex, Gemini CLI and git records into events."""

from __future__ import annotations

import fnmatch
from collections import Counter
from pathlib import PurePosixPath

from squirrel_core.events import SourceTool
from squirrel_ingest.parsers import claude, codex, gemini
from squirrel_ingest.parsers.base import Parser, ParseResult, parse_bytes
from squirrel_ingest.parsers.claude import ClaudeFileParser
from squirrel_ingest.parsers.codex import CodexFileParser
from squirrel_ingest.parsers.gemini import GeminiJsonlParser
from squirrel_ingest.parsers.gemini_document import (
    cursor_extra_for_document,
    parse_gemini_json_document,
    seen_ids_from_cursor,
)
from squirrel_ingest.parsers.git import GIT_LOG_ARGS, parse_git_log
from squirrel_ingest.parsers.records import decode_record

__all__ = [
    "GIT_LOG_ARGS",
    "ClaudeFileParser",
    "CodexFileParser",
    "GeminiJsonlParser",
    "ParseResult",
    "Parser",
    "cursor_extra_for_document",
    "is_whole_document",
    "line_parser_for",
    "line_parser_of",
    "parse_bytes",
    "parse_file",
    "parse_gemini_json_document",
    "parse_git_log",
    "parser_for",
    "seen_ids_from_cursor",
    "source_of_first_line",
]

_SKIPPED_NAMES = frozenset({"history.jsonl", "journal.jsonl", "session_index.jsonl", "logs.json"})


def parser_for(path: str) -> SourceTool | None:
    """Which assistant wrote the transcript at `path`, judged from its name and folders alone.

    Claude Code: `*.jsonl` anywhere under a `projects/` folder (sessions, `agent-*.jsonl`,
    `<session>/subagents/**`). Codex: `rollout-*.jsonl`. Gemini CLI: `session-*.json` or
    `*.jsonl` under `tmp/<project>/chats/` (subagent chats one folder deeper). Prompt histories,
    `*.meta.json`, workflow journals and anything else give `None`.
    """
    parts = PurePosixPath(path.replace("\\", "/")).parts
    if not parts:
        return None
    name = parts[-1]
    if name in _SKIPPED_NAMES or name.endswith(".meta.json"):
        return None
    if fnmatch.fnmatchcase(name, "rollout-*.jsonl"):
        return SourceTool.CODEX
    if _is_gemini_chat(parts):
        return SourceTool.GEMINI_CLI
    if name.endswith(".jsonl") and "projects" in parts[:-2]:
        return SourceTool.CLAUDE_CODE
    return None


def is_whole_document(path: str) -> bool:
    """Whether the file is rewritten in full on each update (Gemini's legacy `.json` chats)."""
    return parser_for(path) is SourceTool.GEMINI_CLI and path.endswith(".json")


def line_parser_for(path: str, *, cwd: str | None = None) -> Parser | None:
    """A fresh line-by-line parser for an append-only transcript, or `None` if there is none.

    `cwd` is used for Gemini chats, whose records do not say where they ran.
    """
    source = parser_for(path)
    if source is SourceTool.GEMINI_CLI and not path.endswith(".jsonl"):
        return None
    return None if source is None else line_parser_of(source, path, cwd=cwd)


def line_parser_of(source: SourceTool, path: str, *, cwd: str | None = None) -> Parser | None:
    """A fresh line-by-line parser of `source`'s transcripts for the file at `path`, or `None`
    for a source without one (Cursor, git)."""
    if source is SourceTool.CLAUDE_CODE:
        return ClaudeFileParser(path)
    if source is SourceTool.CODEX:
        return CodexFileParser(path)
    if source is SourceTool.GEMINI_CLI:
        return GeminiJsonlParser(path, cwd=cwd)
    return None


def source_of_first_line(line: bytes) -> SourceTool | None:
    """Which assistant wrote a JSONL transcript whose first line is `line`, judged from that
    record as each parser reads it (for a file whose name and folders say nothing, such as an
    exported session); `None` when no parser knows it."""
    record = decode_record(line, Counter())
    if record is None:
        return None
    if codex.opens_transcript(record):
        return SourceTool.CODEX
    if gemini.opens_transcript(record):
        return SourceTool.GEMINI_CLI
    if claude.opens_transcript(record):
        return SourceTool.CLAUDE_CODE
    return None


def parse_file(source: SourceTool, path: str, data: bytes, inode: int = 0) -> ParseResult:
    """Parse a whole file's bytes as `source` from the start (a first read or a full re-read)."""
    if source is SourceTool.GEMINI_CLI and not path.endswith(".jsonl"):
        skipped: Counter[str] = Counter()
        events, _ = parse_gemini_json_document(data, path, inode, set(), skipped=skipped)
        return ParseResult(events=events, skipped=dict(skipped), records=1 if data.strip() else 0)
    parser: Parser
    if source is SourceTool.CLAUDE_CODE:
        parser = ClaudeFileParser(path)
    elif source is SourceTool.CODEX:
        parser = CodexFileParser(path)
    elif source is SourceTool.GEMINI_CLI:
        parser = GeminiJsonlParser(path)
    else:
        return ParseResult(skipped={"unsupported_source": 1})
    return parse_bytes(parser, data, path, inode)


def _is_gemini_chat(parts: tuple[str, ...]) -> bool:
    name = parts[-1]
    for depth in (2, 3):
        if len(parts) > depth + 1 and parts[-depth] == "chats" and parts[-depth - 2] == "tmp":
            if depth == 2:
                return fnmatch.fnmatchcase(name, "session-*.json") or name.endswith(".jsonl")
            return name.endswith(".jsonl")
    return False
