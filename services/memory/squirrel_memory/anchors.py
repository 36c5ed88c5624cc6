"""Memories anchored to `path:line`, re-checked when their file changes.

A memory's `source_refs` may name lines of the repository (`pyproject.toml:12`: what the
repository reader read, or a session recipe joined to it). When processing sees a file change —
a session's edit (`code_change`, or any event naming files but a read: a message of the user or
the host, such as an instruction file the host loaded, and a tool that only reads or lists
files change nothing) or a commit's `files_changed` — the live memories anchored to a changed
file are re-checked against the working tree: an anchor is gone when its file is gone
(deleted, or no longer a file) or has fewer lines than the anchor's line. A memory with an
anchor gone gets a `contradicted` outcome — an event of its history, never an edit — so it is
flagged stale (⚠) and kept out of the hooks, views and task context until it is confirmed
(`sqrl confirm`), rewritten (the repository reader re-reads it at the next commit), or used
again. The outcome's session is `anchor:<path>:<line>@v<version>`, so one memory version is
flagged once per anchor, and the history says which line went.

Only the anchor's line number is kept, not its text, so a line that still exists but changed is
not noticed here (the repository reader rewrites what it read at the next commit).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Final

import structlog

from squirrel_core.events import EventType
from squirrel_memory.extractors.file_reads import LISTING_TOOLS, READ_TOOLS
from squirrel_memory.models import MemoryItem, StoredEvent
from squirrel_memory.outcomes.book import OutcomeBooks
from squirrel_memory.storage import Store
from squirrel_memory.storage.outcome_log import OutcomeEvent

log = structlog.get_logger()

SESSION_PREFIX: Final = "anchor:"
_PAGE: Final = 1000
_MAX_READ_BYTES: Final = 8_000_000
"""A file this large is not counted (its anchors are left alone)."""


def anchors_of(item: MemoryItem) -> list[tuple[str, int]]:
    """The `(path, line)` anchors of a memory: its source refs of the form `path:line`, with a
    relative path inside the project (commit refs and anything else are no anchors)."""
    found: list[tuple[str, int]] = []
    for ref in item.source_refs:
        path, sep, line = ref.rpartition(":")
        if not sep or not line.isdigit() or int(line) < 1 or ref.startswith("commit:"):
            continue
        pure = PurePosixPath(path)
        if not path or pure.is_absolute() or ".." in pure.parts:
            continue
        found.append((str(pure), int(line)))
    return found


def changed_paths(events: Sequence[StoredEvent], root: str) -> set[str]:
    """The files `events` changed, relative to the project `root` (files outside it left out).
    A file only read (`reads_only`) is no change: its anchors stay as they are, even where the
    working tree is not the session's (a worktree elsewhere, a replay)."""
    base = PurePosixPath(root)
    paths: set[str] = set()
    for event in events:
        named: list[object] = [] if reads_only(event) else [*event.file_paths]
        if event.event_type == "code_change":
            named.append(event.content.get("path"))
        if event.event_type == "commit":
            files = event.content.get("files_changed")
            named.extend(files if isinstance(files, list) else [])
        for name in named:
            if not isinstance(name, str) or not name:
                continue
            pure = PurePosixPath(name)
            if pure.is_absolute():
                if not pure.is_relative_to(base):
                    continue
                pure = pure.relative_to(base)
            if pure.parts and ".." not in pure.parts:
                paths.add(str(pure))
    return paths


def reads_only(event: StoredEvent) -> bool:
    """Whether the files an event names were only read or listed: a message (the user's `@`
    mention, an instruction file the host loaded), a read or listing tool's call or result, or
    a shell call that only printed them (its `reads`: `cat a; echo ---; cat b`)."""
    if event.event_type == EventType.USER_MESSAGE:
        return True
    reads = event.content.get("reads")
    if event.event_type == EventType.TOOL_CALL and isinstance(reads, list) and reads:
        return set(event.file_paths) <= set(reads)  # a shell line that only printed files
    return event.event_type in (EventType.TOOL_CALL, EventType.TOOL_RESULT) and (
        event.content.get("tool") in READ_TOOLS | LISTING_TOOLS
    )


def line_count(path: Path) -> int | None:
    """Lines of the file at `path`; 0 when it is gone or no file; None when it is too large or
    unreadable to tell."""
    try:
        if not path.is_file():
            return 0
        if path.stat().st_size > _MAX_READ_BYTES:
            return None
        body = path.read_bytes()
    except OSError:
        return None
    if not body:
        return 0
    return body.count(b"\n") + (0 if body.endswith(b"\n") else 1)


def gone_anchors(item: MemoryItem, root: Path, paths: set[str] | None) -> list[tuple[str, int]]:
    """The anchors of `item` in `paths` (every anchor when None) whose line is gone."""
    gone: list[tuple[str, int]] = []
    counts: dict[str, int | None] = {}
    for path, line in anchors_of(item):
        if paths is not None and path not in paths:
            continue
        if path not in counts:
            counts[path] = line_count(root / path)
        lines = counts[path]
        if lines is not None and lines < line:
            gone.append((path, line))
    return gone


def _gone(
    items: Sequence[MemoryItem], root: Path, paths: set[str] | None
) -> list[tuple[MemoryItem, str, int]]:
    if not items or not root.is_dir():
        return []  # a team server's project is an id, not a folder
    return [(item, p, n) for item in items for p, n in gone_anchors(item, root, paths)]


async def anchored_memories(store: Store) -> list[MemoryItem]:
    """The project's live memories with at least one `path:line` anchor."""
    found: list[MemoryItem] = []
    offset = 0
    while True:
        page, total = await store.list_memories(store.project_id, limit=_PAGE, offset=offset)
        found.extend(m for m in page if not m.deleted and anchors_of(m))
        offset += len(page)
        if not page or offset >= total:
            return found


async def recheck_anchors(
    books: OutcomeBooks,
    store: Store,
    paths: Iterable[str] | None,
    *,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> list[OutcomeEvent]:
    """Flag (a `contradicted` outcome) each live memory with an anchor in `paths` (every anchor
    when None) whose line is gone; store and return the new outcomes."""
    wanted = None if paths is None else set(paths)
    if wanted is not None and not wanted:
        return []
    items = await anchored_memories(store)
    gone = await asyncio.to_thread(_gone, items, Path(store.project_id), wanted)
    now = clock()
    flagged = [
        OutcomeEvent(
            item.id,
            f"{SESSION_PREFIX}{path}:{line}@v{item.version}",
            "contradicted",
            item.version,
            now,
            now,
        )
        for item, path, line in gone
    ]
    if not flagged:
        return []
    known = {
        (e.memory_id, e.session_id)
        for e in await store.outcome_events(list({e.memory_id for e in flagged}))
    }
    new = [e for e in flagged if (e.memory_id, e.session_id) not in known]
    if new:
        await store.append_outcomes(new)
        await (await books.of(store)).apply(new)
        log.info("anchors_gone", memories=len({e.memory_id for e in new}), anchors=len(new))
    return new


async def recheck_after_processing(
    books: OutcomeBooks,
    store: Store,
    events: Sequence[StoredEvent],
    *,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> list[OutcomeEvent]:
    """Re-check the anchors in the files the processed `events` changed."""
    return await recheck_anchors(books, store, changed_paths(events, store.project_id), clock=clock)
