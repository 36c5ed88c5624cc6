"""Manual memory: what `remember` does with a statement (added, updated or merged), by one rule.

- A key the caller names is an anchor: the manual memory on it is updated (previous version in
  its history), or added when there is none.
- Without a key, the statement is first compared with the memories of its type and scope. The
  *same memory* rule: no contradiction (a negation flip, or a different value of the same kind),
  and either token-set Jaccard >= 0.8, or edit ratio >= 0.9 with the words of one statement all
  in the other (`updates.NEAR_DUPLICATE_*`). The word condition keeps "... please: alpha" and
  "... please: bravo" apart although their edit ratio is high. A manual memory that is the same
  takes the new wording; otherwise a new memory is added under a key derived from the content,
  made unique when another memory already holds it, so nothing is overwritten by accident.
- The statement's files (`file_paths`, project-relative) are added to those the memory already
  names, as an extracted memory's are when it is updated.
- Extracted memories that are the same as the manual one are superseded by it (marked deleted,
  history kept): the manual wording is kept. Extraction, in turn, never re-adds a statement that
  is the same as a manual memory (see `manual_lookalikes`).

The rule is a plan of store steps (`remember_plan`): `remember` runs it over the store's public
methods, one write each; `remember_many` runs a call's plans inside one store transaction
(`Store.remember_batch`), where `WordScreen` lets the store skip look-alike searches that cannot
find anything the rule would keep.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from squirrel_core.errors import SquirrelError
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, RememberOutcome, Scope
from squirrel_memory.storage import Store
from squirrel_memory.storage.base import ManualPlan
from squirrel_memory.storage.checks import check_scope
from squirrel_memory.storage.revisions import drive_async
from squirrel_memory.storage.values import (
    FindAnchor,
    FindLookalikes,
    ManualStep,
    Supersede,
    WriteManual,
)
from squirrel_memory.updates import (
    similarity,
)
from squirrel_memory.user_memories.same_memory import WordScreen, same_memory

#: How many lexical matches are compared with a new statement.
LOOKALIKE_LIMIT = 20
#: Suffixes tried to make a derived key unique before a longer one is used.
MAX_KEY_SUFFIX = 50
SLUG_WORDS = 6
#: The longest default key (the store takes keys of up to 512 characters, suffixes included).
SLUG_CHARS = 64
#: Calls of at least this many statements read the words of the memories of their types
#: (`WordScreen`) when the store's screen does not know them; smaller calls use the screen
#: only while it is current, and otherwise search for look-alikes of every statement.
SCREEN_FROM = 8


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement to remember, checked and redacted by the caller."""

    user_id: str
    memory_type: MemoryType
    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    scope: Scope
    #: Project-relative paths the statement holds for (the memory's files).
    file_paths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Remembered:
    """The memory that now holds the statement, what was done, and what it was merged with."""

    memory: MemoryItem
    outcome: RememberOutcome
    merged_ids: tuple[str, ...] = ()


#: The word screen of each open store, kept between calls (see `WordScreen`).
_screens: weakref.WeakKeyDictionary[Store, WordScreen] = weakref.WeakKeyDictionary()


