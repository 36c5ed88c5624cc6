"""Manual plans run many at once, written once for both backends: one transaction, a savepoint
for each plan that writes more than once, a lookalike screen learnt and kept in step.

`batch` is a plan of steps like `memory_book`'s: the row steps of the memory book (with the
read plans of a type's version and texts for the screen, `memory_reads`), and the two a batch
adds (a savepoint's statements, and a lookalike search, which each backend answers its own
way on its connection: `sqlite/manual_batch.py`, `postgres/manual_batch.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypeVar

from squirrel_core.errors import SquirrelError
from squirrel_memory.models import MemoryType
from squirrel_memory.storage.base import LookalikeScreen, ManualPlan
from squirrel_memory.storage.checks import (
    Clock,
    check_limit,
    check_project,
    check_scope,
    check_type,
)
from squirrel_memory.storage.dialect import Dialect
from squirrel_memory.storage.memory_plans import (
    RowStep,
    anchor_memories,
    supersede_memory,
    write_manual,
)
from squirrel_memory.storage.memory_reads import kind_version, screened_texts
from squirrel_memory.storage.queries import Write, WritePlan
from squirrel_memory.storage.revisions import ChangeSet, MemoryRevisions, PlanWrites, checked_manual
from squirrel_memory.storage.values import FindAnchor, FindLookalikes, ManualStep, WriteManual

T = TypeVar("T")

SAVEPOINT_SQL = {
    "open": ("SAVEPOINT manual_plan",),
    "release": ("RELEASE SAVEPOINT manual_plan",),
    "undo": ("ROLLBACK TO SAVEPOINT manual_plan", "RELEASE SAVEPOINT manual_plan"),
}
"""What opening a plan's savepoint, releasing it and rolling back to it (and releasing it)
run; both databases read these words alike."""


def _savepoint(action: Literal["open", "release", "undo"]) -> WritePlan[None]:
    for statement in SAVEPOINT_SQL[action]:
        yield Write(statement)


@dataclass(frozen=True, slots=True)
class Lookalikes:
    """Live memories of one type whose text is most like `content`, best first."""

    content: str
    memory_type: MemoryType
    limit: int


BatchStep: TypeAlias = RowStep | Lookalikes
BatchPlan: TypeAlias = Generator[BatchStep, Any, T]


def answer_manual(
    d: Dialect,
    project_id: str,
    clock: Clock,
    step: ManualStep,
    *,
    changes: ChangeSet,
    screen: LookalikeScreen | None,
    screened: set[MemoryType],
) -> BatchPlan[Any]:
    """One step of a manual plan, answered inside the batch's transaction."""
    if isinstance(step, FindLookalikes):
        check_limit(step.limit)
        kind = check_type(step.memory_type)
        if screen is not None and kind not in screened:
            version = yield from kind_version(d, project_id, kind)
            if not screen.knows(kind, version) and screen.wants(version[0]):
                screen.learn(kind, version, (yield from screened_texts(d, project_id, kind)))
            if screen.knows(kind, version):
                screened.add(kind)
        if screen is not None and kind in screened and screen.rules_out(step):
            return []
        return (yield Lookalikes(step.content, kind, step.limit))
    if isinstance(step, FindAnchor):
        scope, owner = check_scope(step.scope, step.user_id)
        kind = check_type(step.memory_type)
        return (
            yield from anchor_memories(
                project_id, memory_type=kind, key=step.key, scope=scope, owner=owner
            )
        )
    if isinstance(step, WriteManual):
        checked = checked_manual(step)
        return (
            yield from write_manual(
                project_id,
                memory_type=checked.memory_type,
                key=checked.key,
                content=checked.content,
                tags=checked.tags,
                importance=checked.importance,
                scope=checked.scope,
                owner=checked.user_id,
                now=clock(),
                changes=changes,
                file_paths=checked.file_paths,
                writer=checked.writer,
            )
        )
    return (
        yield from supersede_memory(
            step.memory_id, step.by_id, reason=step.reason, now=clock(), changes=changes
        )
    )


def _run_manual(
    d: Dialect,
    project_id: str,
    clock: Clock,
    plan: ManualPlan[T],
    writes: PlanWrites,
    *,
    changes: ChangeSet,
    screen: LookalikeScreen | None,
    screened: set[MemoryType],
) -> BatchPlan[T]:
    """One manual plan, its savepoint opened before the step that needs it."""
    reply: Any = None
    while True:
        try:
            step = plan.send(reply)
        except StopIteration as done:
            result: T = done.value
            return result
        if writes.save_before(step):
            yield from _savepoint("open")
        reply = yield from answer_manual(
            d, project_id, clock, step, changes=changes, screen=screen, screened=screened
        )
        writes.answered(step)


def batch(
    d: Dialect,
    project_id: str,
    clock: Clock,
    plans: Sequence[ManualPlan[T]],
    *,
    screen: LookalikeScreen | None,
    changes: ChangeSet,
    plan_changed: Callable[[ChangeSet], None],
) -> BatchPlan[list[T | SquirrelError]]:
    """`plans` in order; a plan that may write more than once runs under a savepoint from its
    first write, rolled back when it raises a `SquirrelError` (a step that fails writes
    nothing, so a plan whose only write is its `last` needs none). `plan_changed` hears each
    plan's own changes as it ends."""
    done: list[T | SquirrelError] = []
    screened: set[MemoryType] = set()
    for plan in plans:
        own = ChangeSet()
        writes = PlanWrites()
        try:
            result = yield from _run_manual(
                d, project_id, clock, plan, writes, changes=own, screen=screen, screened=screened
            )
        except SquirrelError as exc:
            if writes.undo(exc):
                yield from _savepoint("undo")
            done.append(exc)
            continue
        if writes.saved:
            yield from _savepoint("release")
        if screen is not None:
            for item in own.items:
                screen.written(item)
        plan_changed(own)
        changes.extend(own)
        done.append(result)
    if screen is not None:
        for kind in screened:
            screen.settle(kind, (yield from kind_version(d, project_id, kind)))
    return done


class SharedManualBatch(MemoryRevisions):
    """`remember_batch`; a backend runs the batch's steps in one write transaction."""

    project_id: str
    _clock: Clock
    _dialect: Dialect

    async def _write_batch(self, plan: BatchPlan[T]) -> T:
        raise NotImplementedError

    def _plan_changed(self, changes: ChangeSet) -> None:
        """Told each plan's own changes inside the transaction (nothing by default)."""

    async def _batch_notify(self, changes: ChangeSet) -> None:
        await self._notify(changes.freeze())

    async def remember_batch(
        self,
        project_id: str,
        plans: Sequence[ManualPlan[T]],
        screen: LookalikeScreen | None = None,
    ) -> list[T | SquirrelError]:
        """Run `plans` in order inside ONE write transaction (see `MemoryBook` and `batch`)."""
        check_project(self.project_id, project_id)
        changes = ChangeSet()
        plan = batch(
            self._dialect,
            self.project_id,
            self._clock,
            plans,
            screen=screen,
            changes=changes,
            plan_changed=self._plan_changed,
        )
        try:
            done = await self._write_batch(plan)
        except BaseException:
            if screen is not None:
                screen.forget()
            raise
        await self._batch_notify(changes)
        return done
