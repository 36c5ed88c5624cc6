"""Memories of a project on Postgres: decisions, manual memory, versions kept in history.

The rules (what a decision does, how versions merge) are `MemoryRevisions`'; this module
writes the rows (`reads` reads them). A decision's target is read `FOR UPDATE`, so two writers
applying decisions to one memory at once take turns instead of losing one update.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import structlog
from psycopg import AsyncConnection

from squirrel_core.errors import NotFoundError
from squirrel_memory.models import (
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
    writer_source,
)
from squirrel_memory.storage.base import FindAnchor, HistoryAction, MemoryListener
from squirrel_memory.storage.checks import (
    MAX_KEY_CHARS,
    MAX_MEMORY_CHARS,
    Clock,
    check_importance,
    check_project,
    check_scope,
    check_tags,
    check_text,
    check_type,
)
from squirrel_memory.storage.formats import new_id
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.reads import SELECT_MEMORY, load_memory, memory_from_row
from squirrel_memory.storage.postgres.search import search_fields
from squirrel_memory.storage.revisions import (
    ChangeSet,
    MemoryRevisions,
    corrected,
    revise,
    with_writer,
)

log = structlog.get_logger()

_INSERT_MEMORY = (
    "INSERT INTO memory_items (id, project_id, user_id, scope, type, key, content, tags, "
    "importance, created_at, updated_at, source, file_paths, source_episode_id, "
    "source_event_ids, deleted, superseded_by, version, source_refs, written_by, search) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, "
    "setweight(to_tsvector('english', %s), 'A') || setweight(to_tsvector('english', %s), 'B') "
    "|| setweight(to_tsvector('english', %s), 'C'))"
)
_UPDATE_MEMORY = (
    "UPDATE memory_items SET content = %s, tags = %s, importance = %s, updated_at = %s, "
    "source = %s, file_paths = %s, source_episode_id = %s, source_event_ids = %s, "
    "deleted = %s, superseded_by = %s, version = %s, source_refs = %s, written_by = %s, "
    "search = CASE WHEN %s THEN NULL ELSE setweight(to_tsvector('english', %s), 'A') || "
    "setweight(to_tsvector('english', %s), 'B') || setweight(to_tsvector('english', %s), 'C') "
    "END WHERE id = %s"
)
_HISTORY = (
    "INSERT INTO memory_history (memory_id, version, action, content, tags, importance, "
    "changed_at, reason, source_event_ids, superseded_by, source_refs, written_by) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
)


def _history_row(item: MemoryItem, action: HistoryAction, reason: str) -> tuple[Any, ...]:
    return (
        item.id,
        item.version,
        str(action),
        item.content,
        list(item.tags),
        item.importance,
        item.updated_at,
        reason,
        list(item.source_event_ids),
        item.superseded_by,
        list(item.source_refs),
        item.written_by,
    )


async def _insert(
    conn: AsyncConnection, item: MemoryItem, reason: str, changes: ChangeSet
) -> MemoryItem:
    item = with_writer(item)
    await conn.execute(
        _INSERT_MEMORY,
        (
            item.id,
            item.project_id,
            item.user_id,
            str(item.scope),
            str(item.type),
            item.key,
            item.content,
            list(item.tags),
            item.importance,
            item.created_at,
            item.updated_at,
            str(item.source),
            list(item.file_paths),
            item.source_episode_id,
            list(item.source_event_ids),
            item.deleted,
            item.superseded_by,
            item.version,
            list(item.source_refs),
            item.written_by,
            *search_fields(item),
        ),
    )
    await conn.execute(
        _HISTORY + "ON CONFLICT (memory_id, version) DO NOTHING",
        _history_row(item, HistoryAction.CREATED, reason),
    )
    changes.added.append(item.id)
    changes.items.append(item)
    return item


async def _replace(
    conn: AsyncConnection,
    old: MemoryItem,
    *,
    new: MemoryItem,
    action: HistoryAction,
    reason: str,
    changes: ChangeSet,
) -> MemoryItem:
    kept = HistoryAction.CREATED if old.version == 1 else HistoryAction.UPDATED
    await conn.execute(
        _HISTORY + "ON CONFLICT (memory_id, version) DO NOTHING", _history_row(old, kept, "")
    )
    await conn.execute(
        _UPDATE_MEMORY,
        (
            new.content,
            list(new.tags),
            new.importance,
            new.updated_at,
            str(new.source),
            list(new.file_paths),
            new.source_episode_id,
            list(new.source_event_ids),
            new.deleted,
            new.superseded_by,
            new.version,
            list(new.source_refs),
            new.written_by,
            new.deleted,
            *search_fields(new),
            new.id,
        ),
    )
    await conn.execute(
        _HISTORY + "ON CONFLICT (memory_id, version) DO UPDATE SET action = excluded.action, "
        "content = excluded.content, tags = excluded.tags, importance = excluded.importance, "
        "changed_at = excluded.changed_at, reason = excluded.reason, "
        "source_event_ids = excluded.source_event_ids, superseded_by = excluded.superseded_by, "
        "source_refs = excluded.source_refs, written_by = excluded.written_by",
        _history_row(new, action, reason),
    )
    (changes.deleted if new.deleted else changes.updated).append(new.id)
    changes.items.append(new)
    return new


async def _retire(
    conn: AsyncConnection,
    old: MemoryItem,
    *,
    action: HistoryAction,
    reason: str,
    now: datetime,
    changes: ChangeSet,
    superseded_by: str | None = None,
) -> MemoryItem:
    retired = revise(old, deleted=True, superseded_by=superseded_by, now=now)
    return await _replace(conn, old, new=retired, action=action, reason=reason, changes=changes)


async def anchor_memories(
    conn: AsyncConnection,
    project_id: str,
    *,
    memory_type: MemoryType,
    key: str,
    scope: Scope,
    owner: str | None,
) -> list[MemoryItem]:
    """Live memories on one anchor, oldest first (`find_anchor`, on any connection)."""
    cursor = await conn.execute(
        SELECT_MEMORY + "WHERE project_id = %s AND key = %s AND type = %s AND scope = %s "
        "AND user_id IS NOT DISTINCT FROM %s AND NOT deleted ORDER BY created_at, id",
        (project_id, key, str(memory_type), str(scope), owner),
    )
    return [memory_from_row(r) for r in await cursor.fetchall()]


async def write_manual(
    conn: AsyncConnection,
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
) -> MemoryItem:
    """`remember`'s write, values checked: the live manual memory on the anchor updated (left
    as it is when it already says so), or a new one added."""
    cursor = await conn.execute(
        SELECT_MEMORY + "WHERE project_id = %s AND key = %s AND type = %s AND scope = %s "
        "AND user_id IS NOT DISTINCT FROM %s AND NOT deleted AND source = 'manual' "
        "ORDER BY updated_at DESC LIMIT 1 FOR UPDATE",
        (project_id, key, str(memory_type), str(scope), owner),
    )
    row = await cursor.fetchone()
    if row is None:
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
        )
        return await _insert(conn, item, "remembered", changes)
    old = memory_from_row(row)
    if (old.content, old.tags, old.importance) == (content, tags, importance):
        return old
    new = revise(old, now=now, content=content, tags=tags, importance=importance)
    return await _replace(
        conn, old, new=new, action=HistoryAction.UPDATED, reason="remembered", changes=changes
    )


async def supersede_memory(
    conn: AsyncConnection,
    project_id: str,
    memory_id: str,
    by_id: str,
    *,
    reason: str,
    now: datetime,
    changes: ChangeSet,
) -> MemoryItem:
    """`supersede`'s write: a deleted or manual memory is returned unchanged."""
    old = await load_memory(conn, project_id, memory_id, lock=True)
    if old is None:
        raise NotFoundError(f"no memory {memory_id}")
    if old.deleted or old.source is MemorySource.MANUAL:
        return old
    if await load_memory(conn, project_id, by_id) is None:
        raise NotFoundError(f"no memory {by_id}")
    return await _retire(
        conn,
        old,
        action=HistoryAction.SUPERSEDED,
        reason=reason[:2000],
        now=now,
        changes=changes,
        superseded_by=by_id,
    )


