"""Reading a project's memories, written once for both backends: by id, by page, by
importance, their texts and their history, as read plans (`queries`) in a `Dialect` that each
backend answers on its connection.

What stays a backend's own: how it finds memories naming paths (SQLite's `memory_paths` index,
Postgres's array overlap), how it finds memories from one tool's events (a JSON list walked
or an array matched) and where a blocking vector search runs (`found_memories`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from squirrel_core.errors import NotFoundError
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, MemoryVersion, Scope
from squirrel_memory.storage.checks import (
    check_limit,
    check_offset,
    check_project,
    check_type,
    chunks,
)
from squirrel_memory.storage.dialect import Dialect
from squirrel_memory.storage.memory_sql import SELECT_MEMORY
from squirrel_memory.storage.queries import PlanRunner, ReadPlan, Row, fetch, first, number

ROW_CACHE_SIZE = 4096
"""Memory rows whose decoded `MemoryItem` stays cached (where rows are plain values). Decoding
a row (four JSON lists, two times, three enums) takes several times longer than reading it, and
searches read the same memories again and again."""

_HISTORY = (
    "SELECT memory_id, version, action, content, tags, importance, changed_at, reason, "
    "source_event_ids, superseded_by, source_refs, written_by, writers FROM memory_history "
    "WHERE memory_id = {m} ORDER BY version"
)


_SCOPES = {str(s.value): s for s in Scope}
_TYPES = {str(t.value): t for t in MemoryType}
_SOURCES = {str(s.value): s for s in MemorySource}
E = TypeVar("E", Scope, MemoryType, MemorySource)


def _member(members: dict[str, E], kind: type[E], value: Any) -> E:
    """The enum member stored as `value`: a dict look-up (an enum's call is several times
    slower), the enum's own call for anything else (it raises as before)."""
    found = members.get(value) if isinstance(value, str) else None
    return found if found is not None else kind(value)


def _decode(d: Dialect, row: Row) -> MemoryItem:
    return MemoryItem(
        id=row[0],
        project_id=row[1],
        user_id=row[2],
        scope=_member(_SCOPES, Scope, row[3]),
        type=_member(_TYPES, MemoryType, row[4]),
        key=row[5],
        content=row[6],
        tags=d.load_list(row[7]),
        importance=float(row[8]),
        created_at=d.load_time(row[9]),
        updated_at=d.load_time(row[10]),
        source=_member(_SOURCES, MemorySource, row[11]),
        file_paths=d.load_list(row[12]),
        source_episode_id=row[13],
        source_event_ids=d.load_list(row[14]),
        deleted=bool(row[15]),
        superseded_by=row[16],
        version=int(row[17]),
        source_refs=d.load_list(row[18]),
        written_by=row[19] or str(row[11]),
        writers=d.load_list(row[20]),
    )


@functools.cache
def row_reader(d: Dialect) -> Callable[[Row], MemoryItem]:
    """The memory in a row selected by `SELECT_MEMORY`, in `d`.

    Where rows are plain values, decoded items are cached, keyed by the whole row: a row that
    differs in any column (a new version, a deletion) is decoded anew; a cached item is never
    stale."""
    decode = functools.partial(_decode, d)
    if not d.cache_rows:
        return decode
    cached = functools.lru_cache(maxsize=ROW_CACHE_SIZE)(decode)
    return lambda row: cached(tuple(row))


def version_from_row(d: Dialect, r: Row) -> MemoryVersion:
    return MemoryVersion(
        memory_id=r[0],
        version=int(r[1]),
        action=r[2],
        content=r[3],
        tags=d.load_list(r[4]),
        importance=float(r[5]),
        changed_at=d.load_time(r[6]),
        reason=r[7],
        source_event_ids=d.load_list(r[8]),
        superseded_by=r[9],
        source_refs=d.load_list(r[10]),
        written_by=r[11],
        writers=d.load_list(r[12]),
    )


def by_id_sql(
    d: Dialect, project_id: str, memory_id: str, lock: bool
) -> tuple[str, tuple[Any, ...]]:
    """One memory by id (deleted ones too); `lock` reads it to be changed."""
    mine, params = d.of_project(project_id)
    return (
        f"{SELECT_MEMORY}WHERE id = {d.mark}{mine}{d.lock if lock else ''}",
        (memory_id, *params),
    )


