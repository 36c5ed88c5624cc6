"""Memories of a project: Mem0-style decisions, manual memory, versions kept in history."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

import structlog

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
from squirrel_memory.storage.formats import new_id, to_db_time, to_json
from squirrel_memory.storage.revisions import (
    ChangeSet,
    MemoryRevisions,
    corrected,
    revise,
    with_writer,
)
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.reads import SELECT_MEMORY as _SELECT_MEMORY
from squirrel_memory.storage.sqlite.reads import load_memory as _load_memory
from squirrel_memory.storage.sqlite.reads import memory_from_row as _memory_from_row
from squirrel_memory.storage.sqlite.schema import index_memory_text, unindex_memory_text

log = structlog.get_logger()

_INSERT_MEMORY = (
    "INSERT INTO memory_items (id, project_id, user_id, scope, type, key, content, tags, "
    "importance, created_at, updated_at, source, file_paths, source_episode_id, "
    "source_event_ids, deleted, superseded_by, version, source_refs, written_by) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


_HISTORY_COLUMNS = (
    "(memory_id, version, action, content, tags, importance, changed_at, reason, "
    "source_event_ids, superseded_by, source_refs, written_by) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _write_history(
    conn: sqlite3.Connection, item: MemoryItem, action: HistoryAction, reason: str
) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO memory_history " + _HISTORY_COLUMNS,
        (
            item.id,
            item.version,
            str(action),
            item.content,
            to_json(list(item.tags)),
            item.importance,
            to_db_time(item.updated_at),
            reason,
            to_json(list(item.source_event_ids)),
            item.superseded_by,
            to_json(list(item.source_refs)),
            item.written_by,
        ),
    )


def _keep_previous_version(conn: sqlite3.Connection, item: MemoryItem) -> None:
    """Copy the current row to history unless that version is already there."""
    conn.execute(
        "INSERT OR IGNORE INTO memory_history " + _HISTORY_COLUMNS,
        (
            item.id,
            item.version,
            str(HistoryAction.CREATED if item.version == 1 else HistoryAction.UPDATED),
            item.content,
            to_json(list(item.tags)),
            item.importance,
            to_db_time(item.updated_at),
            "",
            to_json(list(item.source_event_ids)),
            item.superseded_by,
            to_json(list(item.source_refs)),
            item.written_by,
        ),
    )


def _insert_memory(
    conn: sqlite3.Connection, item: MemoryItem, reason: str, changes: ChangeSet
) -> MemoryItem:
    item = with_writer(item)
    conn.execute(
        _INSERT_MEMORY,
        (
            item.id,
            item.project_id,
            item.user_id,
            str(item.scope),
            str(item.type),
            item.key,
            item.content,
            to_json(list(item.tags)),
            item.importance,
            to_db_time(item.created_at),
            to_db_time(item.updated_at),
            str(item.source),
            to_json(list(item.file_paths)),
            item.source_episode_id,
            to_json(list(item.source_event_ids)),
            int(item.deleted),
            item.superseded_by,
            item.version,
            to_json(list(item.source_refs)),
            item.written_by,
        ),
    )
    _write_history(conn, item, HistoryAction.CREATED, reason)
    index_memory_text(
        conn,
        item.id,
        kind=str(item.type),
        key=item.key,
        content=item.content,
        tags_json=to_json(list(item.tags)),
    )
    changes.added.append(item.id)
    changes.items.append(item)
    return item


def _replace_memory(
    conn: sqlite3.Connection,
    old: MemoryItem,
    *,
    new: MemoryItem,
    action: HistoryAction,
    reason: str,
    changes: ChangeSet,
) -> MemoryItem:
    _keep_previous_version(conn, old)
    conn.execute(
        "UPDATE memory_items SET content = ?, tags = ?, importance = ?, updated_at = ?, "
        "source = ?, file_paths = ?, source_episode_id = ?, source_event_ids = ?, deleted = ?, "
        "superseded_by = ?, version = ?, source_refs = ?, written_by = ? WHERE id = ?",
        (
            new.content,
            to_json(list(new.tags)),
            new.importance,
            to_db_time(new.updated_at),
            str(new.source),
            to_json(list(new.file_paths)),
            new.source_episode_id,
            to_json(list(new.source_event_ids)),
            int(new.deleted),
            new.superseded_by,
            new.version,
            to_json(list(new.source_refs)),
            new.written_by,
            new.id,
        ),
    )
    _write_history(conn, new, action, reason)
    if new.deleted:
        unindex_memory_text(conn, new.id)
        changes.deleted.append(new.id)
    else:
        index_memory_text(
            conn,
            new.id,
            kind=str(new.type),
            key=new.key,
            content=new.content,
            tags_json=to_json(list(new.tags)),
        )
        changes.updated.append(new.id)
    changes.items.append(new)
    return new


def _retire(
    conn: sqlite3.Connection,
    old: MemoryItem,
    *,
    action: HistoryAction,
    reason: str,
    now: datetime,
    changes: ChangeSet,
    superseded_by: str | None = None,
) -> MemoryItem:
    retired = revise(old, deleted=True, superseded_by=superseded_by, now=now)
    return _replace_memory(conn, old, new=retired, action=action, reason=reason, changes=changes)


def anchor_memories(
    conn: sqlite3.Connection,
    project_id: str,
    *,
    memory_type: MemoryType,
    key: str,
    scope: Scope,
    owner: str | None,
) -> list[MemoryItem]:
    """Live memories on one anchor, oldest first (`find_anchor`, on any connection)."""
    rows = conn.execute(
        _SELECT_MEMORY + "WHERE project_id = ? AND key = ? "
        "AND type = ? AND scope = ? AND user_id IS ? AND deleted = 0 "
        "ORDER BY created_at, id",
        (project_id, key, str(memory_type), str(scope), owner),
    ).fetchall()
    return [_memory_from_row(r) for r in rows]


def write_manual(
    conn: sqlite3.Connection,
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
    # Without the index named, SQLite walks every memory of the project in `updated_at` order.
    row = conn.execute(
        _SELECT_MEMORY.replace("FROM memory_items", "FROM memory_items INDEXED BY idx_mem_key")
        + "WHERE project_id = ? AND key = ? "
        "AND type = ? AND scope = ? AND user_id IS ? AND deleted = 0 AND source = ? "
        "ORDER BY updated_at DESC LIMIT 1",
        (project_id, key, str(memory_type), str(scope), owner, "manual"),
    ).fetchone()
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
        return _insert_memory(conn, item, "remembered", changes)
    old = _memory_from_row(row)
    if (old.content, old.tags, old.importance) == (content, tags, importance):
        return old
    new = revise(old, now=now, content=content, tags=tags, importance=importance)
    return _replace_memory(
        conn, old, new=new, action=HistoryAction.UPDATED, reason="remembered", changes=changes
    )


def supersede_memory(
    conn: sqlite3.Connection,
    memory_id: str,
    by_id: str,
    *,
    reason: str,
    now: datetime,
    changes: ChangeSet,
) -> MemoryItem | None:
    """`supersede`'s write: None for an unknown memory; a deleted or manual one unchanged."""
    old = _load_memory(conn, memory_id)
    if old is None or old.deleted or old.source is MemorySource.MANUAL:
        return old
    if _load_memory(conn, by_id) is None:
        raise NotFoundError(f"no memory {by_id}")
    return _retire(
        conn,
        old,
        action=HistoryAction.SUPERSEDED,
        reason=reason[:2000],
        now=now,
        changes=changes,
        superseded_by=by_id,
    )


