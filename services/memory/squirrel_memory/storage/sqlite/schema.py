"""On-disk layout of data.db and user.db: the versioned migrations that make it (`migrator`
applies them). The full-text index's rows are written by `fts_rows`."""

from __future__ import annotations

import json
import sqlite3

from squirrel_core.events import EventType, default_origin
from squirrel_memory.dedup import UNHASHED_CONTENT_KEYS, HashedFields, event_hash
from squirrel_memory.storage.formats import (
    from_db_time,
    json_strings,
)
from squirrel_memory.storage.sqlite.fts_rows import FTS_TOKENIZER, index_memory_text
from squirrel_memory.storage.sqlite.migrator import Migration
from squirrel_memory.storage.sqlite.outcomes import OUTCOME_TABLES
from squirrel_memory.storage.sqlite.rehash import rehash_events

# --- migrations -----------------------------------------------------------------------------

_DATA_V1 = (
    """CREATE TABLE events (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  source_tool TEXT NOT NULL,
  session_id TEXT,
  timestamp TEXT NOT NULL,
  event_type TEXT NOT NULL,
  content_json TEXT NOT NULL,
  file_paths TEXT NOT NULL,
  hash TEXT NOT NULL,
  processed_at TEXT NULL
)""",
    "CREATE INDEX idx_events_project_time ON events(project_id, timestamp)",
    "CREATE INDEX idx_events_processed   ON events(project_id, processed_at)",
    "CREATE INDEX idx_events_session     ON events(project_id, session_id)",
    """CREATE TABLE episodes (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  session_id TEXT,
  start_ts TEXT NOT NULL,
  end_ts TEXT NOT NULL,
  event_count INTEGER NOT NULL,
  summary TEXT NOT NULL,
  importance REAL NOT NULL,
  created_at TEXT NOT NULL
)""",
    "CREATE INDEX idx_episodes_project_time ON episodes(project_id, start_ts)",
    """CREATE TABLE memory_items (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL,
  user_id TEXT,
  scope TEXT NOT NULL,
  type TEXT NOT NULL,
  key TEXT NOT NULL,
  content TEXT NOT NULL,
  tags TEXT NOT NULL,
  importance REAL NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  source_episode_id TEXT,
  source_event_ids TEXT NOT NULL,
  embedding BLOB,
  graph_neighbors TEXT,
  deleted INTEGER NOT NULL DEFAULT 0
)""",
    "CREATE INDEX idx_mem_project_type ON memory_items(project_id, type)",
    "CREATE INDEX idx_mem_key          ON memory_items(project_id, key)",
    "CREATE INDEX idx_mem_updated      ON memory_items(project_id, updated_at)",
    """CREATE TABLE view_meta (
  view_name TEXT PRIMARY KEY,
  last_generated TEXT NOT NULL,
  events_count_at_gen INTEGER NOT NULL,
  ttl_seconds INTEGER NOT NULL
)""",
)


def _backfill_memory_search(conn: sqlite3.Connection) -> None:
    rows = conn.execute(
        "SELECT id, type, key, content, tags FROM memory_items WHERE deleted = 0 ORDER BY rowid"
    ).fetchall()
    for memory_id, kind, key, content, tags in rows:
        index_memory_text(
            conn, memory_id, kind=kind, key=key, content=content, tags_json=tags, logged=False
        )