def load(
    d: Dialect, project_id: str, memory_id: str, *, lock: bool = False
) -> ReadPlan[MemoryItem | None]:
    """One memory by id (deleted ones too), or None."""
    row = yield from first(*_flat(by_id_sql(d, project_id, memory_id, lock)))
    return row_reader(d)(row) if row else None


def _flat(sql: tuple[str, tuple[Any, ...]]) -> tuple[Any, ...]:
    return (sql[0], *sql[1])


def load_many(d: Dialect, project_id: str, memory_ids: Sequence[str]) -> ReadPlan[list[MemoryItem]]:
    """The memories with these ids (deleted ones too), in the order asked; unknown ids are
    skipped."""
    ids = list(dict.fromkeys(memory_ids))
    mine, params = d.of_project(project_id)
    read = row_reader(d)
    found: dict[str, MemoryItem] = {}
    for chunk in chunks(ids):
        rows = yield from fetch(
            f"{SELECT_MEMORY}WHERE id {d.in_list}{mine}", d.store_list(chunk), *params
        )
        found.update((r[0], read(r)) for r in rows)
    return [found[i] for i in ids if i in found]


def texts(
    d: Dialect, project_id: str, memory_type: MemoryType, source: str | None
) -> ReadPlan[list[tuple[str, str]]]:
    """(id, content) of the live memories of one type (and of `source`, when not None)."""
    m = d.mark
    rows = yield from fetch(
        f"SELECT id, content FROM memory_items WHERE project_id = {m} AND type = {m} "  # noqa: S608
        f"AND {d.live} AND ({d.null_text} OR source = {m})",
        project_id,
        str(memory_type),
        source,
        source,
    )
    return [(str(r[0]), str(r[1])) for r in rows]


def keys(d: Dialect, project_id: str) -> ReadPlan[list[tuple[str, str, str]]]:
    """(id, type, key) of the live memories, most recently updated first."""
    rows = yield from fetch(
        f"SELECT id, type, key FROM memory_items WHERE project_id = {d.mark} "  # noqa: S608
        f"AND {d.live} ORDER BY updated_at DESC, id DESC",
        project_id,
    )
    return [(str(r[0]), str(r[1]), str(r[2] or "")) for r in rows]


def keys_mark(d: Dialect, project_id: str) -> ReadPlan[str]:
    """What changes whenever a memory is added, updated or deleted: the dialect's count of
    memory row changes, else the count of the project's memories and their newest update."""
    if d.memory_changes:
        rows = yield from fetch(d.memory_changes)
    else:
        rows = yield from fetch(
            "SELECT COUNT(*), MAX(updated_at) FROM memory_items "  # noqa: S608 (constants)
            f"WHERE project_id = {d.mark} AND {d.live}",
            project_id,
        )
    return ":".join(str(v) for v in rows[0]) if rows else ""


def screened_texts(
    d: Dialect, project_id: str, memory_type: MemoryType
) -> ReadPlan[list[tuple[str, str, bool]]]:
    """(id, content, written by hand) of the live memories of one type (what a screen learns)."""
    m = d.mark
    rows = yield from fetch(
        "SELECT id, content, source = 'manual' FROM memory_items "  # noqa: S608 (constants)
        f"WHERE project_id = {m} AND type = {m} AND {d.live}",
        project_id,
        str(memory_type),
    )
    return [(str(r[0]), str(r[1]), bool(r[2])) for r in rows]


def kind_version(d: Dialect, project_id: str, memory_type: MemoryType) -> ReadPlan[tuple[int, int]]:
    """The version of a type's memories: its rows and the sum of their versions, which every
    write of one of them raises (a row added, or a version more; rows are never removed)."""
    m = d.mark
    row = yield from first(
        "SELECT COUNT(*), COALESCE(SUM(version), 0) FROM memory_items "  # noqa: S608
        f"WHERE project_id = {m} AND type = {m}",
        project_id,
        str(memory_type),
    )
    return (int(row[0]), int(row[1])) if row else (0, 0)