class PostgresMemoryBook(MemoryRevisions):
    """Memory rows, their history and change listeners (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase
    _clock: Clock
    _listeners: list[MemoryListener]

    async def _apply(
        self,
        conn: AsyncConnection,
        decision: UpdateDecision,
        *,
        user_id: str | None,
        source: MemorySource,
        now: datetime,
        changes: ChangeSet,
    ) -> MemoryItem | None:
        """Apply one decision inside the caller's transaction (rules in `MemoryRevisions`)."""
        candidate = decision.candidate
        content = decision.merged_content or candidate.content
        reason = decision.reason or str(UpdateAction(decision.action))
        source = writer_source(candidate.written_by, source)
        target = None
        if decision.target_id:
            target = await load_memory(conn, self.project_id, decision.target_id, lock=True)
        action = self._resolve(decision, target, source)
        if action is None:
            return None
        if action is UpdateAction.ADD_NEW:
            item = self._new_item(candidate, content, user_id, source, now)
            return await _insert(conn, item, reason, changes)
        assert target is not None
        if action is UpdateAction.UPDATE_EXISTING:
            return await _replace(
                conn,
                target,
                new=self._updated(target, candidate, content, source, now),
                action=HistoryAction.UPDATED,
                reason=reason,
                changes=changes,
            )
        item = self._new_item(candidate, content, user_id, source, now)
        await _insert(conn, item, reason, changes)
        await _retire(
            conn,
            target,
            action=HistoryAction.SUPERSEDED,
            reason=reason,
            now=now,
            changes=changes,
            superseded_by=item.id,
        )
        return item

    async def apply_decision(
        self,
        decision: UpdateDecision,
        *,
        user_id: str,
        source: MemorySource = MemorySource.RULES,
    ) -> MemoryItem | None:
        """Apply one Mem0-style decision; return the memory written, or None for NOOP."""
        self._check_decision(decision, user_id)
        now = self._clock()
        changes = ChangeSet()
        async with self._db.transaction() as conn:
            item = await self._apply(
                conn,
                decision,
                user_id=user_id,
                source=MemorySource(source),
                now=now,
                changes=changes,
            )
        await self._notify(changes.freeze())
        return item

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
        async with self._db.transaction() as conn:
            return await anchor_memories(
                conn,
                project_id,
                memory_type=checked_type,
                key=key,
                scope=checked_scope,
                owner=owner,
            )

    async def find_anchors(
        self, project_id: str, anchors: Sequence[FindAnchor]
    ) -> list[list[MemoryItem]]:
        """`find_anchor` for each of `anchors`, in order, in one read."""
        check_project(self.project_id, project_id)
        checked = [
            (check_type(a.memory_type), a.key, *check_scope(a.scope, a.user_id)) for a in anchors
        ]
        async with self._db.transaction() as conn:
            return [
                await anchor_memories(
                    conn, project_id, memory_type=kind, key=key, scope=scope, owner=owner
                )
                for kind, key, scope, owner in checked
            ]

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
    ) -> MemoryItem:
        """Add a manual memory, or update the live manual memory on the same anchor."""
        check_project(self.project_id, project_id)
        checked_type = check_type(type)
        key = check_text("key", key, MAX_KEY_CHARS).strip()
        content = check_text("content", content, MAX_MEMORY_CHARS).strip()
        checked_tags = check_tags(tags)
        checked_importance = check_importance(importance)
        checked_scope, owner = check_scope(scope, user_id)
        now = self._clock()
        changes = ChangeSet()
        async with self._db.transaction() as conn:
            item = await write_manual(
                conn,
                project_id,
                memory_type=checked_type,
                key=key,
                content=content,
                tags=checked_tags,
                importance=checked_importance,
                scope=checked_scope,
                owner=owner,
                now=now,
                changes=changes,
            )
        await self._notify(changes.freeze())
        return item

    async def supersede(self, memory_id: str, by_id: str, reason: str) -> MemoryItem:
        """Marks a live memory deleted and superseded by `by_id` (history kept); a deleted or
        manual one is left as it is."""
        now = self._clock()
        changes = ChangeSet()
        async with self._db.transaction() as conn:
            item = await supersede_memory(
                conn, self.project_id, memory_id, by_id, reason=reason, now=now, changes=changes
            )
        await self._notify(changes.freeze())
        return item

    async def forget(self, memory_id: str, reason: str) -> MemoryItem:
        """Soft-delete a memory (history kept); forgetting a deleted memory changes nothing."""
        reason = reason if isinstance(reason, str) and reason.strip() else "forgotten"
        now = self._clock()
        changes = ChangeSet()
        async with self._db.transaction() as conn:
            old = await load_memory(conn, self.project_id, memory_id, lock=True)
            if old is None:
                raise NotFoundError(f"no memory {memory_id}")
            item = old
            if not old.deleted:
                item = await _retire(
                    conn,
                    old,
                    action=HistoryAction.FORGOTTEN,
                    reason=reason[:2000],
                    now=now,
                    changes=changes,
                )
        await self._notify(changes.freeze())
        return item

    async def correct(
        self, memory_id: str, *, content: str | None, importance: float | None, reason: str
    ) -> tuple[MemoryItem, bool]:
        """A manual correction: a new version written by `manual`, live again if it was
        forgotten. `None` keeps a field. Returns the memory and whether anything changed."""
        text = None if content is None else check_text("content", content, MAX_MEMORY_CHARS).strip()
        weight = None if importance is None else check_importance(importance)
        reason = reason.strip()[:2000] if reason.strip() else "corrected by the user"
        now = self._clock()
        changes = ChangeSet()
        async with self._db.transaction() as conn:
            old = await load_memory(conn, self.project_id, memory_id, lock=True)
            if old is None:
                raise NotFoundError(f"no memory {memory_id}")
            new = corrected(old, text, weight, now)
            if new is None:
                return old, False
            item = await _replace(
                conn, old, new=new, action=HistoryAction.UPDATED, reason=reason, changes=changes
            )
        await self._notify(changes.freeze())
        return item, True