_DATA_V2 = (
    "CREATE INDEX idx_events_hash ON events(project_id, hash)",
    "CREATE INDEX idx_events_unprocessed ON events(project_id, timestamp, id) "
    "WHERE processed_at IS NULL",
    """CREATE TABLE source_cursors (
  project_id TEXT NOT NULL,
  source_tool TEXT NOT NULL,
  path TEXT NOT NULL,
  inode INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  extra TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL,
  PRIMARY KEY (source_tool, path)
)""",
    """CREATE TABLE episode_events (
  episode_id TEXT NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (episode_id, event_id)
)""",
    "CREATE INDEX idx_episode_events_event ON episode_events(event_id)",
    "ALTER TABLE memory_items ADD COLUMN source TEXT NOT NULL DEFAULT 'llm'",
    "ALTER TABLE memory_items ADD COLUMN file_paths TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE memory_items ADD COLUMN superseded_by TEXT",
    "ALTER TABLE memory_items ADD COLUMN version INTEGER NOT NULL DEFAULT 1",
    """CREATE TABLE memory_history (
  memory_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  action TEXT NOT NULL,
  content TEXT NOT NULL,
  tags TEXT NOT NULL,
  importance REAL NOT NULL,
  changed_at TEXT NOT NULL,
  reason TEXT NOT NULL,
  source_event_ids TEXT NOT NULL,
  superseded_by TEXT,
  PRIMARY KEY (memory_id, version)
)""",
    """INSERT INTO memory_history
  SELECT id, version, CASE deleted WHEN 0 THEN 'created' ELSE 'deleted' END, content, tags,
         importance, updated_at, 'recorded when history began', source_event_ids, superseded_by
  FROM memory_items""",
    "CREATE TABLE memory_fts_docs (doc_id INTEGER PRIMARY KEY, memory_id TEXT NOT NULL UNIQUE)",
    "CREATE VIRTUAL TABLE memory_fts USING fts5(key, content, tags, type UNINDEXED, "
    f"tokenize = '{FTS_TOKENIZER}')",
    _backfill_memory_search,
    """CREATE TABLE dead_letters (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  payload_ref TEXT NOT NULL,
  error TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (kind, payload_ref)
)""",
)


def _backfill_event_origins(conn: sqlite3.Connection) -> None:
    """Events stored before origins existed take the default origin of their event type."""
    for event_type in EventType:
        conn.execute(
            "UPDATE events SET origin = ? WHERE origin = '' AND event_type = ?",
            (str(default_origin(event_type)), str(event_type)),
        )


_DATA_V3 = (
    "ALTER TABLE events ADD COLUMN origin TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE events ADD COLUMN sidechain INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE events ADD COLUMN agent_id TEXT",
    _backfill_event_origins,
)

_DATA_V4 = (
    "ALTER TABLE memory_items ADD COLUMN source_refs TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE memory_history ADD COLUMN source_refs TEXT NOT NULL DEFAULT '[]'",
)

_DATA_V5 = (
    "ALTER TABLE memory_items ADD COLUMN written_by TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE memory_history ADD COLUMN written_by TEXT NOT NULL DEFAULT ''",
    "UPDATE memory_items SET written_by = source",
    """UPDATE memory_history SET written_by = COALESCE(
  (SELECT source FROM memory_items WHERE memory_items.id = memory_history.memory_id), '')""",
)


def _rehash_unhashed_keys(conn: sqlite3.Connection) -> None:
    """Events stored while `cwd` was hashed get the hash a re-read of their record gives now."""
    rows = [
        row
        for key in sorted(UNHASHED_CONTENT_KEYS)
        for row in conn.execute(
            "SELECT id, project_id, source_tool, session_id, timestamp, event_type, "
            "content_json, file_paths FROM events WHERE json_extract(content_json, ?) IS NOT NULL",
            (f"$.{key}",),
        )
    ]
    for row in rows:
        fields = HashedFields(
            source_tool=row[2],
            event_type=row[5],
            session_id=row[3],
            timestamp=from_db_time(row[4]),
            file_paths=json_strings(row[7]),
            content=json.loads(row[6]),
        )
        digest = event_hash(row[1], fields)
        conn.execute("UPDATE events SET hash = ? WHERE id = ?", (digest, row[0]))


_DATA_V6 = (_rehash_unhashed_keys,)


def _backfill_memory_paths(conn: sqlite3.Connection) -> None:
    """Index the paths of the live memories already stored (a malformed list indexes nothing)."""
    rows = conn.execute(
        "SELECT id, file_paths, type, importance, updated_at FROM memory_items WHERE deleted = 0"
    ).fetchall()
    conn.executemany(
        "INSERT OR IGNORE INTO memory_paths(path, memory_id, type, importance, updated_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (
            (path, memory_id, kind, importance, updated_at)
            for memory_id, paths, kind, importance, updated_at in rows
            for path in json_strings(paths)
        ),
    )


