"""The floor beside `bench.search_stages`' stages, and the row cache that holds every row.

- `floor_parts`: for one question, the process's CPU over `Retriever.search` on an empty project
  (no vector to search, the same path) and this thread's CPU over the query encoder alone;
- `every_row_kept`: a row cache holding every memory row of a file, decoded, and every full-text
  doc id, so a search's row reads touch no row of the file.
"""

from __future__ import annotations

import sqlite3
import time

from squirrel_memory.embedding.base import Embedder
from squirrel_memory.retrieval import Retriever
from squirrel_memory.storage.sqlite.reads import cached_memories
from squirrel_memory.storage.sqlite.row_cache import RowCache

TOP = 10
TARGET = 1.3
"""The most a search may cost against its floor (`search cpu` / (`empty search` + `encoder
alone`)), as the search pipeline is held to."""


ROWS_KEPT = "rows kept"


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
