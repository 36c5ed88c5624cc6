"""Decoded memories of one SQLite file, kept between searches while no memory row changes.

A search reads about a hundred memory rows (its vector hits and its lexical hits), mostly the
same ones from one search to the next; reading and decoding them again is a large part of what
a search spends above its floor. `RowCache` keeps them by id, and the memory ids of the
full-text doc ids, under the file's state of its memory rows, which each read asks for in its
own read transaction (`begin`, one statement on the read's snapshot):

- `memory_rows_changed.count`, raised by a trigger on every insert, update and delete of
  `memory_items`, by any connection (this process's writer, or another process writing the
  same file: a second service, `sqrl doctor --repair`);
- the last sequence number of `memory_fts_changes`, where every change of the full-text doc
  ids is logged (a search index rebuilt gives the rows new doc ids);
- the schema version (a migration may rewrite the tables without their triggers).

A read whose state differs from the one the cache holds empties both maps, raises the generation
and takes that state; what a read keeps is dropped unless the generation is still the one it began
with, and a read is served kept rows only while it still is, so rows of two snapshots never mix (a
reader of an older snapshot that asks after a newer one takes the cache back to its state: the
newer read, still running, reads its rows afresh). A read therefore never sees a row older than its
own snapshot. Writes that touch no memory row (events, episodes, cursors, outcomes, parked work,
kept replies) leave the state, and the kept rows, as they were; nothing a row holds changes on a
read (a memory has no access count or last-read time), so searches themselves never invalidate.
`bump()` empties the cache at once (a write outside a transaction, such as VACUUM).
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from squirrel_memory.models import MemoryItem

ROW_CACHE_SIZE = 4096
"""Decoded memories kept per file (the least recently used go first); doc ids as many."""

_STATE = (
    "SELECT (SELECT count FROM memory_rows_changed WHERE id = 1), "
    "(SELECT seq FROM sqlite_sequence WHERE name = 'memory_fts_changes'), "
    "(SELECT schema_version FROM pragma_schema_version)"
)
"""The state of a file's memory rows a read's kept rows are valid under (see the module)."""


class RowCache:
    """Decoded memories by id and memory ids by full-text doc id, for one file (see the module
    docstring); safe to use from every reader thread at once."""

    def __init__(self, size: int = ROW_CACHE_SIZE) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[str, MemoryItem] = OrderedDict()
        self._docs: dict[int, str] = {}
        self._generation = 0
        self._state: tuple[object, ...] | None = None

    @property
    def generation(self) -> int:
        return self._generation

    def bump(self) -> None:
        """The file changed: forget everything kept."""
        with self._lock:
            self._bump()

    def _bump(self) -> None:
        self._generation += 1
        self._items.clear()
        self._docs.clear()

    def begin(self, conn: sqlite3.Connection) -> int:
        """The generation a read on `conn` keeps its rows under, inside the read's transaction
        (the state is read on its snapshot); bumps first when the memory rows' state differs
        from the one the kept rows were read under."""
        state = tuple(conn.execute(_STATE).fetchone())
        with self._lock:
            if state != self._state:
                self._state = state
                self._bump()
            return self._generation

    def memories(self, ids: Iterable[str], generation: int) -> dict[str, MemoryItem]:
        """The kept memories among `ids`, for a read that began under `generation`: none when
        the cache has moved on since (to the state of another read's snapshot, maybe an older
        one, whose rows this read must not see)."""
        with self._lock:
            if generation != self._generation:
                return {}
            items = self._items
            found = {i: m for i in ids if (m := items.get(i)) is not None}
            for i in found:
                items.move_to_end(i)
        return found

    def keep(self, generation: int, memories: Sequence[MemoryItem]) -> None:
        """Keep `memories`, read under `generation` (nothing if the file changed since)."""
        with self._lock:
            if generation != self._generation:
                return
            items = self._items
            for m in memories:
                items[m.id] = m
            while len(items) > self._size:
                items.popitem(last=False)

    def memory_ids(self, docs: Iterable[int], generation: int) -> dict[int, str]:
        """The kept memory ids of full-text doc ids among `docs`, for a read that began under
        `generation` (as `memories`)."""
        with self._lock:
            if generation != self._generation:
                return {}
            known = self._docs
            return {d: i for d in docs if (i := known.get(d)) is not None}

    def keep_docs(self, generation: int, pairs: Iterable[tuple[int, str]]) -> None:
        """Keep (doc id, memory id) pairs read under `generation` (as `keep`)."""
        with self._lock:
            if generation != self._generation:
                return
            if len(self._docs) > self._size:
                self._docs.clear()
            self._docs.update(pairs)