# Which live memories name a file, with what orders them (type, importance, last update), kept
# by triggers so every write path keeps it right: task context finds the memories of its active
# files here instead of scanning every memory's `file_paths`.
_DATA_V7 = (
    "CREATE TABLE memory_paths (path TEXT NOT NULL, memory_id TEXT NOT NULL, type TEXT NOT NULL, "
    "importance REAL NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (path, memory_id)) "
    "WITHOUT ROWID",
    "CREATE INDEX idx_memory_paths_memory ON memory_paths(memory_id)",
    """CREATE TRIGGER memory_paths_insert AFTER INSERT ON memory_items WHEN NEW.deleted = 0
BEGIN
  INSERT OR IGNORE INTO memory_paths(path, memory_id, type, importance, updated_at)
  SELECT value, NEW.id, NEW.type, NEW.importance, NEW.updated_at
  FROM json_each(NEW.file_paths) WHERE type = 'text';
END""",
    """CREATE TRIGGER memory_paths_update
AFTER UPDATE OF file_paths, deleted, type, importance, updated_at ON memory_items
BEGIN
  DELETE FROM memory_paths WHERE memory_id = OLD.id;
  INSERT OR IGNORE INTO memory_paths(path, memory_id, type, importance, updated_at)
  SELECT value, NEW.id, NEW.type, NEW.importance, NEW.updated_at
  FROM json_each(NEW.file_paths) WHERE type = 'text' AND NEW.deleted = 0;
END""",
    """CREATE TRIGGER memory_paths_delete AFTER DELETE ON memory_items
BEGIN DELETE FROM memory_paths WHERE memory_id = OLD.id; END""",
    _backfill_memory_paths,
    # The most important live memories of a type (style supplement, views) without a sort.
    "CREATE INDEX idx_mem_importance ON memory_items"
    "(project_id, type, importance DESC, updated_at DESC, id) WHERE deleted = 0",
)

# Every doc id added to or removed from `memory_fts_docs`, in commit order, by any connection,
# the last 100,000 of them: an in-memory copy of the search index (`sqlite.lexical`) applies
# what was logged after its state (and rebuilds when that was pruned). Version 9 drops the
# triggers: `index_memory_text` and `unindex_memory_text` log instead (a write to a table with
# a trigger ran in a statement transaction of its own, and indexing a memory took 3x as long).
_DATA_V8 = (
    "CREATE TABLE memory_fts_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, "
    "doc_id INTEGER NOT NULL)",
    """CREATE TRIGGER memory_fts_docs_added AFTER INSERT ON memory_fts_docs
BEGIN
  INSERT INTO memory_fts_changes(doc_id) VALUES (NEW.doc_id);
  DELETE FROM memory_fts_changes WHERE seq <= (SELECT max(seq) FROM memory_fts_changes) - 100000;
END""",
    """CREATE TRIGGER memory_fts_docs_removed AFTER DELETE ON memory_fts_docs
BEGIN
  INSERT INTO memory_fts_changes(doc_id) VALUES (OLD.doc_id);
  DELETE FROM memory_fts_changes WHERE seq <= (SELECT max(seq) FROM memory_fts_changes) - 100000;
END""",
    """CREATE TRIGGER memory_fts_docs_changed AFTER UPDATE ON memory_fts_docs
BEGIN
  INSERT INTO memory_fts_changes(doc_id) VALUES (OLD.doc_id), (NEW.doc_id);
  DELETE FROM memory_fts_changes WHERE seq <= (SELECT max(seq) FROM memory_fts_changes) - 100000;
END""",
)

_DATA_V9 = (
    "DROP TRIGGER memory_fts_docs_added",
    "DROP TRIGGER memory_fts_docs_removed",
    "DROP TRIGGER memory_fts_docs_changed",
)

_DATA_V11 = (
    # The event ids of a parked episode, beside its dead letter: a letter's reference (unique
    # per kind) stays short however many events the episode holds.
    """CREATE TABLE dead_letter_events (
  dead_letter_id INTEGER PRIMARY KEY REFERENCES dead_letters(id) ON DELETE CASCADE,
  event_ids TEXT NOT NULL
)""",
)

_DATA_V12 = (
    # The replies of writes sent with an idempotency key: a retried write answers its first
    # reply; `reply` is NULL while the first call runs.
    """CREATE TABLE kept_replies (
  key TEXT PRIMARY KEY,
  method TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  reply BLOB,
  claimed_at TEXT NOT NULL
)""",
    "CREATE INDEX idx_kept_replies_age ON kept_replies(claimed_at)",
)

