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
- Extracted memories that are the same as the manual one are superseded by it (marked deleted,
  history kept): the manual wording is kept. Extraction, in turn, never re-adds a statement that
  is the same as a manual memory (see `manual_lookalikes`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass

from squirrel_core.errors import SquirrelError
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, RememberOutcome, Scope
from squirrel_memory.storage import Store
from squirrel_memory.storage.checks import check_scope
from squirrel_memory.updates import (
    NEAR_DUPLICATE_JACCARD,
    NEAR_DUPLICATE_RATIO,
    content_words,
    contradicts,
    edit_ratio_reaches,
    jaccard,
    similarity,
)

#: How many lexical matches are compared with a new statement.
LOOKALIKE_LIMIT = 20
#: Suffixes tried to make a derived key unique before a longer one is used.
MAX_KEY_SUFFIX = 50
SLUG_WORDS = 6


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


@dataclass(frozen=True, slots=True)
class Remembered:
    """The memory that now holds the statement, what was done, and what it was merged with."""

    memory: MemoryItem
    outcome: RememberOutcome
    merged_ids: tuple[str, ...] = ()


def same_memory(statement: str, existing: str) -> bool:
    """The same-memory rule (see the module docstring)."""
    if round(jaccard(statement, existing), 4) < NEAR_DUPLICATE_JACCARD:
        # Both conditions must hold; the word test is linear, the edit ratio is not.
        left, right = content_words(statement), content_words(existing)
        if not (left <= right or right <= left):
            return False
        if not edit_ratio_reaches(statement, existing, NEAR_DUPLICATE_RATIO):
            return False
    return not contradicts(statement, existing)


def slug(text: str) -> str:
    """The default key: the first six words of the statement, lower-cased, joined by `_`."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "_".join(words[:SLUG_WORDS]) or "note"


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
    hits = await store.search_fts(project_id, content, types=[memory_type], limit=LOOKALIKE_LIMIT)
    if not hits:
        return []
    found = [
        m
        for m in await store.get_memories([memory_id for memory_id, _ in hits])
        if not m.deleted
        and m.scope is scope
        and m.user_id == owner
        and (source is None or m.source is source)
    ]
    alike = [m for m in found if same_memory(content, m.content)]
    if len(alike) < 2:
        return alike
    return sorted(alike, key=lambda m: (-similarity(content, m.content).score, m.id))


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


async def _free_key(
    store: Store, project_id: str, base: str, *, memory_type: MemoryType, scope: Scope, user: str
) -> str:
    """`base`, or `base_2`, `base_3`, ... : the first key no live memory of this kind holds."""
    for n in range(1, MAX_KEY_SUFFIX + 1):
        key = base if n == 1 else f"{base}_{n}"
        if not await store.find_anchor(project_id, memory_type, key, scope, user):
            return key
    return f"{base}_{len(base)}_{MAX_KEY_SUFFIX + 1}"


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
) -> Remembered:
    """Adds, updates or merges a manual memory (see the module docstring)."""
    named = key.strip()
    similar = lookalikes(
        store, project_id, memory_type=memory_type, scope=scope, user_id=user_id, content=content
    )
    if named:
        # Two independent reads: the store's readers answer them side by side.
        alike, on_key = await asyncio.gather(
            similar, store.find_anchor(project_id, memory_type, named, scope, user_id)
        )
        anchor, before = named, [m for m in on_key if m.source is MemorySource.MANUAL]
    else:
        alike = await similar
        manual = [m for m in alike if m.source is MemorySource.MANUAL]
        if manual:
            anchor, before = manual[0].key, [manual[0]]
        else:
            base = slug(content)
            anchor = await _free_key(
                store, project_id, base, memory_type=memory_type, scope=scope, user=user_id
            )
            before = []
    item = await store.remember(
        project_id,
        type=memory_type,
        key=anchor,
        content=content,
        tags=list(tags),
        importance=importance,
        scope=scope,
        user_id=user_id,
    )
    previous = {m.id: m.version for m in before}
    if item.id in previous:
        changed = item.version != previous[item.id]
        outcome = RememberOutcome.UPDATED if changed else RememberOutcome.UNCHANGED
    else:
        outcome = RememberOutcome.ADDED
    superseded: list[str] = []
    for other in alike:
        if other.source is not MemorySource.MANUAL and other.id != item.id:
            await store.supersede(other.id, item.id, "the same as a manual memory")
            superseded.append(other.id)
    if named:
        merged = superseded
        if superseded and outcome is RememberOutcome.ADDED:
            outcome = RememberOutcome.MERGED
    else:
        merged = ([item.id] if item.id in previous else []) + superseded
        if superseded or outcome is RememberOutcome.UPDATED:
            outcome = RememberOutcome.MERGED
    return Remembered(item, outcome, tuple(merged))


async def remember_many(
    store: Store, project_id: str, statements: Sequence[Statement]
) -> list[Remembered | SquirrelError]:
    """`remember` for each statement in order (each sees the ones before it); a statement the
    store refuses gets its error in its slot and the others are still written."""
    done: list[Remembered | SquirrelError] = []
    for s in statements:
        try:
            done.append(
                await remember(
                    store,
                    project_id,
                    user_id=s.user_id,
                    memory_type=s.memory_type,
                    key=s.key,
                    content=s.content,
                    tags=s.tags,
                    importance=s.importance,
                    scope=s.scope,
                )
            )
        except SquirrelError as exc:
            done.append(exc)
    return done


__all__ = [
    "RememberOutcome",
    "Remembered",
    "Statement",
    "lookalikes",
    "manual_lookalikes",
    "remember",
    "remember_many",
    "same_memory",
    "slug",
]
