"""A project's memories, written once for both backends: what each write reads, decides and
changes, as a plan of row steps (`RowStep`) that each backend answers on its own connection
(`sqlite/memories.py` on the writer thread, `postgres/memories.py` in a transaction).

The rules (what a decision does, how versions merge) are `MemoryRevisions`'; the statements
are `memory_sql`'s; the row steps and the plan of each write are `memory_plans`'; here each write
runs its plan and says what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

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
    check_writer,
)
from squirrel_memory.storage.dialect import Dialect
from squirrel_memory.storage.event_sql import mark_events, write_episodes
from squirrel_memory.storage.intake import check_episodes
from squirrel_memory.storage.memory_plans import (
    Load,
    RowPlan,
    anchor_memories,
    correct_memory,
    forget_memory,
    hand_over,
    insert,
    replace,
    retire,
    retire_if_live,
    supersede_memory,
    write_manual,
)
from squirrel_memory.storage.revisions import (
    ChangeSet,
    MemoryRevisions,
)
from squirrel_memory.storage.values import (
    FindAnchor,
    HistoryAction,
    MemoryListener,
    ProcessingResult,
    Retirement,
)

T = TypeVar("T")


class SharedMemoryBook(MemoryRevisions):
    """Memory rows, their history and change listeners; a backend answers the row steps of a
    plan in one write transaction (`_write`) or one read (`_read`)."""

    project_id: str
    _clock: Clock
    _dialect: Dialect
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
        retirements: Sequence[Retirement] = (),
    ) -> ProcessingResult:
        """Write episodes, apply decisions, retire what the pass no longer finds
        (`retirements`, counted among the deleted) and mark events processed in ONE
        transaction."""
        check_episodes(self.project_id, episodes)
        for decision in decisions:
            self._check_decision(decision, user_id)
        now = at or self._clock()
        changes = ChangeSet()

        def plan() -> RowPlan[int]:
            yield from write_episodes(self._dialect, episodes)
            for decision in decisions:
                yield from self._apply(
                    decision, user_id=user_id, source=MemorySource(source), now=now, changes=changes
                )
            for retirement in retirements:
                yield from retire_if_live(retirement, now=now, changes=changes)
            return (yield from mark_events(self._dialect, processed_event_ids, now))

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
            writer=check_writer(user_id),
        )
        return await self._changed(plan, changes)

    async def supersede(self, memory_id: str, by_id: str, reason: str) -> MemoryItem:
        """Marks a live memory deleted and superseded by `by_id` (history kept); a deleted or
        manual one is left as it is (what the user wrote is never retired this way)."""
        changes = ChangeSet()
        plan = supersede_memory(memory_id, by_id, reason=reason, now=self._clock(), changes=changes)
        return await self._changed(plan, changes)

    async def hand_over(self, old: MemoryItem, successor: MemoryItem, reason: str) -> bool:
        """`old` retired, superseded by `successor` (a new memory, or the next version of a
        live one), in one write; False (nothing written) when either changed meanwhile."""
        check_project(self.project_id, old.project_id)
        check_project(self.project_id, successor.project_id)
        changes = ChangeSet()
        plan = hand_over(old, successor, reason=reason, now=self._clock(), changes=changes)
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
