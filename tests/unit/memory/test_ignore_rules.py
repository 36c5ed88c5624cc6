"""What the session made git ignore, with the comment written above the patterns."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.ignore_rules import ignore_rules
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/app"


def _stream(*edits: tuple[str, str, str]) -> list[StoredEvent]:
    """Each (path, old text, new text) as an edit call and the code change it made."""
    steps: list[tuple[str, dict[str, Any]]] = []
    for n, (path, old, new) in enumerate(edits):
        data = {"file_path": f"{ROOT}/{path}", "old_string": old, "new_string": new}
        use = f"toolu_{n}"
        steps.append(("tool_call", {"tool": "Edit", "tool_use_id": use, "input": data}))
        steps.append(("code_change", {"tool": "Edit", "tool_use_id": use, "path": path}))
    return [
        StoredEvent(
            id=f"evt_{n:04d}",
            project_id=ROOT,
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=T0 + timedelta(seconds=20 * n),
            event_type=kind,
            content=content,
            file_paths=(),
            hash=f"h{n}",
            origin="assistant",
        )
        for n, (kind, content) in enumerate(steps)
    ]


@pytest.mark.parametrize(
    ("comment", "pattern"),
    [
        ("Tree-sitter grammars (platform-specific compiled binaries)", "tree-sitter/"),
        ("Dependencies installed by npm", "node_modules/"),
        ("Cargo build output", "target/"),
        ("Mix build artifacts", "_build/"),
        ("MSBuild output", "obj/"),
        ("Local secrets, never committed", ".env.local"),
    ],
    ids=["editor", "node", "rust", "elixir", "dotnet", "secrets"],
)
def test_patterns_added_under_a_comment_say_what_is_ignored_and_why(
    comment: str, pattern: str
) -> None:
    events = _stream((".gitignore", "# Logs\n*.log", f"# {comment}\n{pattern}\n\n# Logs\n*.log"))
    (found,) = ignore_rules(events)
    assert found.content == f'`.gitignore` ignores `{pattern}`, under the comment "{comment}".'
    assert found.path == ".gitignore" and found.event_ids == ("evt_0000",)


def test_the_file_as_the_last_edit_left_it_is_what_is_stated() -> None:
    first = "# Local settings, track the shared ones\nlocal.json\n!shared.json"
    events = _stream(
        ("config/.gitignore", "# Cache\ncache/", f"{first}\n\n# Cache\ncache/"),
        ("config/.gitignore", first, "# Machine-local settings (absolute paths)\nlocal.json"),
        ("config/.gitignore", "# Cache\ncache/", "# Cache\ncache/\n\n# Temp files\ntmp/"),
        ("config/.gitignore", "# Temp files\ntmp/", ""),
    )
    (found,) = ignore_rules(events)
    assert found.content == (
        '`config/.gitignore` ignores `local.json`, under the comment "Machine-local settings '
        '(absolute paths)".'
    )


@pytest.mark.parametrize(
    "edit",
    [
        # No comment above the added pattern: nothing says why.
        (".gitignore", "dist/", "dist/\nbuild/"),
        # A blank line parts the pattern from the comment above it.
        (".gitignore", "# Build\ndist/", "# Build\ndist/\n\nbuild/"),
        # An un-ignore rule keeps a path in the repository.
        (".gitignore", "# Plans\nplans/", "# Plans\nplans/\n!plans/keep.md"),
        # A whole file written at once is a template, not a decision.
        (".gitignore", "", "# Dependencies\nnode_modules/"),
        # Only an existing pattern under a new comment: nothing was added.
        (".gitignore", "dist/", "# Build output\ndist/"),
        # Not an ignore file.
        ("docs/notes.md", "# Notes\nold", "# Notes\nold\nnew-entry"),
    ],
    ids=["no-comment", "blank-line", "unignore", "new-file", "nothing-added", "other-file"],
)
def test_nothing_is_stated_without_a_reason_or_a_pattern_added(edit: tuple[str, str, str]) -> None:
    assert ignore_rules(_stream(edit)) == []


def test_an_edit_made_outside_the_project_is_not_stated() -> None:
    (call, change) = _stream((".gitignore", "# Logs\n*.log", "# Build\nout/\n\n# Logs\n*.log"))
    data = {**call.content["input"], "file_path": "/tmp/x/.gitignore"}
    events = [
        replace(call, content={**call.content, "input": data}),
        replace(change, content={**change.content, "path": "/tmp/x/.gitignore"}),
    ]
    assert ignore_rules(events) == []


def test_the_rules_extractor_keeps_it_as_a_project_fact() -> None:
    events = _stream(
        (".gitignore", "# Logs\n*.log", "# Cargo build output\ntarget/\n\n# Logs\n*.log")
    )
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))
    found = [
        c for c in RulesExtractor().extract_sync(episode, events) if c.key.startswith("ignored:")
    ]
    assert [(c.type, c.content) for c in found] == [
        (
            MemoryType.PROJECT_FACT,
            '`.gitignore` ignores `target/`, under the comment "Cargo build output".',
        )
    ]
    assert found[0].file_paths == (".gitignore",)
