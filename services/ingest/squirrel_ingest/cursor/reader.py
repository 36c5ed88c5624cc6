"""Cursor's chats as a source: new bubbles of every chat, each delivered once, with its cursor.

Each chat (composer) of a `User` folder's global store is one cursor key,
`<store path>#<composer id>`. Its cursor counts the bubbles delivered (`offset`, in the order
of the chat's headers), names the last one and a few before it (`extra`), and carries a
generation (`inode`) that moves on when the chat was rewound (a message edited and re-sent):
the bubbles after the last one still listed are then new. Events are stamped with the same
positions, so the engine's per-project floors filter what a project already has.

A bubble still being written (the chat is generating, or a tool call is not over) stops the
chat's read there until a later poll. A chat whose folder is unknown is not read until its
workspace lists it.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import structlog

from squirrel_core.cursor_store import (
    StoreUnavailableError,
    json_fields,
    read_store,
    row_sizes,
    rows_for_keys,
)
from squirrel_core.cursor_workspaces import WorkspaceIndex
from squirrel_core.events import Event, SourceCursor, SourcePosition, SourceTool
from squirrel_ingest.parsers.cursor import (
    SLIM_BUBBLE_PATHS,
    Composer,
    bubble_context,
    bubble_events,
    composer_from_json,
    is_settled,
    slim_bubble,
)

log = structlog.get_logger()

TABLE: Final = "cursorDiskKV"
COMPOSER_PREFIX: Final = "composerData:"
BUBBLE_PREFIX: Final = "bubbleId:"
GLOBAL_STORE: Final = Path("globalStorage") / "state.vscdb"
LAST_KEY: Final = "last"
TAIL_KEY: Final = "tail"
TAIL_LENGTH: Final = 16
SLIM_TEXT_CHARS: Final = 200_000


@dataclass(frozen=True, slots=True)
class CursorLimits:
    """Size caps and the work done per call (the engine's limits feed these)."""

    max_bubble_bytes: int = 5 * 1024 * 1024
    max_composer_bytes: int = 64 * 1024 * 1024
    bubbles_per_read: int = 2_000
    busy_timeout_s: float = 0.5


@dataclass(slots=True)
class CursorRead:
    """What one call produced: events, the cursors they complete, and what was skipped."""

    events: list[Event] = field(default_factory=list)
    cursors: list[SourceCursor] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    bubbles: int = 0
    bytes: int = 0
    at_end: bool = True


@dataclass(slots=True)
class _Plan:
    """One store's read, computed without touching the reader (it may run twice)."""

    read: CursorRead
    chats: int = 0
    progress: dict[str, SourceCursor] = field(default_factory=dict)
    seen: dict[str, tuple[int, int] | None] = field(default_factory=dict)


def cursor_key(store: Path, composer_id: str) -> str:
    """The cursor key of one chat of a store."""
    return f"{store}#{composer_id}"


def resume_point(cursor: SourceCursor | None, headers: Sequence[str]) -> tuple[int, int]:
    """(index of the first bubble not yet delivered, generation) for a chat's current headers.

    The count is trusted when the bubble before it is still the last one delivered (or when the
    cursor names none). Otherwise the chat was rewound: reading resumes after the latest bubble
    still listed that was delivered, in a new generation.
    """
    if cursor is None:
        return 0, 0
    generation, offset = cursor.inode, cursor.offset
    last = cursor.extra.get(LAST_KEY)
    if not isinstance(last, str):
        return min(offset, len(headers)), generation
    if 0 < offset <= len(headers) and headers[offset - 1] == last:
        return offset, generation
    tail = cursor.extra.get(TAIL_KEY)
    known = {last, *(t for t in tail if isinstance(t, str))} if isinstance(tail, list) else {last}
    for index in range(len(headers) - 1, -1, -1):
        if headers[index] in known:
            return index + 1, generation + 1
    return min(offset, len(headers)), generation + 1


class CursorReader:
    """Polls the global store of each Cursor `User` folder for new bubbles."""

    def __init__(self, roots: Sequence[Path], limits: CursorLimits | None = None) -> None:
        self.roots = tuple(roots)
        self._limits = limits or CursorLimits()
        self._workspaces = WorkspaceIndex(on_problem=_workspace_skipped)
        self._stamps: dict[Path, tuple[int, ...]] = {}
        self._progress: dict[str, SourceCursor] = {}
        self._seen: dict[str, tuple[int, int] | None] = {}
        self._folders: dict[Path, dict[str, str]] = {}
        self._problems: dict[Path, str] = {}
        self._chats: dict[Path, int] = {}

    @property
    def chats(self) -> int:
        """Chats in the stores, as last read."""
        return sum(self._chats.values())

    def chats_in(self, store: Path) -> int:
        """Chats in one store, as last read."""
        return self._chats.get(store, 0)

    def stores(self) -> list[Path]:
        """The global store of every root."""
        return [root / GLOBAL_STORE for root in self.roots]

    def invalidate(self) -> None:
        """Look at every chat again on the next poll (a rescan)."""
        self._stamps.clear()
        self._seen.clear()

    def forget(self) -> None:
        """Drop what was read; the next poll resumes from the stored cursors (new projects)."""
        self.invalidate()
        self._progress.clear()

    def poll(self, floors: Mapping[str, SourceCursor | None]) -> CursorRead:
        """New bubbles of every changed chat, at most about `bubbles_per_read` of them.

        `floors` holds, per cursor key, the lowest cursor any registered project has stored
        (None or absent: read that chat from its start). `at_end` is False when more is waiting.
        """
        total = CursorRead()
        budget = self._limits.bubbles_per_read
        for root in self.roots:
            store = root / GLOBAL_STORE
            stamp = _stamp(store)
            if stamp is None:
                self._missing(root, store, total)
                continue
            folders = self._workspaces.folders(root)
            if folders != self._folders.get(root):  # chats may have found their folder
                self._folders[root] = folders
                self._stamps.pop(store, None)
                self._seen.clear()
            if self._stamps.get(store) == stamp:
                continue
            plan_of = functools.partial(
                self._plan,
                store=store,
                folders=folders,
                floors=floors,
                budget=budget - total.bubbles,
            )
            try:
                plan = read_store(store, plan_of, busy_timeout_s=self._limits.busy_timeout_s)
            except StoreUnavailableError as exc:
                self._problem(store, exc.problem.value, total)
                continue
            self._problems.pop(store, None)
            self._chats[store] = plan.chats
            self._progress.update(plan.progress)
            self._seen.update(plan.seen)
            _merge(total, plan.read)
            if plan.read.at_end:
                self._stamps[store] = stamp
            else:
                total.at_end = False
                break
        return total

    def _missing(self, root: Path, store: Path, read: CursorRead) -> None:
        """No store: counted once (again only once it has been found and is gone again, not
        at every look, every few seconds); said once, as information, only where Cursor is
        installed (its `User` folder is there). Cursor not installed is no problem, so it
        logs nothing."""
        if self._problems.get(store) == "store_missing":
            return
        read.skipped["store_missing"] += 1
        self._problems[store] = "store_missing"
        if root.is_dir():
            log.info("cursor_store_missing", store=str(store))

    def _problem(self, store: Path, reason: str, read: CursorRead) -> None:
        read.skipped[reason] += 1
        if self._problems.get(store) != reason:
            self._problems[store] = reason
            log.warning("cursor_store_unreadable", store=str(store), reason=reason)

    def _plan(
        self,
        connection: sqlite3.Connection,
        *,
        store: Path,
        folders: Mapping[str, str],
        floors: Mapping[str, SourceCursor | None],
        budget: int,
    ) -> _Plan:
        plan = _Plan(CursorRead())
        sizes = row_sizes(connection, TABLE, COMPOSER_PREFIX)
        plan.chats = len(sizes)
        for composer_key in sorted(sizes):
            composer_id = composer_key[len(COMPOSER_PREFIX) :]
            key = cursor_key(store, composer_id)
            if self._seen.get(key) == sizes[composer_key]:
                continue
            if plan.read.bubbles >= budget:
                plan.read.at_end = False
                break
            folder = folders.get(composer_id)
            if folder is None:
                plan.seen[key] = sizes[composer_key]  # looked at again when workspaces change
                plan.read.skipped["chat_without_folder"] += 1
                continue
            done = self._read_chat(
                connection,
                composer_key=composer_key,
                key=key,
                folder=folder,
                floors=floors,
                plan=plan,
                budget=budget - plan.read.bubbles,
            )
            plan.seen[key] = sizes[composer_key] if done else None
        return plan

    def _read_chat(
        self,
        connection: sqlite3.Connection,
        *,
        composer_key: str,
        key: str,
        folder: str,
        floors: Mapping[str, SourceCursor | None],
        plan: _Plan,
        budget: int,
    ) -> bool:
        """Read one chat's new bubbles into `plan`; False when it has to be looked at again."""
        limits = self._limits
        read = plan.read
        row = rows_for_keys(connection, TABLE, [composer_key], limits.max_composer_bytes).get(
            composer_key
        )
        if row is None:
            return True
        if row.value is None:
            read.skipped["oversized_chat"] += 1
            log.warning("cursor_chat_skipped", reason="oversized_chat", bytes=row.size)
            return True
        composer = composer_from_json(_loads(row.value), composer_key[len(COMPOSER_PREFIX) :])
        if composer is None:
            read.skipped["malformed_chat"] += 1
            log.warning("cursor_chat_skipped", reason="malformed_chat", bytes=row.size)
            return True
        previous = plan.progress.get(key) or self._progress.get(key) or floors.get(key)
        start, generation = resume_point(previous, composer.headers)
        wanted = composer.headers[start : start + max(budget, 1)]
        bubbles, malformed = self._bubbles(connection, composer, wanted, read)
        index = start
        for bubble_id in wanted:
            bubble = bubbles.get(bubble_id)
            last_listed = index == len(composer.headers) - 1
            if bubble_id in malformed:
                pass  # counted where it was read
            elif bubble is None:
                if composer.generating or last_listed:
                    break  # not written yet
                read.skipped["missing_bubble"] += 1
            elif not is_settled(bubble, composer) and (composer.generating or last_listed):
                break
            elif composer.generating and last_listed:
                break  # its text may still grow
            else:
                position = SourcePosition(path=key, inode=generation, end_offset=index + 1)
                ctx = bubble_context(bubble, composer, folder, position)
                if ctx is None:
                    read.skipped["missing_timestamp"] += 1
                else:
                    read.events.extend(bubble_events(bubble, ctx, read.skipped))
            read.bubbles += 1
            index += 1
        if index < len(composer.headers) and index - start == len(wanted) > 0:
            read.at_end = False  # stopped by the budget, not by a bubble still being written
        moved = index != start or (previous is not None and generation != previous.inode)
        if moved:
            delivered = [*_tail(previous), *composer.headers[start:index]][-TAIL_LENGTH:]
            cursor = SourceCursor(
                source_tool=SourceTool.CURSOR,
                path=key,
                inode=generation,
                offset=index,
                extra={LAST_KEY: delivered[-1] if delivered else None, TAIL_KEY: delivered},
            )
            plan.progress[key] = cursor
            read.cursors.append(cursor)
        return index == len(composer.headers)

    def _bubbles(
        self,
        connection: sqlite3.Connection,
        composer: Composer,
        wanted: Sequence[str],
        read: CursorRead,
    ) -> tuple[dict[str, dict[str, Any]], set[str]]:
        """The wanted bubbles that exist, and the ids of those that are not JSON objects."""
        found = {b: composer.inline[b] for b in wanted if b in composer.inline}
        malformed: set[str] = set()
        keys = {f"{BUBBLE_PREFIX}{composer.composer_id}:{b}": b for b in wanted if b not in found}
        rows = rows_for_keys(connection, TABLE, keys, self._limits.max_bubble_bytes)
        for row_key, row in rows.items():
            bubble_id = keys[row_key]
            read.bytes += row.size
            if row.value is None:
                fields = json_fields(connection, TABLE, row_key, SLIM_BUBBLE_PATHS, SLIM_TEXT_CHARS)
                read.skipped["oversized_bubble"] += 1
                log.info("cursor_bubble_trimmed", bytes=row.size)
                value: object = slim_bubble(fields) if fields is not None else None
            else:
                value = _loads(row.value)
            if not isinstance(value, dict):
                read.skipped["malformed_bubble"] += 1
                log.info("cursor_bubble_skipped", reason="malformed_bubble", bytes=row.size)
                malformed.add(bubble_id)
                continue
            value.setdefault("bubbleId", bubble_id)
            found[bubble_id] = value
        return found, malformed


def _workspace_skipped(reason: str) -> None:
    log.info("cursor_workspace_skipped", reason=reason)


def _tail(cursor: SourceCursor | None) -> list[str]:
    tail = cursor.extra.get(TAIL_KEY) if cursor is not None else None
    return [t for t in tail if isinstance(t, str)] if isinstance(tail, list) else []


def _merge(total: CursorRead, part: CursorRead) -> None:
    total.events.extend(part.events)
    total.cursors.extend(part.cursors)
    total.skipped.update(part.skipped)
    total.bubbles += part.bubbles
    total.bytes += part.bytes


def _loads(value: str | bytes) -> object:
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        return None


def _stamp(store: Path) -> tuple[int, ...] | None:
    stamp: list[int] = []
    for path in (store, store.with_name(store.name + "-wal")):
        try:
            stat = path.stat()
        except OSError:
            if path is store:
                return None
            stamp.extend((0, 0))
            continue
        stamp.extend((stat.st_ino, stat.st_size, stat.st_mtime_ns))
    return tuple(stamp)