class SqliteMemoryBook(MemoryRevisions):
    """Memory rows, their history and change listeners (part of `SqliteStore`)."""

    project_id: str
    _db: SqliteDatabase
    _clock: Clock
    _listeners: list[MemoryListener]

    def _apply(
        self,
        conn: sqlite3.Connection,
        decision: UpdateDecision,
        *,
        user_id: str | None,
        source: MemorySource,
        now: datetime,
        changes: ChangeSet,
    ) -> MemoryItem | None:
        """Apply one decision inside the write transaction (rules in `MemoryRevisions`)."""
        candidate = decision.candidate
        content = decision.merged_content or candidate.content
        reason = decision.reason or str(UpdateAction(decision.action))
        source = writer_source(candidate.written_by, source)
        target = _load_memory(conn, decision.target_id) if decision.target_id else None
        action = self._resolve(decision, target, source)
        if action is None:
            return None
        if action is UpdateAction.ADD_NEW:
            item = self._new_item(candidate, content, user_id, source, now)
            return _insert_memory(conn, item, reason, changes)
        assert target is not None
        if action is UpdateAction.UPDATE_EXISTING:
            return _replace_memory(
                conn,
                target,
                new=self._updated(target, candidate, content, source, now),
                action=HistoryAction.UPDATED,
                reason=reason,
                changes=changes,
            )
        item = self._new_item(candidate, content, user_id, source, now)
        _insert_memory(conn, item, reason, changes)
        _retire(
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
        """Apply one Mem0-style decision; return the memory written, or None for NOOP.

        ADD_NEW inserts; UPDATE_EXISTING rewrites the target as version+1 (content from
        `merged_content` or the candidate, tags/files/source events merged, importance the
        higher of the two); DELETE_AND_ADD inserts the new memory and marks the target deleted
        and superseded by it. Every version is kept in `memory_history`. Extraction never
        changes a manual memory: UPDATE_EXISTING on one becomes NOOP, DELETE_AND_ADD on one
        becomes ADD_NEW. A missing or already deleted target turns the decision into ADD_NEW.
        """
        self._check_decision(decision, user_id)
        now = self._clock()
        changes = ChangeSet()
        item = await self._db.write(
            lambda conn: self._apply(
                conn,
                decision,
                user_id=user_id,
                source=MemorySource(source),
                now=now,
                changes=changes,
            )
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

        return await self._db.read(
            lambda conn: anchor_memories(
                conn,
                project_id,
                memory_type=checked_type,
                key=key,
                scope=checked_scope,
                owner=owner,
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

        return await self._db.read(
            lambda conn: [
                anchor_memories(
                    conn, project_id, memory_type=kind, key=key, scope=scope, owner=owner
                )
                for kind, key, scope, owner in checked
            ]
        )

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
        item = await self._db.write(
            lambda conn: write_manual(
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
        )
        await self._notify(changes.freeze())
        return item

    async def supersede(self, memory_id: str, by_id: str, reason: str) -> MemoryItem:
        """Marks a live memory deleted and superseded by `by_id` (history kept); a deleted or
        manual one is left as it is (what the user wrote is never retired this way)."""
        now = self._clock()
        changes = ChangeSet()

        item = await self._db.write(
            lambda conn: supersede_memory(
                conn, memory_id, by_id, reason=reason, now=now, changes=changes
            )
        )
        if item is None:
            raise NotFoundError(f"no memory {memory_id}")
        await self._notify(changes.freeze())
        return item

    async def forget(self, memory_id: str, reason: str) -> MemoryItem:
        """Soft-delete a memory (history kept); forgetting a deleted memory changes nothing."""
        reason = reason if isinstance(reason, str) and reason.strip() else "forgotten"
        now = self._clock()
        changes = ChangeSet()

        def write(conn: sqlite3.Connection) -> MemoryItem | None:
            old = _load_memory(conn, memory_id)
            if old is None or old.deleted:
                return old
            return _retire(
                conn,
                old,
                action=HistoryAction.FORGOTTEN,
                reason=reason[:2000],
                now=now,
                changes=changes,
            )

        item = await self._db.write(write)
        if item is None:
            raise NotFoundError(f"no memory {memory_id}")
        await self._notify(changes.freeze())
        return item

    async def correct(
        self, memory_id: str, *, content: str | None, importance: float | None, reason: str
    ) -> tuple[MemoryItem, bool]:
        """A manual correction: a new version of the same memory, written by `manual` (so
        extraction leaves it alone), live again if it was forgotten. `None` keeps a field.
        Returns the memory and whether anything changed."""
        text = None if content is None else check_text("content", content, MAX_MEMORY_CHARS).strip()
        weight = None if importance is None else check_importance(importance)
        reason = reason.strip()[:2000] if reason.strip() else "corrected by the user"
        now = self._clock()
        changes = ChangeSet()

        def write(conn: sqlite3.Connection) -> tuple[MemoryItem, bool] | None:
            old = _load_memory(conn, memory_id)
            if old is None:
                return None
            new = corrected(old, text, weight, now)
            if new is None:
                return old, False
            item = _replace_memory(
                conn, old, new=new, action=HistoryAction.UPDATED, reason=reason, changes=changes
            )
            return item, True

        done = await self._db.write(write)
        if done is None:
            raise NotFoundError(f"no memory {memory_id}")
        await self._notify(changes.freeze())
        return done
