"""Manual plans run many at once on SQLite: one write transaction, a savepoint for each plan
that writes more than once."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from functools import partial
from typing import Any, TypeVar

from squirrel_core.errors import SquirrelError
from squirrel_memory.models import MemorySource, MemoryType
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
from squirrel_memory.storage.formats import to_json
from squirrel_memory.storage.memory_book import anchor_memories, supersede_memory, write_manual
from squirrel_memory.storage.revisions import (
    ChangeSet,
    MemoryRevisions,
    PlanWrites,
    checked_manual,
    run_plan,
)
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.memories import run_on
from squirrel_memory.storage.sqlite.reads import memory_from_row
from squirrel_memory.storage.sqlite.search import fts_match_expression, ranked_rows

T = TypeVar("T")


def memory_texts(
    conn: sqlite3.Connection, project_id: str, memory_type: MemoryType, source: str | None
) -> list[tuple[str, str]]:
    """(id, content) of the live memories of one type (and of `source`, when not None)."""
    rows = conn.execute(
        "SELECT id, content FROM memory_items WHERE project_id = ? AND type = ? AND deleted = 0 "
        "AND (? IS NULL OR source = ?)",
        (project_id, str(memory_type), source, source),
    ).fetchall()
    return [(str(r[0]), str(r[1])) for r in rows]


def screened_texts(
    conn: sqlite3.Connection, project_id: str, memory_type: MemoryType
) -> list[tuple[str, str, bool]]:
    """(id, content, written by hand) of the live memories of one type (what a screen learns)."""
    rows = conn.execute(
        "SELECT id, content, source = 'manual' FROM memory_items "
        "WHERE project_id = ? AND type = ? AND deleted = 0",
        (project_id, str(memory_type)),
    ).fetchall()
    return [(str(r[0]), str(r[1]), bool(r[2])) for r in rows]


def memory_version(
    conn: sqlite3.Connection, project_id: str, memory_type: MemoryType
) -> tuple[int, int]:
    """The version of a type's memories: its rows and the sum of their versions, which every
    write of one of them raises (a row added, or a version more; rows are never removed)."""
    row = conn.execute(
        "SELECT COUNT(*), TOTAL(version) FROM memory_items WHERE project_id = ? AND type = ?",
        (project_id, str(memory_type)),
    ).fetchone()
    return int(row[0]), int(row[1])


class SqliteManualBatch(MemoryRevisions):
    """`remember_batch` and `memory_texts` (part of `SqliteStore`)."""

    project_id: str
    _db: SqliteDatabase
    _clock: Clock

    async def memory_texts(
        self, project_id: str, memory_type: MemoryType, source: MemorySource | None = None
    ) -> list[tuple[str, str]]:
        """(id, content) of the live memories of one type (and of `source`, when given)."""
        check_project(self.project_id, project_id)
        kind = check_type(memory_type)
        wanted = None if source is None else str(MemorySource(source))
        return await self._db.read(lambda conn: memory_texts(conn, project_id, kind, wanted))

    async def remember_batch(
        self,
        project_id: str,
        plans: Sequence[ManualPlan[T]],
        screen: LookalikeScreen | None = None,
    ) -> list[T | SquirrelError]:
        """Run `plans` in order inside ONE write transaction (see `MemoryBook`); a plan that
        may write more than once runs under a savepoint from its first write, rolled back when
        it raises a `SquirrelError` (a step that fails writes nothing, so a plan whose only
        write is its `last` needs none: savepoints cost a flush of the FTS5 index each)."""
        check_project(self.project_id, project_id)
        changes = ChangeSet()
        screened: set[MemoryType] = set()

        def write(conn: sqlite3.Connection) -> list[T | SquirrelError]:
            done: list[T | SquirrelError] = []
            for plan in plans:
                own = ChangeSet()
                writes = PlanWrites()
                try:
                    answer = partial(
                        self._guarded, conn, writes, changes=own, screen=screen, screened=screened
                    )
                    result = run_plan(plan, answer)
                except SquirrelError as exc:
                    if writes.undo(exc):
                        conn.execute("ROLLBACK TO manual_plan")
                        conn.execute("RELEASE manual_plan")
                    done.append(exc)
                    continue
                if writes.saved:
                    conn.execute("RELEASE manual_plan")
                if screen is not None:
                    for item in own.items:
                        screen.written(item)
                changes.extend(own)
                done.append(result)
            if screen is not None:
                for kind in screened:
                    screen.settle(kind, memory_version(conn, self.project_id, kind))
            return done

        try:
            done = await self._db.write(write)
        except BaseException:
            if screen is not None:
                screen.forget()
            raise
        await self._notify(changes.freeze())
        return done

    def _guarded(
        self,
        conn: sqlite3.Connection,
        writes: PlanWrites,
        step: ManualStep,
        *,
        changes: ChangeSet,
        screen: LookalikeScreen | None,
        screened: set[MemoryType],
    ) -> Any:
        """`_answer`, with the plan's savepoint opened before it when it needs one."""
        if writes.save_before(step):
            conn.execute("SAVEPOINT manual_plan")
        answer = self._answer(conn, step, changes=changes, screen=screen, screened=screened)
        writes.answered(step)
        return answer

    def _answer(
        self,
        conn: sqlite3.Connection,
        step: ManualStep,
        *,
        changes: ChangeSet,
        screen: LookalikeScreen | None,
        screened: set[MemoryType],
    ) -> Any:
        """One step of a plan, answered inside the write transaction."""
        if isinstance(step, FindLookalikes):
            check_limit(step.limit)
            kind = check_type(step.memory_type)
            if screen is not None and kind not in screened:
                version = memory_version(conn, self.project_id, kind)
                if not screen.knows(kind, version) and screen.wants(version[0]):
                    screen.learn(kind, version, screened_texts(conn, self.project_id, kind))
                if screen.knows(kind, version):
                    screened.add(kind)
            if screen is not None and kind in screened and screen.rules_out(step):
                return []
            expression = fts_match_expression(step.content)
            if expression is None:
                return []
            kinds = to_json([str(kind)])
            rows = ranked_rows(conn, self.project_id, expression, kinds, step.limit)
            return [memory_from_row(r[2:]) for r in rows]
        if isinstance(step, FindAnchor):
            return self._anchor(conn, step)
        if isinstance(step, WriteManual):
            checked = checked_manual(step)
            return run_on(
                conn,
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
        return run_on(
            conn,
            supersede_memory(
                step.memory_id, step.by_id, reason=step.reason, now=self._clock(), changes=changes
            ),
        )

    def _anchor(self, conn: sqlite3.Connection, step: FindAnchor) -> Any:
        scope, owner = check_scope(step.scope, step.user_id)
        kind = check_type(step.memory_type)
        return run_on(
            conn,
            anchor_memories(
                self.project_id, memory_type=kind, key=step.key, scope=scope, owner=owner
            ),
        )
