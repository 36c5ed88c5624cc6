"""Stored events given the dedup hash of today's rule, and the events that are then one merged.

When the dedup hash changes (`squirrel_memory.dedup`), every stored event is hashed again. Two
rows of one author in one project that now share a hash are one event stored twice (the same
record read by two versions that typed it differently): the first stored is kept, the others
are merged into it. Whatever named a merged event names the kept one instead (a memory's and a
memory version's source events, an episode's events, a parked episode's events), and the kept
event counts as processed if any of them was, so its memories are not made again. The backends
run this in their schema migrations (SQLite's version 13, Postgres's 9, in batches); the choice
of what to keep, the repointing of a list of ids and the hash of a stored row (read in either
dialect's types) live here, once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from squirrel_memory.dedup import HashedFields, event_hash
from squirrel_memory.storage.dialect import Dialect

Key = tuple[str, str, str]
"""(project id, author, dedup hash): the events one author stored once in a project."""


HASHED_COLUMNS = (
    "project_id, source_tool, session_id, timestamp, event_type, content_json, file_paths"
)
"""The columns of a stored event its dedup hash is made of, in the order `hash_of_row` reads."""


def hash_of_row(d: Dialect, row: Sequence[Any]) -> str | None:
    """The dedup hash by today's rule of a stored event read as `HASHED_COLUMNS` (in `d`'s
    types); None when its content cannot be read (it then keeps the hash it has)."""
    project_id, source_tool, session_id, timestamp, event_type, content_json, file_paths = row
    try:
        content = json.loads(content_json)
    except ValueError:
        return None
    if not isinstance(content, dict):
        return None
    fields = HashedFields(
        source_tool=source_tool,
        event_type=event_type,
        session_id=session_id,
        timestamp=d.load_time(timestamp),
        file_paths=tuple(d.load_list(file_paths)),
        content=content,
    )
    try:
        return event_hash(project_id, fields)
    except (TypeError, ValueError, RecursionError):
        return None


@dataclass(frozen=True, slots=True)
class Rehashed:
    """One stored event with its hash by today's rule."""

    id: str
    order: int
    """Its place in storing order (SQLite's rowid, Postgres's `seq`): the first stored is kept."""
    key: Key
    processed_at: Any
    """As the backend stores it; None while the event waits for processing."""


@dataclass
class Merges:
    """What a rehash merges: each merged event's id → the kept event's id, and the kept events
    that take a processing time from an event merged into them."""

    into: dict[str, str] = field(default_factory=dict)
    processed: dict[str, Any] = field(default_factory=dict)


def plan_merges(events: Iterable[Rehashed]) -> Merges:
    """Keep the first stored of each key's events; merge the others into it."""
    groups: dict[Key, list[Rehashed]] = {}
    for event in events:
        groups.setdefault(event.key, []).append(event)
    merges = Merges()
    for group in groups.values():
        if len(group) < 2:
            continue
        kept, *others = sorted(group, key=lambda e: e.order)
        for other in others:
            merges.into[other.id] = kept.id
        if kept.processed_at is None:
            times = [o.processed_at for o in others if o.processed_at is not None]
            if times:
                merges.processed[kept.id] = min(times)
    return merges


def repointed(ids: Sequence[str], into: Mapping[str, str]) -> list[str] | None:
    """`ids` with each merged event named by the event kept for it, each id once, in the order
    first named; None when no id of `ids` was merged."""
    if not any(i in into for i in ids):
        return None
    return list(dict.fromkeys(into.get(i, i) for i in ids))