class SharedMemoryReads(PlanRunner):
    """Reads of memory rows and their history; a backend names its `_dialect`, answers read
    plans (`_read`) and finds memories by path (`_with_paths`) and by tool (`_FROM_TOOL`)."""

    _FROM_TOOL: str
    """Ids of the memories with a source event from one tool: params project, tool."""

    def _with_paths(
        self, project_id: str, paths: list[str], kinds: list[str] | None, limit: int
    ) -> ReadPlan[list[MemoryItem]]:
        """Live memories naming one of `paths` (distinct, none empty) of `kinds` (None: all),
        most important first."""
        raise NotImplementedError

    async def memory_ids_from_tool(self, source_tool: str) -> set[str]:
        """Ids of the memories (deleted ones too) with a source event from `source_tool`."""
        rows = await self._read(fetch(self._FROM_TOOL, self.project_id, source_tool))
        return {str(row[0]) for row in rows}

    async def live_memory_ids(self) -> set[str]:
        """Ids of the project's live memories (one index-only read, no rows decoded)."""
        d = self._dialect
        rows = await self._read(
            fetch(
                f"SELECT id FROM memory_items WHERE project_id = {d.mark} AND {d.live}",  # noqa: S608
                self.project_id,
            )
        )
        return {str(row[0]) for row in rows}

    async def memory_texts(
        self, project_id: str, memory_type: MemoryType, source: MemorySource | None = None
    ) -> list[tuple[str, str]]:
        """(id, content) of the live memories of one type (and of `source`, when given)."""
        check_project(self.project_id, project_id)
        kind = check_type(memory_type)
        wanted = None if source is None else str(MemorySource(source))
        return await self._read(texts(self._dialect, project_id, kind, wanted))

    async def memory_keys(self, project_id: str) -> tuple[str, list[tuple[str, str, str]]]:
        """(id, type, key) of the live memories, most recently updated first, and the mark
        they were read at (`key_mark`), in one read transaction."""
        check_project(self.project_id, project_id)
        d = self._dialect

        def plan() -> ReadPlan[tuple[str, list[tuple[str, str, str]]]]:
            mark = yield from keys_mark(d, project_id)
            found = yield from keys(d, project_id)
            return mark, found

        return await self._read(plan())

    async def key_mark(self, project_id: str) -> str:
        """A mark of the project's live memories that changes whenever one is added, updated
        or deleted (their count and newest update)."""
        check_project(self.project_id, project_id)
        return await self._read(keys_mark(self._dialect, project_id))

    async def get_memory(self, memory_id: str) -> MemoryItem:
        """One memory (deleted ones too); `NotFoundError` if unknown."""
        item = await self._read(load(self._dialect, self.project_id, memory_id))
        if item is None:
            raise NotFoundError(f"no memory {memory_id}")
        return item

    async def memory_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        """Ids (deleted memories too) that start with `prefix`, in order; at most `limit`."""
        if not prefix or not prefix.replace("_", "").isalnum() or not prefix.isascii():
            return []
        d = self._dialect
        mine, params = d.of_project(self.project_id)
        rows = await self._read(
            fetch(
                f"SELECT id FROM memory_items WHERE id >= {d.mark} AND id < {d.mark}{mine} "  # noqa: S608
                f"ORDER BY id LIMIT {d.mark}",
                prefix,
                prefix + "\x7f",
                *params,
                limit,
            )
        )
        return [str(r[0]) for r in rows]

    async def get_memories(self, memory_ids: Sequence[str]) -> list[MemoryItem]:
        """The memories with these ids, in the order asked; unknown ids are skipped."""
        return await self._read(load_many(self._dialect, self.project_id, list(memory_ids)))

    async def list_memories(
        self,
        project_id: str,
        types: Sequence[MemoryType] | None = None,
        include_deleted: bool = False,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[MemoryItem], int]:
        """A page of memories, most recently updated first, and the total that match."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        check_offset(offset)
        d = self._dialect
        kinds = d.store_list([str(check_type(t)) for t in types]) if types else None
        m = d.mark
        where = (
            f"WHERE project_id = {m} AND ({d.null_list} OR type {d.in_list}) AND ({m} OR {d.live}) "
        )
        params = (project_id, kinds, kinds, d.store_flag(include_deleted))
        read = row_reader(d)

        def page() -> ReadPlan[tuple[list[MemoryItem], int]]:
            total = yield from number(f"SELECT COUNT(*) FROM memory_items {where}", *params)  # noqa: S608
            rows = yield from fetch(
                f"{SELECT_MEMORY}{where}ORDER BY updated_at DESC, id DESC LIMIT {m} OFFSET {m}",
                *params,
                limit,
                offset,
            )
            return [read(r) for r in rows], total

        return await self._read(page())

    async def memories_with_paths(
        self,
        project_id: str,
        paths: Sequence[str],
        types: Sequence[MemoryType] | None = None,
        limit: int = 200,
    ) -> list[MemoryItem]:
        """Live memories whose `file_paths` hold one of `paths` exactly, most important first."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        wanted = list(dict.fromkeys(p for p in paths if p))[:200]
        if not wanted:
            return []
        kinds = [str(check_type(t)) for t in types] if types else None
        return await self._read(self._with_paths(project_id, wanted, kinds, limit))

    async def most_important(
        self, project_id: str, memory_type: MemoryType, limit: int = 20
    ) -> list[MemoryItem]:
        """Live memories of one type, most important first, then most recently updated."""
        return await self.visible_memories(
            project_id, memory_type, None, limit=limit, by_importance=True
        )

    async def owned_memories(
        self, project_id: str, memory_type: MemoryType, owner: str, limit: int = 50
    ) -> list[MemoryItem]:
        """Live user-scoped memories of one type that belong to `owner`, most recently updated
        first: the owner is in the query, so another user's memories never take the places."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        d = self._dialect
        m = d.mark
        return await self._memories_where(
            f"WHERE project_id = {m} AND type = {m} AND scope = {m} "
            f"AND user_id = {m} AND {d.live} ORDER BY updated_at DESC, id DESC LIMIT {m}",
            project_id,
            str(check_type(memory_type)),
            str(Scope.USER),
            owner,
            limit,
        )

    async def visible_memories(
        self,
        project_id: str,
        memory_type: MemoryType,
        viewer: str | None,
        *,
        limit: int = 50,
        by_importance: bool = False,
    ) -> list[MemoryItem]:
        """Live memories of one type that `viewer` may see, most recently updated first (or
        most important first, `by_importance`): every shared memory, and of the private ones
        (user-scoped, or user style) only `viewer`'s own; all of them when `viewer` is None
        (the install's own caller). The rule of `user_memories.privacy.visible`, in the query:
        other users' private memories never take the places of the viewer's."""
        check_project(self.project_id, project_id)
        check_limit(limit)
        d = self._dialect
        m = d.mark
        order = "updated_at DESC, id DESC"
        if by_importance:
            order = "importance DESC, updated_at DESC, id"
        return await self._memories_where(
            f"WHERE project_id = {m} AND type = {m} AND {d.live} "
            f"AND ({d.null_text} OR (scope <> {m} AND type <> {m}) OR user_id = {m}) "
            f"ORDER BY {order} LIMIT {m}",
            project_id,
            str(check_type(memory_type)),
            viewer,
            str(Scope.USER),
            str(MemoryType.USER_STYLE),
            viewer,
            limit,
        )

    async def unowned_memories(self, project_id: str, memory_type: MemoryType) -> list[MemoryItem]:
        """Live project-scoped memories of one type with no owner, oldest first."""
        check_project(self.project_id, project_id)
        d = self._dialect
        m = d.mark
        return await self._memories_where(
            f"WHERE project_id = {m} AND type = {m} AND scope = {m} "
            f"AND user_id IS NULL AND {d.live} ORDER BY created_at, id",
            project_id,
            str(check_type(memory_type)),
            str(Scope.PROJECT),
        )

    async def _memories_where(self, condition: str, *params: object) -> list[MemoryItem]:
        """The memories a condition (`WHERE …`, with its order and limit) selects."""
        rows = await self._read(fetch(f"{SELECT_MEMORY}{condition}", *params))
        read = row_reader(self._dialect)
        return [read(r) for r in rows]

    async def history(self, memory_id: str) -> list[MemoryVersion]:
        """Every version of a memory, oldest first (the last is the current one)."""
        d = self._dialect

        def versions() -> ReadPlan[list[MemoryVersion] | None]:
            if (yield from load(d, self.project_id, memory_id)) is None:
                return None
            rows = yield from fetch(_HISTORY.format(m=d.mark), memory_id)
            return [version_from_row(d, r) for r in rows]

        found = await self._read(versions())
        if found is None:
            raise NotFoundError(f"no memory {memory_id}")
        return found
