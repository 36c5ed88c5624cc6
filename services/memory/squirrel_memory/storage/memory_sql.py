"""The memory rows' statements, written once for both backends from a `Dialect` (placeholders,
stored lists, times and flags, null-safe equality, the history upserts, row locks, the
full-text column).

Full text differs in kind, not only in words: Postgres keeps a weighted `tsvector` column on the
row (`Dialect.search_*`, filled by the same INSERT and UPDATE), while SQLite keeps FTS5 side
tables that its backend writes after each row (`sqlite/memories.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.storage.dialect import Dialect
from squirrel_memory.storage.values import HistoryAction

_COLUMNS = (
    "id",
    "project_id",
    "user_id",
    "scope",
    "type",
    "key",
    "content",
    "tags",
    "importance",
    "created_at",
    "updated_at",
    "source",
    "file_paths",
    "source_episode_id",
    "source_event_ids",
    "deleted",
    "superseded_by",
    "version",
    "source_refs",
    "written_by",
    "writers",
)
MEMORY_COLUMN_NAMES = _COLUMNS
MEMORY_COLUMNS = ", ".join(_COLUMNS)
SELECT_MEMORY = f"SELECT {MEMORY_COLUMNS} FROM memory_items "  # noqa: S608 (constants)
"""Every column of a memory, in the order each backend's `memory_from_row` reads."""

_FIXED = ("id", "project_id", "user_id", "scope", "type", "key", "created_at")
"""What a memory keeps through all its versions (its anchor, its birth)."""
_UPDATED = tuple(c for c in _COLUMNS if c not in _FIXED)
_HISTORY = (
    "memory_id",
    "version",
    "action",
    "content",
    "tags",
    "importance",
    "changed_at",
    "reason",
    "source_event_ids",
    "superseded_by",
    "source_refs",
    "written_by",
    "writers",
)
_HISTORY_KEY = ("memory_id", "version")


def _stored(d: Dialect, item: MemoryItem) -> dict[str, Any]:
    """Each column's value of `item` as `d` stores it."""
    return {
        "id": item.id,
        "project_id": item.project_id,
        "user_id": item.user_id,
        "scope": str(item.scope),
        "type": str(item.type),
        "key": item.key,
        "content": item.content,
        "tags": d.store_list(item.tags),
        "importance": item.importance,
        "created_at": d.store_time(item.created_at),
        "updated_at": d.store_time(item.updated_at),
        "source": str(item.source),
        "file_paths": d.store_list(item.file_paths),
        "source_episode_id": item.source_episode_id,
        "source_event_ids": d.store_list(item.source_event_ids),
        "deleted": d.store_flag(item.deleted),
        "superseded_by": item.superseded_by,
        "version": item.version,
        "source_refs": d.store_list(item.source_refs),
        "written_by": item.written_by,
        "writers": d.store_list(item.writers),
    }


def memory_row(d: Dialect, item: MemoryItem) -> tuple[Any, ...]:
    """The values of `MemoryStatements.insert`, before any full-text values."""
    stored = _stored(d, item)
    return tuple(stored[c] for c in _COLUMNS)


def updated_values(d: Dialect, item: MemoryItem) -> tuple[Any, ...]:
    """The values of `MemoryStatements.update`, before any full-text values and the id."""
    stored = _stored(d, item)
    return tuple(stored[c] for c in _UPDATED)


def history_row(
    d: Dialect, item: MemoryItem, action: HistoryAction, reason: str
) -> tuple[Any, ...]:
    """The values of `MemoryStatements.keep_history` and `put_history`: `item`'s version."""
    stored = _stored(d, item)
    extra = {
        "memory_id": item.id,
        "action": str(action),
        "changed_at": stored["updated_at"],
        "reason": reason,
    }
    return tuple(extra[c] if c in extra else stored[c] for c in _HISTORY)


@dataclass(frozen=True, slots=True)
class MemoryStatements:
    """Every statement of the memory rows, in one dialect."""

    insert: str
    update: str
    keep_history: str
    """A version into `memory_history` unless that version is already there."""
    put_history: str
    """A version into `memory_history`, replacing what that version said before."""
    anchor: str
    """Live memories on one anchor, oldest first: params `anchor_params`."""
    manual_on_anchor: str
    """The newest live manual memory on one anchor, to be changed: `anchor_params`, "manual"."""


def statements(d: Dialect) -> MemoryStatements:
    names = MEMORY_COLUMNS + (", search" if d.search_insert else "")
    values = d.marks(len(_COLUMNS)) + (f", {d.search_insert}" if d.search_insert else "")
    sets = [f"{c} = {d.mark}" for c in _UPDATED]
    if d.search_update:
        sets.append(f"search = {d.search_update}")
    on_anchor = (
        f"WHERE project_id = {d.mark} AND key = {d.mark} AND type = {d.mark} "
        f"AND scope = {d.mark} AND user_id {d.same} {d.mark} AND {d.live} "
    )
    by_key = SELECT_MEMORY.replace("FROM memory_items", f"FROM memory_items{d.by_key}")
    return MemoryStatements(
        insert=f"INSERT INTO memory_items ({names}) VALUES ({values})",  # noqa: S608 (constants)
        update=f"UPDATE memory_items SET {', '.join(sets)} WHERE id = {d.mark}",  # noqa: S608
        keep_history=d.insert_or_skip("memory_history", _HISTORY, _HISTORY_KEY),
        put_history=d.insert_or_replace("memory_history", _HISTORY, _HISTORY_KEY),
        anchor=f"{SELECT_MEMORY}{on_anchor}ORDER BY created_at, id",
        manual_on_anchor=(
            f"{by_key}{on_anchor}AND source = {d.mark} ORDER BY updated_at DESC LIMIT 1{d.lock}"
        ),
    )


def kept_action(item: MemoryItem) -> HistoryAction:
    """How a version being replaced came to be, for the history row kept of it."""
    return HistoryAction.CREATED if item.version == 1 else HistoryAction.UPDATED


def anchor_params(
    project_id: str, key: str, memory_type: MemoryType, scope: Scope, owner: str | None
) -> tuple[Any, ...]:
    return (project_id, key, str(memory_type), str(scope), owner)


def insert_writes(
    d: Dialect, sql: MemoryStatements, item: MemoryItem, reason: str, search: tuple[Any, ...]
) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements of a new memory, in order: its row (with `search`, the full-text values
    of `Dialect.search_insert`, if any) and its first version in history."""
    return [
        (sql.insert, (*memory_row(d, item), *search)),
        (sql.keep_history, history_row(d, item, HistoryAction.CREATED, reason)),
    ]


def replace_writes(
    d: Dialect,
    sql: MemoryStatements,
    old: MemoryItem,
    new: MemoryItem,
    *,
    action: HistoryAction,
    reason: str,
    search: tuple[Any, ...],
) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements of a memory rewritten, in order: `old`'s version kept in history, the
    row rewritten as `new` (with `search`, the values of `Dialect.search_update`, if any) and
    `new`'s version recorded."""
    return [
        (sql.keep_history, history_row(d, old, kept_action(old), "")),
        (sql.update, (*updated_values(d, new), *search, new.id)),
        (sql.put_history, history_row(d, new, action, reason)),
    ]
