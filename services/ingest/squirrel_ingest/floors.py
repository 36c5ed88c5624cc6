"""Each project's delivered position per source file (its floor), and what follows from it."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Collection, Iterable

from squirrel_core.events import Event, SourceCursor, SourceTool
from squirrel_ingest.batcher import Delivery
from squirrel_ingest.reading import DOCUMENT_KEY
from squirrel_ingest.tail import FilePosition

Floors = dict[str, dict[str, SourceCursor]]
"""Per project id, its cursor per source file key: where it has received events up to."""

GIT_SHA_KEY = "sha"
"""The commit a project's git cursor has delivered up to, kept in the cursor."""
DELIVERED_KEY = "delivered"
"""How many events of a file a project has received in all, kept in the file's cursor."""


def delivered_count(cursor: SourceCursor | None) -> int:
    """The events a cursor says its project holds (a number that travelled as a float too)."""
    count = cursor.extra.get(DELIVERED_KEY) if cursor is not None else None
    if isinstance(count, int | float) and not isinstance(count, bool) and 0 <= count < 2**53:
        return int(count)
    return 0


def counted(
    floors: Floors, uncounted: Counter[tuple[str, str]], delivery: Delivery
) -> tuple[list[SourceCursor], Counter[tuple[str, str]]]:
    """The delivery's cursors, each carrying how many events of its file the project has
    received in all (so `status` counts deliveries of earlier runs too), and the counts of
    events delivered here whose cursor comes with a later delivery."""
    project = delivery.project_id
    here = Counter(e.position.path for e in delivery.events if e.position is not None)
    uncounted = uncounted.copy()
    cursors: list[SourceCursor] = []
    for cursor in delivery.cursors:
        floor = floors.get(project, {}).get(cursor.path)
        same_file = floor is not None and (
            floor.inode == cursor.inode or cursor.source_tool is SourceTool.CURSOR
        )
        total = (delivered_count(floor) if same_file else 0) + here.pop(cursor.path, 0)
        total += uncounted.pop((project, cursor.path), 0)
        extra = {**cursor.extra, DELIVERED_KEY: total}
        cursors.append(dataclasses.replace(cursor, extra=extra))
    for path, count in here.items():
        uncounted[(project, path)] += count
    return cursors, uncounted


def delivered_by_cursors(floors: Floors, project_ids: Iterable[str]) -> Counter[SourceTool]:
    """Events delivered in all, per source, as the registered projects' cursors count them."""
    total: Counter[SourceTool] = Counter()
    for project in project_ids:
        for cursor in floors.get(project, {}).values():
            total[cursor.source_tool] += delivered_count(cursor)
    return total


def advances(floors: Floors, project_id: str, cursor: SourceCursor) -> bool:
    """Whether `cursor` moves the project past what it already holds of its file."""
    floor = floors.get(project_id, {}).get(cursor.path)
    if floor is None or floor.inode != cursor.inode or cursor.offset > floor.offset:
        return True
    kept = {k: v for k, v in floor.extra.items() if k != DELIVERED_KEY}
    if cursor.extra.get(DOCUMENT_KEY) or cursor.source_tool is SourceTool.GIT:
        return (cursor.offset, cursor.extra) != (floor.offset, kept)
    if cursor.source_tool is SourceTool.CURSOR:  # a chat's cursor names its last bubbles
        return cursor.offset == floor.offset and cursor.extra != kept
    return False


def wanted(floors: Floors, project_id: str, event: Event) -> bool:
    """Whether the project has yet to receive `event` (past its cursor for the file)."""
    position = event.position
    if position is None:
        return True
    floor = floors.get(project_id, {}).get(position.path)
    if floor is None or floor.inode != position.inode or floor.extra.get(DOCUMENT_KEY):
        return True
    return position.end_offset > floor.offset


def cursor_floors(floors: Floors, project_ids: Iterable[str]) -> dict[str, SourceCursor | None]:
    """Per chat, the lowest cursor of every registered project (None if one has none)."""
    projects = sorted(project_ids)
    keys = {
        key
        for project in projects
        for key, cursor in floors.get(project, {}).items()
        if cursor.source_tool is SourceTool.CURSOR
    }
    lowest: dict[str, SourceCursor | None] = {}
    for key in keys:
        found = [floors.get(project, {}).get(key) for project in projects]
        present = [c for c in found if c is not None]
        if len(present) < len(found):
            lowest[key] = None
        else:
            lowest[key] = min(present, key=lambda c: (c.inode, c.offset))
    return lowest


def forget_file(floors: Floors, key: str) -> None:
    """Drops every project's floor of the file `key` (it was reset: read again from its start)."""
    for cursors in floors.values():
        cursors.pop(key, None)


def resume_point(
    floors: Floors, project_ids: Collection[str], key: str, inode: int, size: int
) -> tuple[SourceCursor | None, bool]:
    """Where a newly found file starts: the lowest floor any registered project has for it
    (None: from its start); and whether it was truncated while we were away (then its floors
    are dropped)."""
    cursors = [floors.get(p, {}).get(key) for p in project_ids]
    if not project_ids or any(c is None or c.inode != inode for c in cursors):
        return None, False
    present = [c for c in cursors if c is not None]
    if any(c.offset > size for c in present):
        forget_file(floors, key)
        return None, True
    return min(present, key=lambda c: c.offset), False


def rewind_point(
    floors: Floors, project_ids: Iterable[str], source: SourceTool, key: str, at: FilePosition
) -> SourceCursor | None:
    """Where a file read up to `at` goes back to so that newly registered `project_ids` get its
    earlier events: the lowest of their floors below `at`, or its start when one of them has no
    floor of it; None when none of them is behind."""
    lowest: SourceCursor | None = None
    for project_id in project_ids:
        cursor = floors.get(project_id, {}).get(key)
        if cursor is None or cursor.inode != at.inode:
            return SourceCursor(source, key, at.inode, 0)
        if cursor.offset < at.offset and (lowest is None or cursor.offset < lowest.offset):
            lowest = cursor
    return lowest


def git_head(floors: Floors, project_id: str, key: str) -> str | None:
    """The commit a project's git floor `key` records (None: no floor or no commit yet)."""
    floor = floors.get(project_id, {}).get(key)
    return str(floor.extra.get(GIT_SHA_KEY)) if floor and floor.extra.get(GIT_SHA_KEY) else None