def slug(text: str) -> str:
    """The default key: the first six words of the statement, lower-cased, joined by `_`, at
    most `SLUG_CHARS` characters (a pasted digest or URL is one very long word)."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "_".join(words[:SLUG_WORDS])[:SLUG_CHARS].strip("_") or "note"


def _alike(
    found: Sequence[MemoryItem],
    *,
    scope: Scope,
    owner: str | None,
    content: str,
    source: MemorySource | None,
) -> list[MemoryItem]:
    """The live memories of `found` in this scope (and `source`, when given) that are the same
    memory as `content`, in the order found."""
    return [
        m
        for m in found
        if not m.deleted
        and m.scope is scope
        and m.user_id == owner
        and (source is None or m.source is source)
        and same_memory(content, m.content)
    ]


def _most_alike(content: str, alike: Sequence[MemoryItem]) -> list[MemoryItem]:
    """`alike`, most alike `content` first (the edit ratio is quadratic: only for two or more)."""
    if len(alike) < 2:
        return list(alike)
    return sorted(alike, key=lambda m: (-similarity(content, m.content).score, m.id))


async def lookalikes(
    store: Store,
    project_id: str,
    *,
    memory_type: MemoryType,
    scope: Scope,
    user_id: str | None,
    content: str,
    source: MemorySource | None = None,
) -> list[MemoryItem]:
    """Live memories of this type and scope (and `source`, when given) that are the same memory
    as `content`, most alike first."""
    _, owner = check_scope(scope, user_id)
    found = await _found(store, project_id, FindLookalikes(memory_type, content, LOOKALIKE_LIMIT))
    alike = _alike(found, scope=scope, owner=owner, content=content, source=source)
    return _most_alike(content, alike)


async def manual_lookalikes(
    store: Store,
    project_id: str,
    *,
    memory_type: MemoryType,
    scope: Scope,
    user_id: str | None,
    content: str,
) -> list[MemoryItem]:
    """The manual memories an extracted candidate must not duplicate (under any key); the
    similarity test, the costly part, runs on manual memories only."""
    return await lookalikes(
        store,
        project_id,
        memory_type=memory_type,
        scope=scope,
        user_id=user_id,
        content=content,
        source=MemorySource.MANUAL,
    )


async def _found(store: Store, project_id: str, step: FindLookalikes) -> list[MemoryItem]:
    kinds = [step.memory_type]
    hits = await store.search_fts(project_id, step.content, types=kinds, limit=step.limit)
    if not hits:
        return []
    return await store.get_memories([memory_id for memory_id, _ in hits])


def remember_plan(statement: Statement) -> ManualPlan[Remembered]:
    """Adds, updates or merges a manual memory (see the module docstring), as steps: run by
    `remember` over the store's public methods, or by `Store.remember_batch` inside one
    transaction with the statements around it."""
    s = statement
    named = s.key.strip()
    _, owner = check_scope(s.scope, s.user_id)
    # Under a named key only the extracted look-alikes are kept (superseded).
    found: list[MemoryItem] = yield FindLookalikes(
        s.memory_type, s.content, LOOKALIKE_LIMIT, manual=not named
    )
    alike = _alike(found, scope=s.scope, owner=owner, content=s.content, source=None)
    # Only the order of the extracted look-alikes matters when a key is named (they are
    # superseded in it), and only the most alike manual one otherwise: each is sorted apart.
    extracted = _most_alike(s.content, [m for m in alike if m.source is not MemorySource.MANUAL])
    if named:
        on_key: list[MemoryItem] = yield FindAnchor(s.memory_type, named, s.scope, s.user_id)
        anchor, before = named, [m for m in on_key if m.source is MemorySource.MANUAL]
    else:
        manual = _most_alike(s.content, [m for m in alike if m.source is MemorySource.MANUAL])
        if manual:
            anchor, before = manual[0].key, [manual[0]]
        else:
            anchor = yield from _free_key(
                slug(s.content), memory_type=s.memory_type, scope=s.scope, user=s.user_id
            )
            before = []
    item: MemoryItem = yield WriteManual(
        s.memory_type,
        anchor,
        s.content,
        tuple(s.tags),
        s.importance,
        s.scope,
        s.user_id,
        last=not extracted,
        file_paths=s.file_paths,
    )
    previous = {m.id: _said(m) for m in before}
    if item.id in previous:
        # One more writer of the same words is a new version, not a change of what it says.
        changed = _said(item) != previous[item.id]
        outcome = RememberOutcome.UPDATED if changed else RememberOutcome.UNCHANGED
    else:
        outcome = RememberOutcome.ADDED
    superseded: list[str] = []
    for other in extracted:
        if other.id != item.id:
            yield Supersede(other.id, item.id, "the same as a manual memory")
            superseded.append(other.id)
    if named:
        merged = superseded
        if superseded and outcome is RememberOutcome.ADDED:
            outcome = RememberOutcome.MERGED
    elif outcome is RememberOutcome.UNCHANGED and not superseded:
        # The statement is its manual memory already: nothing was merged, nothing changed.
        merged = []
    else:
        merged = ([item.id] if item.id in previous else []) + superseded
        if superseded or outcome is RememberOutcome.UPDATED:
            outcome = RememberOutcome.MERGED
    return Remembered(item, outcome, tuple(merged))


def _said(memory: MemoryItem) -> tuple[object, ...]:
    """What a manual memory says: its words, tags, importance and files (not who said it)."""
    return (memory.content, memory.tags, memory.importance, memory.file_paths)


def _free_key(
    base: str, *, memory_type: MemoryType, scope: Scope, user: str
) -> Generator[ManualStep, Any, str]:
    """`base`, or `base_2`, `base_3`, ... : the first key no live memory of this kind holds."""
    for n in range(1, MAX_KEY_SUFFIX + 1):
        key = base if n == 1 else f"{base}_{n}"
        taken: list[MemoryItem] = yield FindAnchor(memory_type, key, scope, user)
        if not taken:
            return key
    return f"{base}_{len(base)}_{MAX_KEY_SUFFIX + 1}"


async def _answer(store: Store, project_id: str, step: ManualStep) -> Any:
    """One step of a plan, answered by the store's public methods (one write each)."""
    if isinstance(step, FindLookalikes):
        return await _found(store, project_id, step)
    if isinstance(step, FindAnchor):
        return await store.find_anchor(
            project_id, step.memory_type, step.key, step.scope, step.user_id
        )
    if isinstance(step, WriteManual):
        return await store.remember(
            project_id,
            type=step.memory_type,
            key=step.key,
            content=step.content,
            tags=list(step.tags),
            importance=step.importance,
            scope=step.scope,
            user_id=step.user_id,
            file_paths=step.file_paths,
        )
    return await store.supersede(step.memory_id, step.by_id, step.reason)


async def remember(
    store: Store,
    project_id: str,
    *,
    user_id: str,
    memory_type: MemoryType,
    key: str,
    content: str,
    tags: Sequence[str],
    importance: float,
    scope: Scope,
    file_paths: Sequence[str] = (),
) -> Remembered:
    """Adds, updates or merges a manual memory (see the module docstring), one store call at a
    time (each write its own transaction); `remember_many` writes many in one."""
    plan = remember_plan(
        Statement(
            user_id, memory_type, key, content, tuple(tags), importance, scope, tuple(file_paths)
        )
    )
    return await drive_async(plan, lambda step: _answer(store, project_id, step))


async def remember_many(
    store: Store, project_id: str, statements: Sequence[Statement]
) -> list[Remembered | SquirrelError]:
    """`remember` for each statement in order, in one write transaction (each sees the ones
    before it); a statement the store refuses gets its error in its slot, leaves nothing
    written, and the others are still written."""
    plans = [remember_plan(s) for s in statements]
    screen = _screens.get(store)
    if screen is None:
        screen = _screens[store] = WordScreen()
    screen.learning = len(statements) >= SCREEN_FROM
    return await store.remember_batch(project_id, plans, screen)


__all__ = [
    "RememberOutcome",
    "Remembered",
    "Statement",
    "WordScreen",
    "lookalikes",
    "manual_lookalikes",
    "remember",
    "remember_many",
    "remember_plan",
    "same_memory",
    "slug",
]
