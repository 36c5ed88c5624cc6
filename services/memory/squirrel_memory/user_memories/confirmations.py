"""Flagged memories the user confirmed, per store (`<store>/confirmed.json`), and the filter that
keeps the other flagged ones out of what reaches a model unasked (views, task context, hooks)."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from squirrel_core.files import write_private_file
from squirrel_core.hazards import fingerprint, flags_of, safe_to_inject
from squirrel_memory.models import MemoryItem

CONFIRMED_FILE = "confirmed.json"
_MAX_FILE_BYTES = 16 * 1024 * 1024

_FLAGGED_TEXTS_CACHED = 8192
"""Memory texts whose hazard flags stay cached (every read that reaches a model checks them)."""

T = TypeVar("T")
Injectable = Callable[[Sequence[MemoryItem]], list[MemoryItem]]


@functools.lru_cache(maxsize=_FLAGGED_TEXTS_CACHED)
def content_flags(content: str) -> tuple[str, ...]:
    """`flags_of(content)`, cached by the text itself."""
    return flags_of(content)


def unflagged(items: Sequence[MemoryItem]) -> list[MemoryItem]:
    """The memories with no hazard flag (the filter when nothing is confirmed)."""
    return [m for m in items if not content_flags(m.content)]


class Confirmations:
    """`{memory id: fingerprint of the confirmed content}`; a change of content voids it."""

    def __init__(self, store_dir: Path) -> None:
        self.path = store_dir / CONFIRMED_FILE
        self._lock = threading.Lock()
        self._cache: dict[str, str] | None = None
        self._stamp: tuple[int, int] | None = None

    def _load(self) -> dict[str, str]:
        with self._lock:
            try:
                stat = self.path.stat()
            except FileNotFoundError:
                self._cache, self._stamp = {}, None
                return {}
            stamp = (stat.st_mtime_ns, stat.st_size)
            if self._cache is not None and stamp == self._stamp:
                return self._cache
            data: object = {}
            if stat.st_size <= _MAX_FILE_BYTES:
                try:
                    data = json.loads(self.path.read_bytes() or b"{}")
                except (OSError, ValueError):
                    data = {}
            found = data if isinstance(data, dict) else {}
            self._cache = {str(k): v for k, v in found.items() if isinstance(v, str)}
            self._stamp = stamp
            return self._cache

    def is_confirmed(self, item: MemoryItem) -> bool:
        """Whether the user confirmed exactly this content of the memory."""
        return self._load().get(item.id) == fingerprint(item.content)

    def confirm(self, item: MemoryItem) -> None:
        """Record that the user vouches for the memory's current content."""
        current = dict(self._load())
        current[item.id] = fingerprint(item.content)
        body = json.dumps(current, indent=1, sort_keys=True).encode("utf-8")
        with self._lock:
            write_private_file(self.path, body)
            self._cache = None

    def injectable(self, items: Sequence[MemoryItem]) -> list[MemoryItem]:
        """The memories safe to hand a model unasked: unflagged, or confirmed as they are."""
        confirmed: dict[str, str] | None = None
        kept: list[MemoryItem] = []
        for item in items:
            flags = content_flags(item.content)
            if flags:
                confirmed = self._load() if confirmed is None else confirmed
                vouched = confirmed.get(item.id) == fingerprint(item.content)
                if not safe_to_inject(flags, vouched):
                    continue
            kept.append(item)
        return kept
