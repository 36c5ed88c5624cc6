"""A memory anchored to `path:line` is re-checked when its file changes and flagged stale (a
`contradicted` outcome with history) when its line is gone; nothing else is flagged."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from squirrel_memory.anchors import anchors_of, changed_paths, recheck_anchors
from squirrel_memory.models import MemoryItem, StoredEvent
from squirrel_memory.outcomes.book import OutcomeBooks
from squirrel_memory.outcomes.judge import after_processing
from squirrel_memory.storage import SqliteStore
from tests.unit.memory.test_store_memories import add, candidate

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def write(root: Path, name: str, lines: int) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"line {n}\n" for n in range(1, lines + 1)))


async def anchored(store: SqliteStore, *refs: str, key: str = "test_runner") -> MemoryItem:
    cand = dataclasses.replace(candidate(key=key), source_refs=refs)
    return await add(store, cand)


def event(kind: str, content: dict[str, Any], paths: tuple[str, ...] = ()) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{kind}_{len(paths)}",
        project_id="p",
        user_id="alice",
        source_tool="claude_code",
        session_id="s1",
        timestamp=T0,
        event_type=kind,
        content=content,
        file_paths=paths,
        hash="h",
    )


def test_anchors_are_relative_path_line_refs_only() -> None:
    item = dataclasses.replace(
        candidate(),
        source_refs=("pyproject.toml:12", "commit:abc123", "/etc/passwd:1", "../x.py:2",
                     "README.md", "a.py:0", "src/app.py:3"),
    )  # fmt: skip
    assert anchors_of(item) == [("pyproject.toml", 12), ("src/app.py", 3)]  # type: ignore[arg-type]


def test_changed_paths_come_from_edits_commits_and_named_files(tmp_path: Path) -> None:
    root = str(tmp_path)
    events = [
        event("code_change", {"path": f"{root}/src/app.py"}),
        event("commit", {"files_changed": ["pyproject.toml", "../outside.txt"]}),
        event("tool_result", {}, (f"{root}/README.md", "/elsewhere/notes.md")),
    ]
    assert changed_paths(events, root) == {"src/app.py", "pyproject.toml", "README.md"}


def test_a_file_only_read_or_loaded_by_the_host_is_no_change(tmp_path: Path) -> None:
    root = str(tmp_path)
    events = [
        event("user_message", {"text": "AGENTS.md"}, (f"{root}/AGENTS.md",)),
        event("tool_call", {"tool": "Read"}, (f"{root}/README.md",)),
        event("tool_result", {"tool": "Grep"}, (f"{root}/Makefile",)),
        event("tool_result", {"tool": "Edit"}, (f"{root}/src/app.py",)),
        event("command_run", {"command": "rm notes.md"}, (f"{root}/notes.md",)),
    ]
    assert changed_paths(events, root) == {"src/app.py", "notes.md"}


def test_files_a_shell_line_only_printed_are_no_change_but_others_it_names_are(
    tmp_path: Path,
) -> None:
    root = str(tmp_path)
    printed = ("src/app.py", "mix.exs")
    events = [
        event("tool_call", {"tool": "Bash", "reads": list(printed)}, printed),
        # A call naming a file beside what it printed: that file is no read.
        event("tool_call", {"tool": "Bash", "reads": ["go.mod"]}, ("go.mod", "main.go")),
    ]
    assert changed_paths(events, root) == {"go.mod", "main.go"}


async def test_an_anchor_whose_file_is_gone_or_shorter_flags_the_memory(
    store: SqliteStore, project: str
) -> None:
    root = Path(project)
    write(root, "pyproject.toml", 20)
    write(root, "src/app.py", 10)
    deleted = await anchored(store, "src/app.py:3")
    shortened = await anchored(store, "pyproject.toml:12", key="lint")
    kept = await anchored(store, "pyproject.toml:5", key="build")
    books = OutcomeBooks()
    assert await recheck_anchors(books, store, None) == []  # every line is there

    (root / "src/app.py").unlink()
    write(root, "pyproject.toml", 8)
    flagged = await recheck_anchors(
        books, store, ["src/app.py", "pyproject.toml"], clock=lambda: T0
    )
    assert {(e.memory_id, e.session_id, e.outcome) for e in flagged} == {
        (deleted.id, "anchor:src/app.py:3@v1", "contradicted"),
        (shortened.id, "anchor:pyproject.toml:12@v1", "contradicted"),
    }
    book = await books.of(store)
    assert book.is_stale(deleted) and book.is_stale(shortened) and not book.is_stale(kept)
    assert book.injectable([deleted, shortened, kept]) == [kept]
    history = await store.outcome_events([deleted.id])
    assert [(e.session_id, e.outcome) for e in history] == [
        ("anchor:src/app.py:3@v1", "contradicted")
    ]

    again = await recheck_anchors(books, store, ["src/app.py", "pyproject.toml"])
    assert again == []  # flagged once per memory version and anchor
    store.confirmations.confirm(deleted)
    assert book.injectable([deleted]) == [deleted]


async def test_only_the_files_that_changed_are_rechecked(store: SqliteStore, project: str) -> None:
    item = await anchored(store, "src/app.py:3")
    books = OutcomeBooks()
    assert await recheck_anchors(books, store, ["README.md"]) == []  # src/app.py not named
    assert await recheck_anchors(books, store, []) == []
    assert not (await books.of(store)).is_stale(item)


async def test_processing_an_edit_rechecks_the_edited_file(
    store: SqliteStore, project: str
) -> None:
    root = Path(project)
    write(root, "src/app.py", 2)
    item = await anchored(store, "src/app.py:5")
    other = await anchored(store, "README.md:1", key="docs")  # its file is gone, but unchanged
    books = OutcomeBooks()
    await after_processing(books, store, [event("tool_result", {}, ("notes.txt",))])
    assert not (await books.of(store)).is_stale(item)
    await after_processing(books, store, [event("code_change", {"path": f"{project}/src/app.py"})])
    book = await books.of(store)
    assert book.is_stale(item) and not book.is_stale(other)
