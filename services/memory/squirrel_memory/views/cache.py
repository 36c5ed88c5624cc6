"""A project's cached views: the `view_meta` row and `<name>.json` of each, served while fresh."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

import structlog

from squirrel_core.files import ensure_private_dir, write_private_file
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.storage import ViewMeta
from squirrel_memory.storage.checks import Clock
from squirrel_memory.views.codec import to_json
from squirrel_memory.views.models import STALE_RULES, ViewName

log = structlog.get_logger()

CACHE_FORMAT = 2
"""2: the brief names the memory of each line (a cache of format 1 is rebuilt)."""
_NEVER = datetime(1970, 1, 1, tzinfo=UTC)
_VIEW_TYPES: dict[ViewName, MemoryType] = {
    ViewName.USER_STYLE: MemoryType.USER_STYLE,
    ViewName.PROJECT_BRIEF: MemoryType.PROJECT_FACT,
    ViewName.PITFALLS: MemoryType.PITFALL,
}


class ViewStore(Protocol):
    """What views need from a project's store (every `Store` provides it)."""

    project_id: str

    async def list_memories(
        self,
        project_id: str,
        types: Sequence[MemoryType] | None = None,
        include_deleted: bool = False,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[MemoryItem], int]: ...
    async def visible_memories(
        self,
        project_id: str,
        memory_type: MemoryType,
        viewer: str | None,
        *,
        limit: int = 50,
        by_importance: bool = False,
    ) -> list[MemoryItem]: ...
    async def count_events(self, project_id: str) -> int: ...
    async def get_view_meta(self, name: str) -> ViewMeta | None: ...
    async def put_view_meta(
        self, name: str, last_generated: datetime, events_count_at_gen: int, ttl: int
    ) -> None: ...
    def add_listener(self, listener: Any) -> None: ...
    def remove_listener(self, listener: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class _Cached:
    params: str
    stamp: str
    budget: int
    view: dict[str, Any]


class ViewCache:
    """The cached copies of one project's views, in `folder`, and whether each is fresh."""

    def __init__(self, store: ViewStore, folder: Path, clock: Clock) -> None:
        self._store = store
        self._dir = folder
        self._clock = clock

    @property
    def project_id(self) -> str:
        return self._store.project_id

    async def invalidate(self, names: Sequence[ViewName]) -> None:
        """Mark views stale now (their next read rebuilds them) and drop their cached files."""
        for name in names:
            await self._store.put_view_meta(str(name), _NEVER, 0, STALE_RULES[name].ttl_seconds)
            self._path(name).unlink(missing_ok=True)
        log.info("views_invalidated", project_id=self.project_id, count=len(names))

    async def cached(
        self, name: ViewName, params: str, budget: int, extra: str = ""
    ) -> tuple[dict[str, Any] | None, str]:
        """(cached view JSON or None, current memory stamp)."""
        stamp = await self._stamp(name, extra)
        meta = await self._store.get_view_meta(str(name))
        if meta is None or await self._stale(name, meta):
            return None, stamp
        cached = self._read(name)
        if cached is None or cached.params != params or cached.stamp != stamp:
            return None, stamp
        report = cached.view.get("budget", {})
        estimate, capped = report.get("token_estimate"), report.get("capped")
        if not isinstance(estimate, int) or estimate > budget:
            return None, stamp
        if capped and cached.budget != budget:
            return None, stamp
        log.info("view_served_from_cache", project_id=self.project_id, view=str(name))
        return cached.view, stamp

    async def save(self, name: ViewName, params: str, stamp: str, budget: int, view: Any) -> None:
        """Keep a view just built (a dataclass with `generated_at`) for the reads after it."""
        events = await self._store.count_events(self.project_id)
        payload = {
            "format": CACHE_FORMAT,
            "params": params,
            "stamp": stamp,
            "budget": budget,
            "view": to_json(asdict(view)),
        }
        ensure_private_dir(self._dir)
        write_private_file(
            self._path(name),
            json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8"),
        )
        await self._store.put_view_meta(
            str(name), view.generated_at, events, STALE_RULES[name].ttl_seconds
        )
        log.info("view_generated", project_id=self.project_id, view=str(name))

    async def _stamp(self, name: ViewName, extra: str) -> str:
        """Changes whenever a memory the view reads is added, updated or deleted."""
        latest, total = await self._store.list_memories(
            self.project_id, [_VIEW_TYPES[name]], include_deleted=True, limit=1
        )
        top = (
            f"{latest[0].id}:{latest[0].version}:{latest[0].updated_at.isoformat()}"
            if latest
            else ""
        )
        return hashlib.sha256(f"{total}|{top}|{extra}".encode()).hexdigest()[:32]

    async def _stale(self, name: ViewName, meta: ViewMeta) -> bool:
        rule = STALE_RULES[name]
        age = self._clock() - meta.last_generated
        if age >= timedelta(seconds=meta.ttl_seconds) or age < timedelta(0):
            return True
        events = await self._store.count_events(self.project_id)
        return events - meta.events_count_at_gen >= rule.max_new_events

    def _path(self, name: ViewName) -> Path:
        return self._dir / f"{name}.json"

    def _read(self, name: ViewName) -> _Cached | None:
        try:
            data = json.loads(self._path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if (
            not isinstance(data, dict)
            or data.get("format") != CACHE_FORMAT
            or not isinstance(data.get("params"), str)
            or not isinstance(data.get("stamp"), str)
            or not isinstance(data.get("budget"), int)
            or not isinstance(data.get("view"), dict)
        ):
            return None
        return _Cached(data["params"], data["stamp"], data["budget"], data["view"])
