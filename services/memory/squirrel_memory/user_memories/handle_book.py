"""The handles of a few memories of a project, without hashing the whole project each time.

A handle is the shortest digest prefix no other memory of the project shares
(`squirrel_core.handles`), so it depends on every id of the project. `HandleBook` keeps those
digests in sorted order, read once and then kept current by the store's change listener: a
search or list asks for the handles of its results and pays for a binary search per result, not
for a hash of every memory. A memory's handle is the same as `handles.handles` of every id gives.
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Iterable

from squirrel_core import handles
from squirrel_memory.storage import MemoryChange, Store
from squirrel_memory.user_memories.lookup import all_memory_ids


class HandleBook:
    """Every memory id of one store's project in digest order, following the store's writes.

    Added ids are inserted; a deletion makes the next call read the ids again (handles count
    forgotten memories too, so only an id gone from the store changes other handles).
    """

    def __init__(self, store: Store, *, minimum: int = handles.MIN_HANDLE) -> None:
        self.store = store
        self._minimum = minimum
        self._digests: dict[str, str] | None = None
        self._ordered: list[str] = []
        self._lock = asyncio.Lock()
        self._generation = 0
        store.add_listener(self._changed)

    def close(self) -> None:
        """Stops following the store."""
        self.store.remove_listener(self._changed)

    async def handles(self, memory_ids: Iterable[str]) -> dict[str, str]:
        """Each of `memory_ids` and its handle among every memory of the project."""
        wanted = list(memory_ids)
        if not wanted:
            return {}
        digests = await self._loaded()
        ordered = self._ordered
        minimum = self._minimum
        # A neighbour that differs within the first `minimum` characters leaves the handle at
        # `minimum` (their common start + 1 is at most that): only the others are walked
        # character by character (in a project of a few thousand memories, few or none).
        lead = max(0, minimum)
        out: dict[str, str] = {}
        for memory_id in wanted:
            text = digests.get(memory_id) or handles.digest(memory_id)
            at = bisect.bisect_left(ordered, text)
            after = at + 1 if at < len(ordered) and ordered[at] == text else at
            length = minimum
            start = text[:lead]
            if at > 0 and (before := ordered[at - 1])[:lead] == start:
                length = max(length, _common(before, text) + 1)
            if after < len(ordered) and (next_one := ordered[after])[:lead] == start:
                length = max(length, _common(next_one, text) + 1)
            out[memory_id] = handles.ID_PREFIX + text[:length]
        return out

    async def _loaded(self) -> dict[str, str]:
        async with self._lock:
            while self._digests is None:
                generation = self._generation
                ids = await all_memory_ids(self.store)
                digests = await asyncio.to_thread(_digests, ids)
                if generation == self._generation:  # no write landed while reading
                    self._digests = digests
                    self._ordered = sorted(digests.values())
            return self._digests

    def _changed(self, change: MemoryChange) -> None:
        self._generation += 1
        if self._digests is None:
            return
        if change.deleted:
            self._digests = None
            self._ordered = []
            return
        for memory_id in change.added:
            if memory_id not in self._digests:
                text = handles.digest(memory_id)
                self._digests[memory_id] = text
                bisect.insort(self._ordered, text)


def _digests(memory_ids: Iterable[str]) -> dict[str, str]:
    return {memory_id: handles.digest(memory_id) for memory_id in memory_ids}


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
