"""The plans of a project's memory writes, for both backends: the row steps a plan asks of its
connection (`RowStep`: load, insert, replace, and statements: reads, episodes, processing
marks) and each write as a plan of them (insert, replace, retire, a manual write, supersede,
a hand-over, forget, a pass's retirement, correct), run by `memory_book.SharedMemoryBook` and
by a batch of manual plans (`manual_batches`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeAlias, TypeVar

from squirrel_core.errors import NotFoundError
from squirrel_memory.models import (
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
)
from squirrel_memory.storage.checks import (
    MAX_FILE_PATHS,
)
from squirrel_memory.storage.formats import new_id
from squirrel_memory.storage.queries import Statement
from squirrel_memory.storage.revisions import (
    ChangeSet,
    corrected,
    joined_writers,
    merge,
    revise,
    with_writer,
)
from squirrel_memory.storage.values import (
    HistoryAction,
    Retirement,
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Load:
    """One memory by id (deleted ones too), or None; with `lock`, read to be changed
    (Postgres locks its row until the transaction ends)."""

    memory_id: str
    lock: bool = True


@dataclass(frozen=True, slots=True)
class Anchored:
    """Live memories on one anchor, oldest first; `manual_only`: the newest manual one, or
    None, read to be changed."""

    project_id: str
    memory_type: MemoryType
    key: str
    scope: Scope
    owner: str | None
    manual_only: bool = False


@dataclass(frozen=True, slots=True)
class Insert:
    """A new memory row, its first history version and its full-text entry."""

    item: MemoryItem
    reason: str


@dataclass(frozen=True, slots=True)
class Replace:
    """`old`'s version kept in history, the row rewritten as `new`, `new`'s version recorded,
    and its full-text entry renewed (dropped when `new` is deleted)."""

    old: MemoryItem
    new: MemoryItem
    action: HistoryAction
    reason: str


RowStep: TypeAlias = Load | Anchored | Insert | Replace | Statement
"""What a memory plan asks of its connection; a `Statement` lets a plan read or write with
`queries` (episodes, processing marks)."""
RowPlan: TypeAlias = Generator[RowStep, Any, T]


def insert(item: MemoryItem, reason: str, changes: ChangeSet) -> RowPlan[MemoryItem]:
    item = with_writer(item)
    yield Insert(item, reason)
    changes.added.append(item.id)
    changes.items.append(item)
    return item


def replace(
    old: MemoryItem, new: MemoryItem, action: HistoryAction, reason: str, changes: ChangeSet
) -> RowPlan[MemoryItem]:
    yield Replace(old, new, action, reason)
    (changes.deleted if new.deleted else changes.updated).append(new.id)
    changes.items.append(new)
    return new


def retire(
    old: MemoryItem,
    *,
    action: HistoryAction,
    reason: str,
    now: datetime,
    changes: ChangeSet,
    superseded_by: str | None = None,
) -> RowPlan[MemoryItem]:
    retired = revise(old, deleted=True, superseded_by=superseded_by, now=now)
    return (yield from replace(old, retired, action, reason, changes))


def anchor_memories(
    project_id: str, *, memory_type: MemoryType, key: str, scope: Scope, owner: str | None
) -> RowPlan[list[MemoryItem]]:
    """Live memories on one anchor, oldest first (`find_anchor`)."""
    found: list[MemoryItem] = yield Anchored(project_id, memory_type, key, scope, owner)
    return found


def write_manual(
    project_id: str,
    *,
    memory_type: MemoryType,
    key: str,
    content: str,
    tags: tuple[str, ...],
    importance: float,
    scope: Scope,
    owner: str | None,
    now: datetime,
    changes: ChangeSet,
    file_paths: tuple[str, ...] = (),
    writer: str | None = None,
) -> RowPlan[MemoryItem]:
    """`remember`'s write, values checked: the live manual memory on the anchor updated (left
    as it is when it already says so), or a new one added. Its files are those it named before
    and then `file_paths` (as an extracted memory's grow when it is updated). `writer` joins
    its writers: a memory that already says so takes a new version only when `writer` is new
    to it (a teammate stating the same thing), the words and files kept."""
    old: MemoryItem | None = yield Anchored(
        project_id, memory_type, key, scope, owner, manual_only=True
    )
    if old is None:
        item = MemoryItem(
            id=new_id("mem"),
            project_id=project_id,
            user_id=owner,
            scope=scope,
            type=memory_type,
            key=key,
            content=content,
            tags=tags,
            importance=importance,
            created_at=now,
            updated_at=now,
            source=MemorySource.MANUAL,
            file_paths=merge((), file_paths, MAX_FILE_PATHS),
            writers=joined_writers((), writer),
        )
        return (yield from insert(item, "remembered", changes))
    files = merge(old.file_paths, file_paths, MAX_FILE_PATHS)
    writers = joined_writers(old.writers, writer)
    if (old.content, old.tags, old.importance, old.file_paths, old.writers) == (
        content,
        tags,
        importance,
        files,
        writers,
    ):
        return old
    said = (old.content, old.tags, old.importance, old.file_paths) == (
        content,
        tags,
        importance,
        files,
    )
    new = revise(
        old,
        now=now,
        content=content,
        tags=tags,
        importance=importance,
        file_paths=files,
        writers=writers,
    )
    reason = "remembered by one more writer, the same words" if said else "remembered"
    return (yield from replace(old, new, HistoryAction.UPDATED, reason, changes))


def supersede_memory(
    memory_id: str, by_id: str, *, reason: str, now: datetime, changes: ChangeSet
) -> RowPlan[MemoryItem]:
    """`supersede`'s write: a deleted or manual memory is returned unchanged."""
    old: MemoryItem | None = yield Load(memory_id)
    if old is None:
        raise NotFoundError(f"no memory {memory_id}")
    if old.deleted or old.source is MemorySource.MANUAL:
        return old
    if (yield Load(by_id, lock=False)) is None:
        raise NotFoundError(f"no memory {by_id}")
    return (
        yield from retire(
            old,
            action=HistoryAction.SUPERSEDED,
            reason=reason[:2000],
            now=now,
            changes=changes,
            superseded_by=by_id,
        )
    )


def hand_over(
    old: MemoryItem, successor: MemoryItem, *, reason: str, now: datetime, changes: ChangeSet
) -> RowPlan[bool]:
    """`old` retired as superseded by `successor`: a new memory (inserted) or the next version
    of a live one (replacing it), in one write. Nothing is written (False) when `old` is no
    longer as read (deleted, or a newer version), or the memory `successor` follows is not
    the version before it (or is deleted): both were read before the write, and another write
    came first. `successor` is stamped as changed `now`."""
    successor = dataclasses.replace(successor, updated_at=now)
    current: MemoryItem | None = yield Load(old.id)
    if current is None or current.deleted or current.version != old.version:
        return False
    before: MemoryItem | None = yield Load(successor.id)
    if before is None:
        yield from insert(successor, reason[:2000], changes)
    elif before.deleted or before.version != successor.version - 1:
        return False
    else:
        yield from replace(before, successor, HistoryAction.UPDATED, reason[:2000], changes)
    yield from retire(
        current,
        action=HistoryAction.SUPERSEDED,
        reason=reason[:2000],
        now=now,
        changes=changes,
        superseded_by=successor.id,
    )
    return True


def forget_memory(
    memory_id: str, *, reason: str, now: datetime, changes: ChangeSet
) -> RowPlan[MemoryItem]:
    old: MemoryItem | None = yield Load(memory_id)
    if old is None:
        raise NotFoundError(f"no memory {memory_id}")
    if old.deleted:
        return old
    return (
        yield from retire(
            old, action=HistoryAction.FORGOTTEN, reason=reason[:2000], now=now, changes=changes
        )
    )


def retire_if_live(
    retirement: Retirement, *, now: datetime, changes: ChangeSet
) -> RowPlan[MemoryItem | None]:
    """A pass's retirement of a memory it wrote before: forgotten with its reason, counted
    among the write's deleted memories; one gone (or already deleted) or written by hand is
    left as it is (None)."""
    old: MemoryItem | None = yield Load(retirement.memory_id)
    if old is None or old.deleted or old.source is MemorySource.MANUAL:
        return None
    return (
        yield from retire(
            old,
            action=HistoryAction.FORGOTTEN,
            reason=retirement.reason[:2000],
            now=now,
            changes=changes,
        )
    )


def correct_memory(
    memory_id: str,
    *,
    content: str | None,
    importance: float | None,
    reason: str,
    now: datetime,
    changes: ChangeSet,
) -> RowPlan[tuple[MemoryItem, bool]]:
    old: MemoryItem | None = yield Load(memory_id)
    if old is None:
        raise NotFoundError(f"no memory {memory_id}")
    new = corrected(old, content, importance, now)
    if new is None:
        return old, False
    item = yield from replace(old, new, HistoryAction.UPDATED, reason, changes)
    return item, True
