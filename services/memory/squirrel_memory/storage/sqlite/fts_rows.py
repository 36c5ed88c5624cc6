"""The full-text index of memories in data.db: one `memory_fts` row per live memory, keyed by a
stable `memory_fts_docs.doc_id`, and every row added or removed logged in `memory_fts_changes`
for the in-memory copy of the index (`lexical`). Written inside the memory's write transaction."""

from __future__ import annotations

import sqlite3

from squirrel_memory.storage.formats import (
    fts_text,
    json_strings,
    searchable_content,
    searchable_tags,
)

FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"


CHANGE_LOG_KEEP = 100_000
"""Entries `memory_fts_changes` keeps (at least); an in-memory index further behind rebuilds."""
SEARCH_RESET = -1
"""The doc id logged when the whole of `memory_fts` was rewritten (`rebuild_search_index`)."""


def log_search_change(conn: sqlite3.Connection, doc_id: int) -> None:
    """Log that `memory_fts` row `doc_id` was added or removed (schema 8 on), for the in-memory
    copy of the index (`sqlite.lexical`); entries older than the last `CHANGE_LOG_KEEP` go now
    and then."""
    seq = conn.execute("INSERT INTO memory_fts_changes(doc_id) VALUES (?)", (doc_id,)).lastrowid
    if seq is not None and seq % 1_000 == 0:
        conn.execute("DELETE FROM memory_fts_changes WHERE seq <= ?", (seq - CHANGE_LOG_KEEP,))


def index_memory_text(
    conn: sqlite3.Connection,
    memory_id: str,
    *,
    kind: str,
    key: str,
    content: str,
    tags_json: str,
    logged: bool = True,
) -> None:
    """Insert or replace one memory's row in `memory_fts` (call inside the write transaction).

    `memory_fts` holds live memories only; its rowid is `memory_fts_docs.doc_id`, a stable
    integer (a TEXT-keyed table's own rowid may change on VACUUM). Every row added or removed
    is logged in `memory_fts_changes` unless `logged` is false (a migration older than the log,
    a rebuild that logs `SEARCH_RESET`).
    """
    unindex_memory_text(conn, memory_id, logged=logged)
    cursor = conn.execute("INSERT INTO memory_fts_docs(memory_id) VALUES (?)", (memory_id,))
    assert cursor.lastrowid is not None
    if logged:
        log_search_change(conn, cursor.lastrowid)
    tags_text = " ".join(searchable_tags(json_strings(tags_json)))
    text = searchable_content(content)
    conn.execute(
        "INSERT INTO memory_fts(rowid, key, content, tags, type) VALUES (?, ?, ?, ?, ?)",
        (cursor.lastrowid, fts_text(key), fts_text(text), fts_text(tags_text), kind),
    )


def unindex_memory_text(conn: sqlite3.Connection, memory_id: str, *, logged: bool = True) -> None:
    """Remove one memory from `memory_fts` if it is there (logged as `index_memory_text`)."""
    row = conn.execute(
        "SELECT doc_id FROM memory_fts_docs WHERE memory_id = ?", (memory_id,)
    ).fetchone()
    if row is not None:
        conn.execute("DELETE FROM memory_fts WHERE rowid = ?", (row[0],))
        conn.execute("DELETE FROM memory_fts_docs WHERE doc_id = ?", (row[0],))
        if logged:
            log_search_change(conn, int(row[0]))
