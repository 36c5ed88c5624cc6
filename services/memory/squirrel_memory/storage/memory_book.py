"""A project's memories, written once for both backends: what each write reads, decides and
changes, as a plan of row steps (`RowStep`) that each backend answers on its own connection
(`sqlite/memories.py` on the writer thread, `postgres/memories.py` in a transaction).

The rules (what a decision does, how versions merge) are `MemoryRevisions`'; the statements
are `memory_sql`'s; here is the order of the steps and what each write reports as changed.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeAlias, TypeVar

from squirrel_core.errors import NotFoundError
from squirrel_memory.models import (
    Episode,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
    writer_source,
)
from squirrel_memory.storage.checks import (
    MAX_FILE_PATHS,
    MAX_KEY_CHARS,
    MAX_MEMORY_CHARS,
    Clock,
    check_importance,
    check_project,
    check_scope,
    check_strings,
    check_tags,
    check_text,
    check_type,
)
from squirrel_memory.storage.formats import new_id
from squirrel_memory.storage.intake import check_episodes
from squirrel_memory.storage.queries import Rows
from squirrel_memory.storage.revisions import (
    ChangeSet,
    MemoryRevisions,
    corrected,
    merge,
    revise,
    with_writer,
)
from squirrel_memory.storage.values import (
    FindAnchor,
    HistoryAction,
    MemoryListener,
    ProcessingResult,
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


@dataclass(frozen=True, slots=True)
class Episodes:
    """Episodes inserted or replaced, with their event lists."""

    episodes: tuple[Episode, ...]


@dataclass(frozen=True, slots=True)
class MarkProcessed:
    """`processed_at` set on the events not yet processed; answered with how many changed."""

    event_ids: tuple[str, ...]
    at: datetime


RowStep: TypeAlias = Load | Anchored | Insert | Replace | Episodes | MarkProcessed | Rows
"""What a memory plan asks of its connection; `Rows` lets a plan read with `queries`."""
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
) -> RowPlan[MemoryItem]:
    """`remember`'s write, values checked: the live manual memory on the anchor updated (left
    as it is when it already says so), or a new one added. Its files are those it named before
    and then `file_paths` (as an extracted memory's grow when it is updated)."""
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
        )
        return (yield from insert(item, "remembered", changes))
    files = merge(old.file_paths, file_paths, MAX_FILE_PATHS)
    if (old.content, old.tags, old.importance, old.file_paths) == (
        content,
        tags,
        importance,
        files,
    ):
        return old
    new = revise(old, now=now, content=content, tags=tags, importance=importance, file_paths=files)
    return (yield from replace(old, new, HistoryAction.UPDATED, "remembered", changes))


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


