"""How memories change, whatever the backend: decisions resolved, new versions built, listeners.

A backend loads the target of a decision inside its write transaction, asks `MemoryRevisions`
what to do with it (`_resolve`, `_new_item`, `_updated`) and writes the rows; after the commit
it hands the collected `ChangeSet` to `_notify`.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, TypeVar

import structlog

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.host_files import FILE_TAGS
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage.checks import (
    MAX_FILE_PATHS,
    MAX_KEY_CHARS,
    MAX_LINKED_IDS,
    MAX_MEMORY_CHARS,
    MAX_SOURCE_REFS,
    MAX_TAGS,
    check_candidate,
    check_importance,
    check_scope,
    check_strings,
    check_tags,
    check_text,
    check_type,
    check_writer,
)
from squirrel_memory.storage.formats import new_id
from squirrel_memory.storage.values import (
    ManualStep,
    MemoryChange,
    MemoryListener,
    ProcessingResult,
    Supersede,
    WriteManual,
)

log = structlog.get_logger()

T = TypeVar("T")
S = TypeVar("S")


@dataclass
class ChangeSet:
    """Memory changes collected inside one write transaction."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    items: list[MemoryItem] = field(default_factory=list)

    def freeze(self) -> MemoryChange:
        """The ids changed, as handed to listeners."""
        return MemoryChange(tuple(self.added), tuple(self.updated), tuple(self.deleted))

    def extend(self, other: ChangeSet) -> None:
        """Add the changes of `other` (a later write of the same transaction)."""
        self.added.extend(other.added)
        self.updated.extend(other.updated)
        self.deleted.extend(other.deleted)
        self.items.extend(other.items)


def checked_manual(step: WriteManual) -> WriteManual:
    """A `WriteManual` with its values checked as `remember` checks them (key and content
    stripped) and `user_id` the owner its scope gives (None for a project memory)."""
    memory_type = check_type(step.memory_type)
    key = check_text("key", step.key, MAX_KEY_CHARS).strip()
    content = check_text("content", step.content, MAX_MEMORY_CHARS).strip()
    tags = check_tags(step.tags)
    importance = check_importance(step.importance)
    scope, owner = check_scope(step.scope, step.user_id)
    paths = check_strings("file_paths", step.file_paths)
    return WriteManual(
        memory_type,
        key,
        content,
        tags,
        importance,
        scope,
        owner,
        file_paths=paths,
        writer=check_writer(step.user_id),
    )


class PlanWrites:
    """When one plan of a batch needs a savepoint: only when it may write more than once.

    A step that fails writes nothing, so a plan that fails before its first write, or at it,
    leaves nothing to undo; a plan whose first write is its `last` (`WriteManual.last`) cannot
    fail after it. Any other plan gets a savepoint just before its first write. A plan that
    breaks this (writes after its last write, or fails after a write without a savepoint)
    raises `RuntimeError`, which fails the whole batch (its transaction is rolled back).
    """

    def __init__(self) -> None:
        self.wrote = False
        self.saved = False

    def save_before(self, step: ManualStep) -> bool:
        """Whether a savepoint must be opened before answering `step`."""
        if not isinstance(step, WriteManual | Supersede):
            return False
        if self.wrote and not self.saved:
            raise RuntimeError("a manual plan wrote after its last write")
        if self.wrote or (isinstance(step, WriteManual) and step.last):
            return False
        self.saved = True
        return True

    def answered(self, step: ManualStep) -> None:
        """`step` was answered (a write step wrote)."""
        if isinstance(step, WriteManual | Supersede):
            self.wrote = True

    def undo(self, error: BaseException) -> bool:
        """After the plan raised `error`: whether its savepoint is to be rolled back (False:
        it wrote nothing)."""
        if self.wrote and not self.saved:
            raise RuntimeError("a manual plan failed after its last write") from error
        return self.saved


class _Driving(Generic[S, T]):
    """A plan between two steps, for `drive` and `drive_async`: what it is sent next (the
    answer to its step, or the error answering it raised)."""

    __slots__ = ("error", "plan", "reply", "result", "step")

    def __init__(self, plan: Generator[S, Any, T]) -> None:
        self.plan = plan
        self.reply: Any = None
        self.error: Exception | None = None

    def advance(self) -> bool:
        """Send the plan its answer, or raise the error inside it: True with its next `step`,
        False with its `result` (an error the plan does not catch is raised here)."""
        reply, error = self.reply, self.error
        self.reply, self.error = None, None
        try:
            self.step: S = self.plan.send(reply) if error is None else self.plan.throw(error)
        except StopIteration as done:
            self.result: T = done.value
            return False
        return True


