"""Manual plans run many at once on Postgres: one transaction, a savepoint for each plan
that writes more than once."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, TypeVar

from psycopg import AsyncConnection

from squirrel_core.errors import SquirrelError
from squirrel_memory.models import MemoryType
from squirrel_memory.storage.base import (
    FindAnchor,
    FindLookalikes,
    LookalikeScreen,
    ManualPlan,
    ManualStep,
    WriteManual,
)
from squirrel_memory.storage.checks import (
    Clock,
    check_limit,
    check_project,
    check_scope,
    check_type,
)
from squirrel_memory.storage.memory_book import anchor_memories, supersede_memory, write_manual
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.memories import run_on
from squirrel_memory.storage.postgres.reads import load_memories, memory_version, screened_texts
from squirrel_memory.storage.postgres.search import PostgresMemorySearch
from squirrel_memory.storage.revisions import (
    ChangeSet,
    MemoryRevisions,
    PlanWrites,
    checked_manual,
    run_plan_async,
)

T = TypeVar("T")


class PostgresManualBatch(PostgresMemorySearch, MemoryRevisions):
    """`remember_batch` (part of `PostgresStore`)."""

    project_id: str
    _db: PostgresDatabase
    _clock: Clock

    async def remember_batch(
        self,
        project_id: str,
        plans: Sequence[ManualPlan[T]],
        screen: LookalikeScreen | None = None,
    ) -> list[T | SquirrelError]:
        """Run `plans` in order inside ONE transaction (see `MemoryBook`); a plan that may
        write more than once runs under a savepoint from its first write, rolled back when it
        raises a `SquirrelError` (`PlanWrites`)."""
        check_project(self.project_id, project_id)
        changes = ChangeSet()
        done: list[T | SquirrelError] = []
        screened: set[MemoryType] = set()
        try:
            async with self._db.transaction() as conn:
                for plan in plans:
                    own = ChangeSet()
                    writes = PlanWrites()
                    try:
                        answer = partial(
                            self._guarded,
                            conn,
                            writes,
                            changes=own,
                            screen=screen,
                            screened=screened,
                        )
                        result = await run_plan_async(plan, answer)
                    except SquirrelError as exc:
                        if writes.undo(exc):
                            await conn.execute("ROLLBACK TO SAVEPOINT manual_plan")
                            await conn.execute("RELEASE SAVEPOINT manual_plan")
                        done.append(exc)
                        continue
                    if writes.saved:
                        await conn.execute("RELEASE SAVEPOINT manual_plan")
                    if screen is not None:
                        for item in own.items:
                            screen.written(item)
                    # As after each write of its own: searches re-read what the plan changed.
                    count = len(own.added) + len(own.updated) + len(own.deleted)
                    self._search_stats.changed(count)
                    changes.extend(own)
                    done.append(result)
                if screen is not None:
                    for kind in screened:
                        screen.settle(kind, await memory_version(conn, self.project_id, kind))
        except BaseException:
            if screen is not None:
                screen.forget()
            raise
        await MemoryRevisions._notify(self, changes.freeze())
        return done

    async def _guarded(
        self,
        conn: AsyncConnection,
        writes: PlanWrites,
        step: ManualStep,
        *,
        changes: ChangeSet,
        screen: LookalikeScreen | None,
        screened: set[MemoryType],
    ) -> Any:
        """`_answer`, with the plan's savepoint opened before it when it needs one."""
        if writes.save_before(step):
            await conn.execute("SAVEPOINT manual_plan")
        answer = await self._answer(conn, step, changes=changes, screen=screen, screened=screened)
        writes.answered(step)
        return answer

    async def _answer(
        self,
        conn: AsyncConnection,
        step: ManualStep,
        *,
        changes: ChangeSet,
        screen: LookalikeScreen | None,
        screened: set[MemoryType],
    ) -> Any:
        """One step of a plan, answered inside the transaction."""
        if isinstance(step, FindLookalikes):
            check_limit(step.limit)
            kind = check_type(step.memory_type)
            if screen is not None and kind not in screened:
                version = await memory_version(conn, self.project_id, kind)
                if not screen.knows(kind, version) and screen.wants(version[0]):
                    texts = await screened_texts(conn, self.project_id, kind)
                    screen.learn(kind, version, texts)
                if screen.knows(kind, version):
                    screened.add(kind)
            if screen is not None and kind in screened and screen.rules_out(step):
                return []
            hits = await self._search(step.content, [kind], step.limit, conn)
            if not hits:
                return []
            return await load_memories(conn, self.project_id, [i for i, _ in hits])
        if isinstance(step, FindAnchor):
            scope, owner = check_scope(step.scope, step.user_id)
            kind = check_type(step.memory_type)
            return await run_on(
                conn,
                self.project_id,
                anchor_memories(
                    self.project_id, memory_type=kind, key=step.key, scope=scope, owner=owner
                ),
            )
        if isinstance(step, WriteManual):
            checked = checked_manual(step)
            return await run_on(
                conn,
                self.project_id,
                write_manual(
                    self.project_id,
                    memory_type=checked.memory_type,
                    key=checked.key,
                    content=checked.content,
                    tags=checked.tags,
                    importance=checked.importance,
                    scope=checked.scope,
                    owner=checked.user_id,
                    now=self._clock(),
                    changes=changes,
                ),
            )
        return await run_on(
            conn,
            self.project_id,
            supersede_memory(
                step.memory_id, step.by_id, reason=step.reason, now=self._clock(), changes=changes
            ),
        )
