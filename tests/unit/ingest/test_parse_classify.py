"""Command classification (test runs vs other commands) and choosing a parser from a path."""

from __future__ import annotations

import pytest

from squirrel_core.events import EventType, SourceTool
from squirrel_ingest.parsers import is_whole_document, line_parser_for, parser_for
from squirrel_ingest.parsers.base import relative_path
from squirrel_ingest.parsers.classify import command_event_type, is_test_command


@pytest.mark.parametrize(
    "command",
    [
        "pytest",
        "pytest -q tests/unit",
        ".venv/bin/pytest -x",
        "python -m pytest tests",
        "python3.11 -m unittest discover",
        "uv run pytest -k parse",
        "poetry run pytest",
        "cd services && PYTHONPATH=. pytest",
        "npm test",
        "npm run test:unit",
        "yarn test --watch=false",
        "pnpm test",
        "npx jest src",
        "npx vitest run",
        "go test ./...",
        "cargo test --all",
        "cargo nextest run",
        "mvn test",
        "./gradlew test",
        "gradle test",
        "tox -e py311",
        "nox -s tests",
        "make test",
        "timeout 60 pytest",
        "bun test",
        "dotnet test",
    ],
)
def test_test_commands_are_test_runs(command: str) -> None:
    assert is_test_command(command)
    assert command_event_type(command) is EventType.TEST_RUN


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "git status",
        "cat tests/test_x.py",
        "grep -r pytest .",
        "npm install",
        "npm run build",
        "go build ./...",
        "cargo build",
        "echo 'npm test",
        "",
        "python script.py",
    ],
)
def test_other_commands_are_command_runs(command: str) -> None:
    assert not is_test_command(command)
    assert command_event_type(command) is EventType.COMMAND_RUN


@pytest.mark.parametrize(
    ("path", "source"),
    [
        (
            "/h/.claude/projects/-h-repo/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl",
            SourceTool.CLAUDE_CODE,
        ),
        ("/h/.claude/projects/-h-repo/agent-3be551df.jsonl", SourceTool.CLAUDE_CODE),
        (
            "/h/.claude/projects/-h-repo/5c0ffee1/subagents/agent-a485154.jsonl",
            SourceTool.CLAUDE_CODE,
        ),
        (
            "/h/.config/claude/projects/-x/s/subagents/workflows/r1/agent-a1.jsonl",
            SourceTool.CLAUDE_CODE,
        ),
        ("/h/.claude/history.jsonl", None),
        ("/h/.claude/projects/-x/s/subagents/agent-a1.meta.json", None),
        ("/h/.claude/projects/-x/s/subagents/workflows/r1/journal.jsonl", None),
        ("/h/.claude/projects/-x/s/tool-results/toolu_1.txt", None),
        (
            "/h/.codex/sessions/2026/01/02/rollout-2026-01-02T18-39-45-019b7f94.jsonl",
            SourceTool.CODEX,
        ),
        (
            "/h/.codex/archived_sessions/rollout-2026-01-02T18-39-45-019b7f94.jsonl",
            SourceTool.CODEX,
        ),
        ("/h/.codex/history.jsonl", None),
        (
            "/h/.gemini/tmp/0b7dfb12/chats/session-2025-12-01T21-45-5b959dae.json",
            SourceTool.GEMINI_CLI,
        ),
        (
            "/h/.gemini/tmp/my-proj/chats/session-2026-04-29T21-39-abcd1234.jsonl",
            SourceTool.GEMINI_CLI,
        ),
        ("/h/.gemini/tmp/my-proj/chats/parent-id/child-id.jsonl", SourceTool.GEMINI_CLI),
        ("/h/.gemini/tmp/my-proj/logs.json", None),
        ("/h/.gemini/tmp/my-proj/checkpoint-x.json", None),
        ("C:\\Users\\a\\.claude\\projects\\C--repo\\s.jsonl", SourceTool.CLAUDE_CODE),
        ("", None),
    ],
)
def test_parser_for_decides_the_source_from_the_path(path: str, source: SourceTool | None) -> None:
    assert parser_for(path) is source


def test_whole_document_gemini_chats_get_no_line_parser() -> None:
    legacy = "/h/.gemini/tmp/p/chats/session-2025-12-01T21-45-5b959dae.json"
    assert is_whole_document(legacy)
    assert line_parser_for(legacy) is None
    assert line_parser_for("/h/.gemini/tmp/p/chats/session-x.jsonl") is not None
    assert not is_whole_document("/h/.claude/projects/-x/s.jsonl")


@pytest.mark.parametrize(
    ("path", "cwd", "expected"),
    [
        ("/repo/src/a.py", "/repo", "src/a.py"),
        ("/repo/src/../b.py", "/repo/", "b.py"),
        ("/repository/a.py", "/repo", "/repository/a.py"),
        ("/repo", "/repo", "."),
        ("src/a.py", "/repo", "src/a.py"),
        ("/elsewhere/a.py", None, "/elsewhere/a.py"),
        ("C:\\Repo\\src\\a.py", "C:\\repo", "src/a.py"),
        ("D:\\other\\a.py", "C:\\repo", "D:\\other\\a.py"),
    ],
)
def test_paths_are_made_relative_to_cwd_only_when_inside_it(
    path: str, cwd: str | None, expected: str
) -> None:
    assert relative_path(path, cwd) == expected