def drive(plan: Generator[S, Any, T], answer: Callable[[S], Any]) -> T:
    """Run a plan of steps to its result, each answered by `answer`; an error answering a step
    is raised inside the plan at that step (where the plan may catch it)."""
    driving = _Driving(plan)
    while driving.advance():
        try:
            driving.reply = answer(driving.step)
        except Exception as exc:
            driving.error = exc
    return driving.result


async def drive_async(plan: Generator[S, Any, T], answer: Callable[[S], Awaitable[Any]]) -> T:
    """`drive` with steps answered by a coroutine."""
    driving = _Driving(plan)
    while driving.advance():
        try:
            driving.reply = await answer(driving.step)
        except Exception as exc:
            driving.error = exc
    return driving.result


def merge(old: Iterable[str], new: Iterable[str], cap: int) -> tuple[str, ...]:
    """`old` then `new` without repeats, keeping the last `cap`."""
    merged = list(dict.fromkeys([*old, *new]))
    return tuple(merged[-cap:])


def merged_tags(
    target: MemoryItem, candidate: MemoryCandidate, dropped: Iterable[str] = ()
) -> tuple[str, ...]:
    """The target's tags, then the candidate's, less the `dropped` ones the update decided
    no longer hold. A session that adds to a memory given only from an instruction file its
    host loaded or a session read or wrote (`FILE_TAGS`) without that file (the user confirming
    it, a command run) makes it more than the file: the tags go."""
    gone = set(dropped) - set(candidate.tags)
    if candidate.source_event_ids and FILE_TAGS.isdisjoint(candidate.tags):
        gone.update(FILE_TAGS)
    kept = [tag for tag in target.tags if tag not in gone]
    return merge(kept, check_tags(candidate.tags), MAX_TAGS)


def _ref_origin(ref: str) -> str:
    """`mix.exs` for `mix.exs:3`, `commit` for `commit:<sha>`: what a reference points into."""
    return ref.rsplit(":", 1)[0] if ":" in ref else ref


def merge_source_refs(old: Iterable[str], new: Sequence[str]) -> tuple[str, ...]:
    """The new references first; old `path:line` ones only when the new reading has none.

    A fact read again from the repository replaces the previous reading's lines (`mix.exs:3`
    becomes `mix.exs:5`, a file that no longer says it drops out); `commit:<sha>` references
    accumulate, newest first.
    """
    reread = any(_ref_origin(ref) != "commit" for ref in new)
    kept = [ref for ref in old if not reread or _ref_origin(ref) == "commit"]
    return tuple(dict.fromkeys([*new, *kept]))[:MAX_SOURCE_REFS]


def revise(old: MemoryItem, *, now: datetime, **changes: Any) -> MemoryItem:
    """The next version of `old` with `changes` applied."""
    return dataclasses.replace(old, **changes, updated_at=now, version=old.version + 1)


def corrected(
    old: MemoryItem, content: str | None, importance: float | None, now: datetime
) -> MemoryItem | None:
    """A manual correction of `old` (`None` keeps a field): its next version, written by
    `manual` and live again; None when `old` is a live manual memory that already says so."""
    new_content = old.content if content is None else content
    new_importance = old.importance if importance is None else importance
    if (
        not old.deleted
        and old.source is MemorySource.MANUAL
        and (old.content, old.importance) == (new_content, new_importance)
    ):
        return None
    return revise(
        old,
        now=now,
        content=new_content,
        importance=new_importance,
        source=MemorySource.MANUAL,
        written_by=str(MemorySource.MANUAL),
        deleted=False,
        superseded_by=None,
    )


def joined_writers(writers: tuple[str, ...], writer: str | None) -> tuple[str, ...]:
    """`writers` with `writer` last when it is not among them yet (each user once)."""
    if writer is None or writer in writers:
        return writers
    return (*writers, writer)


def with_writer(item: MemoryItem) -> MemoryItem:
    """`item`, naming its source as its writer when no writer is set."""
    return item if item.written_by else dataclasses.replace(item, written_by=str(item.source))


