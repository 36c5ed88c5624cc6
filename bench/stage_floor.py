"""The floor beside `bench.search_stages`' stages, and the row cache that holds every row.

- `floor_parts`: for one question, the process's CPU over `Retriever.search` on an empty project
  (no vector to search, the same path) and this thread's CPU over the query encoder alone;
- `every_row_kept`: a row cache holding every memory row of a file, decoded, and every full-text
  doc id, so a search's row reads touch no row of the file;
- `memory_ids_hidden`: the lexical index's memory ids hidden for a while, so its hits are looked
  up in `memory_fts_docs` (through the row cache's doc map) as before the index carried them.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

from squirrel_memory.embedding.base import Embedder
from squirrel_memory.retrieval import Retriever
from squirrel_memory.storage.sqlite.lexical import LexicalIndex
from squirrel_memory.storage.sqlite.reads import cached_memories
from squirrel_memory.storage.sqlite.row_cache import RowCache

TOP = 10
TARGET = 1.3
"""The most a search may cost against its floor (`search cpu` / (`empty search` + `encoder
alone`)), as the search pipeline is held to."""


ROWS_KEPT = "rows kept"
IDS_LOOKED_UP = "ids looked up"


@contextmanager
def memory_ids_hidden(lexical: LexicalIndex | None) -> Iterator[None]:
    """The index's memory ids hidden while inside (no write may run meanwhile): its hits are
    looked up by doc id. Nothing changes for an index without them (an older tree's)."""
    state = getattr(lexical, "_state", None)
    kept = getattr(state, "memory_ids", None)
    if state is None or kept is None:
        yield
        return
    from squirrel_memory.storage.sqlite.slot_ids import SlotIds  # noqa: PLC0415 (an older tree has none)

    state.memory_ids = SlotIds(len(kept))
    try:
        yield
    finally:
        state.memory_ids = kept


def every_row_kept(conn: sqlite3.Connection) -> RowCache:
    """A row cache holding every memory row of the file, decoded, and every full-text doc id:
    what the searches' row reads cost when none has to be read from the file (the most an
    in-memory copy of what ranking needs could save them)."""
    ids = [str(r[0]) for r in conn.execute("SELECT id FROM memory_items")]
    cache = RowCache(size=max(len(ids), 1))
    conn.execute("BEGIN")
    try:
        generation = cache.begin(conn)
        cached_memories(conn, cache, generation, ids)
        docs = conn.execute("SELECT doc_id, memory_id FROM memory_fts_docs").fetchall()
        cache.keep_docs(generation, ((int(d), str(m)) for d, m in docs))
    finally:
        conn.execute("COMMIT")
    return cache


async def floor_parts(empty: Retriever, embedder: Embedder, text: str) -> dict[str, float]:
    """CPU ms of the floor's two parts for one question: the search of an empty project (the
    process's CPU) and the query encoder alone (this thread's)."""
    process = time.process_time_ns()
    await empty.search(empty.project_id, f"{text} (empty)", TOP)
    process = time.process_time_ns() - process
    thread = time.thread_time_ns()
    embedder.embed_query_now(f"{text} (encoder alone)")
    thread = time.thread_time_ns() - thread
    return {"empty search": process / 1e6, "encoder alone": thread / 1e6}