# A count of the writes to `memory_items`, raised by triggers so that every connection's writes
# count (another process's too): a search's decoded rows (`sqlite.row_cache`) stay valid while it
# and the search index's change log stay as they were, across writes of events, episodes,
# outcomes and the like. Every write of a memory row already runs the `memory_paths` triggers;
# these add one update of one row.
_DATA_V14 = (
    "CREATE TABLE memory_rows_changed (id INTEGER PRIMARY KEY CHECK (id = 1), "
    "count INTEGER NOT NULL)",
    "INSERT INTO memory_rows_changed(id, count) VALUES (1, 0)",
    """CREATE TRIGGER memory_rows_inserted AFTER INSERT ON memory_items
BEGIN UPDATE memory_rows_changed SET count = count + 1 WHERE id = 1; END""",
    """CREATE TRIGGER memory_rows_updated AFTER UPDATE ON memory_items
BEGIN UPDATE memory_rows_changed SET count = count + 1 WHERE id = 1; END""",
    """CREATE TRIGGER memory_rows_deleted AFTER DELETE ON memory_items
BEGIN UPDATE memory_rows_changed SET count = count + 1 WHERE id = 1; END""",
)

# Who stated each memory with `remember` (each user once, first first): one statement that
# several teammates remembered is one memory with all of them. No writer is guessed for the
# memories stored before: a manual memory of the project did not keep its author.
_DATA_V15 = (
    "ALTER TABLE memory_items ADD COLUMN writers TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE memory_history ADD COLUMN writers TEXT NOT NULL DEFAULT '[]'",
)

DATA_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1, "spec tables: events, episodes, memory_items, view_meta", _DATA_V1, spec_table="events"
    ),
    Migration(
        2,
        "cursors, episode events, memory history and search, dead letters",
        _DATA_V2,
    ),
    Migration(3, "event origin (who said it), subagent marks", _DATA_V3),
    Migration(4, "memory source references (path:line, commit:<sha>)", _DATA_V4),
    Migration(5, "who wrote each memory version (rules, or backend and model)", _DATA_V5),
    Migration(
        6, "event hashes without the shell folder (re-read commands stay one event)", _DATA_V6
    ),
    Migration(7, "memory file paths and importance order indexed", _DATA_V7),
    Migration(8, "search index changes logged (for the in-memory search index)", _DATA_V8),
    Migration(9, "search index changes logged by the writes, not triggers", _DATA_V9),
    Migration(10, "served memories and their outcomes (append-only)", OUTCOME_TABLES),
    Migration(11, "event ids of parked work beside its dead letter", _DATA_V11),
    Migration(12, "replies of writes sent with an idempotency key", _DATA_V12),
    Migration(
        13,
        "event hashes by record kind, not type (re-read events stay one); doubles merged",
        (rehash_events,),
    ),
    Migration(
        14, "writes of memory rows counted (kept search rows outlive other writes)", _DATA_V14
    ),
    Migration(15, "who remembered each memory (each teammate once)", _DATA_V15),
)

_USER_V1 = (
    """CREATE TABLE user_style_items (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  key TEXT NOT NULL,
  content TEXT NOT NULL,
  tags TEXT NOT NULL,
  importance REAL NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  source TEXT NOT NULL
)""",
    "CREATE UNIQUE INDEX idx_user_style_key ON user_style_items(user_id, key)",
)

_USER_V2 = (
    """CREATE TABLE user_style_history (
  item_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  action TEXT NOT NULL,
  user_id TEXT NOT NULL,
  key TEXT NOT NULL,
  content TEXT NOT NULL,
  tags TEXT NOT NULL,
  importance REAL NOT NULL,
  source TEXT NOT NULL,
  changed_at TEXT NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (item_id, version)
)""",
    """INSERT INTO user_style_history
  SELECT id, 1, 'created', user_id, key, content, tags, importance, source, updated_at,
         'recorded when history began'
  FROM user_style_items""",
)

USER_MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "spec table: user_style_items", _USER_V1, spec_table="user_style_items"),
    Migration(2, "user style history", _USER_V2),
)