class MemoryRevisions:
    """The backend-neutral half of a `MemoryBook`: decision rules and change listeners."""

    project_id: str
    _listeners: list[MemoryListener]

    def add_listener(self, listener: MemoryListener) -> None:
        """Call `listener(change)` after every committed write that changed memories."""
        self._listeners.append(listener)

    def remove_listener(self, listener: MemoryListener) -> None:
        """Stop calling `listener`."""
        self._listeners.remove(listener)

    async def _notify(self, change: MemoryChange) -> None:
        if not change:
            return
        for listener in list(self._listeners):
            try:
                result = listener(change)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("memory_listener_failed", project_id=self.project_id)

    async def _processed(
        self, episodes: Sequence[Episode], changes: ChangeSet, processed: int
    ) -> ProcessingResult:
        """After a processing result committed: log it, tell the listeners, say what changed."""
        change = changes.freeze()
        log.info(
            "processing_result_applied",
            project_id=self.project_id,
            episodes=len(episodes),
            added=len(change.added),
            updated=len(change.updated),
            deleted=len(change.deleted),
            processed=processed,
        )
        await self._notify(change)
        return ProcessingResult(
            tuple(ep.id for ep in episodes), tuple(changes.items), change, processed
        )

    def _check_decision(self, decision: UpdateDecision, user_id: str | None) -> None:
        if not isinstance(decision, UpdateDecision):
            raise InvalidArgumentError("decisions must be UpdateDecision values")
        try:
            action = UpdateAction(decision.action)
        except ValueError as exc:
            raise InvalidArgumentError("unknown update action") from exc
        candidate = check_candidate(decision.candidate)
        check_scope(candidate.scope, user_id)
        if action in (UpdateAction.UPDATE_EXISTING, UpdateAction.DELETE_AND_ADD) and not (
            decision.target_id
        ):
            raise InvalidArgumentError(f"{action} needs a target_id")
        if decision.merged_content is not None:
            check_text("merged_content", decision.merged_content, MAX_MEMORY_CHARS)

    def _resolve(
        self, decision: UpdateDecision, target: MemoryItem | None, source: MemorySource
    ) -> UpdateAction | None:
        """What a decision does to its (loaded) target; None when nothing is written.

        Manual memories are never changed by extraction: UPDATE_EXISTING on a manual memory
        becomes NOOP (the user's wording stands) and DELETE_AND_ADD on one becomes ADD_NEW (the
        manual memory stays, the new finding is kept beside it). A target that is missing or
        already deleted turns the decision into ADD_NEW.
        """
        action = UpdateAction(decision.action)
        if action is UpdateAction.NOOP:
            return None
        if action is not UpdateAction.ADD_NEW and (
            target is None or target.deleted or target.project_id != self.project_id
        ):
            log.warning("memory_decision_retargeted", action=str(action), to="ADD_NEW")
            return UpdateAction.ADD_NEW
        if target is not None and MemorySource.MANUAL == target.source != source:
            if action is UpdateAction.UPDATE_EXISTING:
                log.info("manual_memory_kept", memory_id=target.id)
                return None
            if action is UpdateAction.DELETE_AND_ADD:
                return UpdateAction.ADD_NEW
        return action

    def _new_item(
        self,
        candidate: MemoryCandidate,
        content: str,
        user_id: str | None,
        source: MemorySource,
        now: datetime,
    ) -> MemoryItem:
        scope, owner = check_scope(candidate.scope, user_id)
        return MemoryItem(
            id=new_id("mem"),
            project_id=self.project_id,
            user_id=owner,
            scope=scope,
            type=MemoryType(candidate.type),
            key=candidate.key,
            content=content,
            tags=check_tags(candidate.tags),
            importance=float(candidate.importance),
            created_at=now,
            updated_at=now,
            source=source,
            file_paths=tuple(dict.fromkeys(candidate.file_paths)),
            source_episode_id=candidate.source_episode_id,
            source_event_ids=merge((), candidate.source_event_ids, MAX_LINKED_IDS),
            source_refs=tuple(dict.fromkeys(candidate.source_refs))[:MAX_SOURCE_REFS],
            written_by=candidate.written_by or str(source),
        )

    @staticmethod
    def _updated(
        target: MemoryItem,
        candidate: MemoryCandidate,
        content: str,
        source: MemorySource,
        now: datetime,
        *,
        dropped_tags: tuple[str, ...] = (),
    ) -> MemoryItem:
        """UPDATE_EXISTING: the target's next version with the candidate merged in, less the
        tags the decision dropped."""
        return revise(
            target,
            now=now,
            content=content,
            tags=merged_tags(target, candidate, dropped_tags),
            importance=max(target.importance, float(candidate.importance)),
            source=source,
            file_paths=merge(target.file_paths, candidate.file_paths, MAX_FILE_PATHS),
            source_episode_id=candidate.source_episode_id or target.source_episode_id,
            source_event_ids=merge(
                target.source_event_ids, candidate.source_event_ids, MAX_LINKED_IDS
            ),
            source_refs=merge_source_refs(target.source_refs, candidate.source_refs),
            written_by=candidate.written_by or str(source),
        )