class SharedMemoryBook(MemoryRevisions):
    """Memory rows, their history and change listeners; a backend answers the row steps of a
    plan in one write transaction (`_write`) or one read (`_read`)."""

    project_id: str
    _clock: Clock
    _listeners: list[MemoryListener]

    async def _write(self, plan: RowPlan[T]) -> T:
        raise NotImplementedError

    async def _read(self, plan: RowPlan[T]) -> T:
        raise NotImplementedError

    def _apply(
        self,
        decision: UpdateDecision,
        *,
        user_id: str | None,
        source: MemorySource,
        now: datetime,
        changes: ChangeSet,
    ) -> RowPlan[MemoryItem | None]:
        """Apply one decision inside the write transaction (rules in `MemoryRevisions`)."""
        candidate = decision.candidate
        content = decision.merged_content or candidate.content
        reason = decision.reason or str(UpdateAction(decision.action))
        source = writer_source(candidate.written_by, source)
        target: MemoryItem | None = None
        if decision.target_id:
            target = yield Load(decision.target_id)
        action = self._resolve(decision, target, source)
        if action is None:
            return None
        if action is UpdateAction.ADD_NEW:
            item = self._new_item(candidate, content, user_id, source, now)
            return (yield from insert(item, reason, changes))
        assert target is not None
        if action is UpdateAction.UPDATE_EXISTING:
            new = self._updated(
                target, candidate, content, source, now, dropped_tags=decision.dropped_tags
            )
            return (yield from replace(target, new, HistoryAction.UPDATED, reason, changes))
        item = self._new_item(candidate, content, user_id, source, now)
        yield from insert(item, reason, changes)
        yield from retire(
            target,
            action=HistoryAction.SUPERSEDED,
            reason=reason,
            now=now,
            changes=changes,
            superseded_by=item.id,
        )
        return item

    async def _changed(self, plan: RowPlan[T], changes: ChangeSet) -> T:
        """Run a write plan, then tell the listeners what it changed."""
        result = await self._write(plan)
        await self._notify(changes.freeze())
        return result

    async def apply_decision(
        self,
        decision: UpdateDecision,
        *,
        user_id: str,
        source: MemorySource = MemorySource.RULES,
    ) -> MemoryItem | None:
        """Apply one Mem0-style decision; return the memory written, or None for NOOP.

        ADD_NEW inserts; UPDATE_EXISTING rewrites the target as version+1 (content from
        `merged_content` or the candidate, tags/files/source events merged less the decision's
        `dropped_tags`, importance the higher of the two); DELETE_AND_ADD inserts the new
        memory and marks the target deleted and superseded by it. Every version is kept in
        `memory_history`. Extraction never changes a manual memory: UPDATE_EXISTING on one
        becomes NOOP, DELETE_AND_ADD on one becomes ADD_NEW. A missing or already deleted
        target turns the decision into ADD_NEW.
        """
        self._check_decision(decision, user_id)
        changes = ChangeSet()
        plan = self._apply(
            decision,
            user_id=user_id,
            source=MemorySource(source),
            now=self._clock(),
            changes=changes,
        )
        return await self._changed(plan, changes)

    async def apply_processing_result(
        self,
        episodes: Sequence[Episode],
        decisions: Sequence[UpdateDecision],
        processed_event_ids: Sequence[str],
        *,
        user_id: str,
        source: MemorySource = MemorySource.RULES,
        at: datetime | None = None,
    ) -> ProcessingResult:
        """Write episodes, apply decisions and mark events processed in ONE transaction."""
        check_episodes(self.project_id, episodes)
        for decision in decisions:
            self._check_decision(decision, user_id)
        now = at or self._clock()
        changes = ChangeSet()

        def plan() -> RowPlan[int]:
            yield Episodes(tuple(episodes))
            for decision in decisions:
                yield from self._apply(
                    decision, user_id=user_id, source=MemorySource(source), now=now, changes=changes
                )
            processed: int = yield MarkProcessed(tuple(processed_event_ids), now)
            return processed

        processed = await self._write(plan())
        return await self._processed(episodes, changes, processed)

    async def find_anchor(
        self,
        project_id: str,
        type: MemoryType,
        key: str,
        scope: Scope,
        user_id: str | None,
    ) -> list[MemoryItem]:
        """Live memories on the anchor (project, type, key, scope, user); oldest first."""
        check_project(self.project_id, project_id)
        checked_scope, owner = check_scope(scope, user_id)
        checked_type = check_type(type)
        return await self._read(
            anchor_memories(
                project_id, memory_type=checked_type, key=key, scope=checked_scope, owner=owner
            )
        )

    async def find_anchors(
        self, project_id: str, anchors: Sequence[FindAnchor]
    ) -> list[list[MemoryItem]]:
        """`find_anchor` for each of `anchors`, in order, in one read."""
        check_project(self.project_id, project_id)
        checked = [
            (check_type(a.memory_type), a.key, *check_scope(a.scope, a.user_id)) for a in anchors
        ]

        def plan() -> RowPlan[list[list[MemoryItem]]]:
            found = []
            for kind, key, scope, owner in checked:
                found.append(
                    (
                        yield from anchor_memories(
                            project_id, memory_type=kind, key=key, scope=scope, owner=owner
                        )
                    )
                )
            return found

        return await self._read(plan())

    async def remember(
        self,
        project_id: str,
        *,
        type: MemoryType,
        key: str,
        content: str,
        tags: Sequence[str],
        importance: float,
        scope: Scope,
        user_id: str | None,
        file_paths: Sequence[str] = (),
    ) -> MemoryItem:
        """Add a manual memory, or update the live manual memory on the same anchor."""
        check_project(self.project_id, project_id)
        checked_type = check_type(type)
        key = check_text("key", key, MAX_KEY_CHARS).strip()
        content = check_text("content", content, MAX_MEMORY_CHARS).strip()
        checked_tags = check_tags(tags)
        checked_importance = check_importance(importance)
        checked_scope, owner = check_scope(scope, user_id)
        changes = ChangeSet()
        plan = write_manual(
            project_id,
            memory_type=checked_type,
            key=key,
            content=content,
            tags=checked_tags,
            importance=checked_importance,
            scope=checked_scope,
            owner=owner,
            now=self._clock(),
            changes=changes,
            file_paths=check_strings("file_paths", file_paths),
        )
        return await self._changed(plan, changes)

    async def supersede(self, memory_id: str, by_id: str, reason: str) -> MemoryItem:
        """Marks a live memory deleted and superseded by `by_id` (history kept); a deleted or
        manual one is left as it is (what the user wrote is never retired this way)."""
        changes = ChangeSet()
        plan = supersede_memory(memory_id, by_id, reason=reason, now=self._clock(), changes=changes)
        return await self._changed(plan, changes)

    async def forget(self, memory_id: str, reason: str) -> MemoryItem:
        """Soft-delete a memory (history kept); forgetting a deleted memory changes nothing."""
        reason = reason if isinstance(reason, str) and reason.strip() else "forgotten"
        changes = ChangeSet()
        plan = forget_memory(memory_id, reason=reason, now=self._clock(), changes=changes)
        return await self._changed(plan, changes)

    async def correct(
        self, memory_id: str, *, content: str | None, importance: float | None, reason: str
    ) -> tuple[MemoryItem, bool]:
        """A manual correction: a new version of the same memory, written by `manual` (so
        extraction leaves it alone), live again if it was forgotten. `None` keeps a field.
        Returns the memory and whether anything changed."""
        text = None if content is None else check_text("content", content, MAX_MEMORY_CHARS).strip()
        weight = None if importance is None else check_importance(importance)
        reason = reason.strip()[:2000] if reason.strip() else "corrected by the user"
        changes = ChangeSet()
        plan = correct_memory(
            memory_id,
            content=text,
            importance=weight,
            reason=reason,
            now=self._clock(),
            changes=changes,
        )
        return await self._changed(plan, changes)
