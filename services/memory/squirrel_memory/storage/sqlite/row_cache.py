"""The decoded memories of one SQLite file, kept between a search's reads while nothing writes.

A search reads about a hundred memory rows (its vector hits and its lexical hits), mostly the
same ones from one search to the next; reading and decoding them again is a large part of what
a search spends above its floor. `RowCache` keeps them by id, and the memory ids of the
full-text doc ids, until the file changes:

- every write of this process (`SqliteDatabase.write` and `write_outside_transaction`, the one
  way in for every write path: memories added, updated, superseded, forgotten, corrected,
  batches, the search index rebuilt, upkeep) calls `bump()` when it ends, committed or not;
- a read first asks its connection for `PRAGMA data_version` (`begin`), which changes when any
  other connection commits to the file: this process's writer, or another process writing the
  same file (`sqrl doctor --repair` migrating it, a second service). A reader thread that sees
  a new value, or asks for the first time, bumps.

A bump empties both maps and raises the generation; what a read keeps is dropped unless the
generation is still the one it began with, so a read that overlapped a write keeps nothing. A
read that begins after a write has returned therefore never sees a row older than that write.
Nothing a row holds changes on a read (a memory has no access count or last-read time), so
searches themselves never invalidate.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from squirrel_memory.models import MemoryItem

ROW_CACHE_SIZE = 4096
"""Decoded memories kept per file (the least recently used go first); doc ids as many."""


class RowCache:
    """Decoded memories by id and memory ids by full-text doc id, for one file (see the module
    docstring); safe to use from every reader thread at once."""

    def __init__(self, size: int = ROW_CACHE_SIZE) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[str, MemoryItem] = OrderedDict()
        self._docs: dict[int, str] = {}
        self._generation = 0
        self._seen = threading.local()

    @property
    def generation(self) -> int:
        return self._generation

    def bump(self) -> None:
        """The file changed: forget everything kept."""
        with self._lock:
            self._generation += 1
            self._items.clear()
            self._docs.clear()

    def begin(self, conn: sqlite3.Connection) -> int:
        """The generation a read on `conn` (a reader connection, ideally inside the read's
        transaction, where the pragma costs nothing) keeps its rows under; bumps first when
        another connection has committed since this thread last asked."""
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        seen: tuple[int, int] | None = getattr(self._seen, "version", None)
        if seen != (id(conn), version):
            self._seen.version = (id(conn), version)
            self.bump()
        return self._generation

    def memories(self, ids: Iterable[str]) -> dict[str, MemoryItem]:
        """The kept memories among `ids`."""
        with self._lock:
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

    def memory_ids(self, docs: Iterable[int]) -> dict[int, str]:
        """The kept memory ids of full-text doc ids among `docs`."""
        with self._lock:
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
