"""The Postgres schema: versioned migrations, applied once under an advisory lock.

Every table carries `project_id`: one database holds every project of a team. Lists of strings
are `text[]`, times `timestamptz`; memory text is searched through `search` (a `tsvector` with a
GIN index) and embeddings live in `memory_vectors` (pgvector, an HNSW index per dimension,
created by `vectors.PgVectorIndex`).
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from dataclasses import dataclass
from functools import partial

import psycopg
from psycopg import AsyncConnection

from squirrel_memory.storage.postgres.online import (
    DEFAULT_BATCH_ROWS,
    AfterBatch,
    CountProgress,
    OnlineCount,
    Progress,
    count_online,
    where_it_stands,
)
from squirrel_memory.storage.postgres.outcomes import OUTCOME_TABLES
from squirrel_memory.storage.postgres.rehash import EventRehash, rehash_online
from squirrel_memory.storage.postgres.rehash import where_it_stands as rehash_stands
from squirrel_memory.storage.postgres.search_totals import SEARCH_TOTALS
from squirrel_memory.storage.postgres.search_words import SEARCH_WORDS_ONLINE
from squirrel_memory.storage.sqlite.migrator import SchemaVersionError

# Text search configuration: English stemming and stop words (SQLite uses the Porter stemmer).
TS_CONFIG = "english"
_LOCK_KEY = 0x5371_726C  # one advisory lock id for every Squirrel migration


@dataclass(frozen=True, slots=True)
class PgMigration:
    """One schema version: the statements that take the previous version to it."""

    version: int
    description: str
    statements: tuple[str, ...]
    online: OnlineCount | EventRehash | None = None
    """Work over every row done in batches while servers keep writing: rows derived from every
    memory counted (`online.count_online`), every event hashed again (`rehash.rehash_online`);
    such a migration's `statements` are empty (its `prepare` holds them)."""


_V1 = (
    """CREATE TABLE events (
  id text PRIMARY KEY,
  project_id text NOT NULL,
  user_id text NOT NULL,
  source_tool text NOT NULL,
  session_id text,
  timestamp timestamptz NOT NULL,
  event_type text NOT NULL,
  content_json text NOT NULL,
  file_paths text[] NOT NULL,
  hash text NOT NULL,
  processed_at timestamptz,
  origin text NOT NULL,
  sidechain boolean NOT NULL DEFAULT false,
  agent_id text,
  UNIQUE (project_id, hash)
)""",
    "CREATE INDEX events_project_time ON events (project_id, timestamp, id)",
    "CREATE INDEX events_unprocessed ON events (project_id, timestamp, id) "
    "WHERE processed_at IS NULL",
    """CREATE TABLE source_cursors (
  project_id text NOT NULL,
  source_tool text NOT NULL,
  path text NOT NULL,
  inode bigint NOT NULL,
  "offset" bigint NOT NULL,
  extra text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, source_tool, path)
)""",
    """CREATE TABLE episodes (
  id text PRIMARY KEY,
  project_id text NOT NULL,
  user_id text NOT NULL,
  session_id text,
  start_ts timestamptz NOT NULL,
  end_ts timestamptz NOT NULL,
  event_count integer NOT NULL,
  summary text NOT NULL,
  importance double precision NOT NULL,
  created_at timestamptz NOT NULL
)""",
    """CREATE TABLE episode_events (
  episode_id text NOT NULL REFERENCES episodes (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  position integer NOT NULL,
  PRIMARY KEY (episode_id, event_id)
)""",
    """CREATE TABLE memory_items (
  id text PRIMARY KEY,
  project_id text NOT NULL,
  user_id text,
  scope text NOT NULL,
  type text NOT NULL,
  key text NOT NULL,
  content text NOT NULL,
  tags text[] NOT NULL,
  importance double precision NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  source text NOT NULL,
  file_paths text[] NOT NULL,
  source_episode_id text,
  source_event_ids text[] NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  superseded_by text,
  version integer NOT NULL,
  source_refs text[] NOT NULL,
  written_by text NOT NULL,
  search tsvector
)""",
    "CREATE INDEX memory_items_anchor ON memory_items (project_id, key, type)",
    "CREATE INDEX memory_items_updated ON memory_items (project_id, updated_at DESC, id DESC)",
    "CREATE INDEX memory_items_search ON memory_items USING gin (search)",
    "CREATE INDEX memory_items_paths ON memory_items USING gin (file_paths)",
    "CREATE INDEX memory_items_sources ON memory_items USING gin (source_event_ids)",
    """CREATE TABLE memory_history (
  memory_id text NOT NULL,
  version integer NOT NULL,
  action text NOT NULL,
  content text NOT NULL,
  tags text[] NOT NULL,
  importance double precision NOT NULL,
  changed_at timestamptz NOT NULL,
  reason text NOT NULL,
  source_event_ids text[] NOT NULL,
  superseded_by text,
  source_refs text[] NOT NULL,
  written_by text NOT NULL,
  PRIMARY KEY (memory_id, version)
)""",
    """CREATE TABLE view_meta (
  project_id text NOT NULL,
  view_name text NOT NULL,
  last_generated timestamptz NOT NULL,
  events_count_at_gen bigint NOT NULL,
  ttl_seconds bigint NOT NULL,
  PRIMARY KEY (project_id, view_name)
)""",
    """CREATE TABLE dead_letters (
  id bigserial PRIMARY KEY,
  project_id text NOT NULL,
  kind text NOT NULL,
  payload_ref text NOT NULL,
  error text NOT NULL,
  attempts integer NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (project_id, kind, payload_ref)
)""",
)

_V2 = (
    "CREATE EXTENSION IF NOT EXISTS vector",
    """CREATE TABLE memory_vectors (
  memory_id text PRIMARY KEY,
  project_id text NOT NULL,
  model_id text NOT NULL,
  dim integer NOT NULL,
  embedding vector NOT NULL
)""",
    "CREATE INDEX memory_vectors_project ON memory_vectors (project_id, model_id, dim)",
)

_V3 = (
    # The order events were stored in, for delivering them onwards (`events_after`).
    "ALTER TABLE events ADD COLUMN seq bigserial",
    "CREATE INDEX events_project_seq ON events (project_id, seq)",
)

_V5 = (
    # The event ids of a parked episode, beside its dead letter: a letter's reference (in the
    # unique index) stays short however many events the episode holds.
    """CREATE TABLE dead_letter_events (
  dead_letter_id bigint PRIMARY KEY REFERENCES dead_letters(id) ON DELETE CASCADE,
  event_ids text[] NOT NULL
)""",
)

_V6 = (
    # The replies of writes sent with an idempotency key (`kept_replies`): a retried write
    # answers its first reply; `reply` is NULL while the first call runs.
    """CREATE TABLE kept_replies (
  project_id text NOT NULL,
  key text NOT NULL,
  method text NOT NULL,
  fingerprint text NOT NULL,
  reply bytea,
  claimed_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, key)
)""",
    "CREATE INDEX kept_replies_age ON kept_replies (project_id, claimed_at)",
)

# Who stated each memory with `remember` (each user once, first first): one statement that
# several teammates remembered is one memory with all of them (none guessed for older ones).
_V10 = (
    "ALTER TABLE memory_items ADD COLUMN IF NOT EXISTS writers text[] NOT NULL DEFAULT '{}'",
    "ALTER TABLE memory_history ADD COLUMN IF NOT EXISTS writers text[] NOT NULL DEFAULT '{}'",
)

# An event is a duplicate only of one its own author stored (a teammate's event, whatever it
# claims, never suppresses another's); every event hashed by its record kind, not its type.
EVENT_REHASH = EventRehash(
    progress="event_rehash_progress",
    prepare=(
        "CREATE UNIQUE INDEX IF NOT EXISTS events_author_hash ON events "
        "(project_id, user_id, hash)",
        "ALTER TABLE events DROP CONSTRAINT IF EXISTS events_project_id_hash_key",
    ),
)

MIGRATIONS: tuple[PgMigration, ...] = (
    PgMigration(1, "events, cursors, episodes, memories with history and search, upkeep", _V1),
    PgMigration(2, "memory vectors (pgvector)", _V2),
    PgMigration(3, "event positions in storing order", _V3),
    PgMigration(4, "served memories and their outcomes (append-only)", OUTCOME_TABLES),
    PgMigration(5, "event ids of parked work beside its dead letter", _V5),
    PgMigration(6, "replies of writes sent with an idempotency key", _V6),
    PgMigration(
        7, "live memories and their indexed length per project, kept by triggers", SEARCH_TOTALS
    ),
    PgMigration(
        8,
        "live memories holding each word per project, kept by triggers",
        (),
        online=SEARCH_WORDS_ONLINE,
    ),
    PgMigration(
        9,
        "event hashes by record kind, not type, doubles merged; duplicates of one's own events",
        (),
        online=EVENT_REHASH,
    ),
    PgMigration(10, "who remembered each memory (each teammate once)", _V10),
)

_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS squirrel_schema_version (version integer PRIMARY KEY, "
    "description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
)


async def current_version(conn: AsyncConnection) -> int:
    """The newest schema version applied (0 for an empty database)."""
    cursor = await conn.execute("SELECT to_regclass('squirrel_schema_version') IS NOT NULL")
    row = await cursor.fetchone()
    if row is None or not row[0]:
        return 0
    cursor = await conn.execute("SELECT COALESCE(MAX(version), 0) FROM squirrel_schema_version")
    found = await cursor.fetchone()
    return int(found[0]) if found else 0


async def _versioned(conn: AsyncConnection, migration: PgMigration) -> None:
    await conn.execute(
        "INSERT INTO squirrel_schema_version (version, description) VALUES (%s, %s)",
        (migration.version, migration.description),
    )


async def _offline(
    conn: AsyncConnection, migrations: tuple[PgMigration, ...]
) -> tuple[int, PgMigration | None]:
    """In one transaction: check the version, apply every missing migration up to the first
    that counts online; (the version reached, that migration or None)."""
    async with conn.transaction():
        await conn.execute(_VERSION_TABLE)
        found = await current_version(conn)
        supported = migrations[-1].version if migrations else 0
        if found > supported:
            raise SchemaVersionError(found=found, supported=supported)
        for migration in migrations:
            if migration.version <= found:
                continue
            if migration.online is not None:
                return found, migration
            for statement in migration.statements:
                await conn.execute(statement)
            await _versioned(conn, migration)
            found = migration.version
        for migration in migrations:  # a count stopped after its version row, before its drop
            if migration.online is not None:
                await conn.execute(f"DROP TABLE IF EXISTS {migration.online.progress}")
    return found, None


LOCK_POLL_SECONDS = 0.5
"""How often a server waiting for another one's migration asks for the lock."""
PROGRESS_EVERY_POLLS = 10
"""A waiting server asks how far the other one is at its first poll and then every this many
polls (about every 5 seconds): the question counts every row the migration goes over (all the
events, all the memories), beside the migration itself."""


async def _locked(conn: AsyncConnection) -> bool:
    """Whether this session took the migration lock (without waiting for it)."""
    cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (_LOCK_KEY,))
    row = await cursor.fetchone()
    return row is not None and bool(row[0])


async def _take_lock(
    conn: AsyncConnection, migrations: tuple[PgMigration, ...], progress: Progress | None
) -> None:
    """The migration lock; while another server holds it, `progress` is told how far that
    server's count or rehash is (its progress row), so this one says it too."""
    polls = 0
    while not await _locked(conn):
        if progress is not None and polls % PROGRESS_EVERY_POLLS == 0:
            stands = await _another_ones_progress(conn, migrations)
            if stands is not None:
                progress(stands)
        polls += 1
        await asyncio.sleep(LOCK_POLL_SECONDS)


async def _another_ones_progress(
    conn: AsyncConnection, migrations: tuple[PgMigration, ...]
) -> CountProgress | None:
    """How far the online step another server runs is, or None (none runs, or it is not far
    enough to have made its progress row)."""
    for migration in migrations:
        online = migration.online
        if online is None:
            continue
        cursor = await conn.execute("SELECT to_regclass(%s) IS NOT NULL", (online.progress,))
        found = await cursor.fetchone()
        if found is None or not found[0]:
            continue
        try:
            if isinstance(online, EventRehash):
                return await rehash_stands(conn, online)
            return await where_it_stands(conn, online)
        except psycopg.errors.UndefinedTable:  # dropped between the two questions: done
            return None
    return None


async def migrate(
    conn: AsyncConnection,
    migrations: tuple[PgMigration, ...] = MIGRATIONS,
    *,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    after_batch: AfterBatch | None = None,
    progress: Progress | None = None,
) -> int:
    """Apply the missing migrations; return the version reached. `conn` is in autocommit,
    outside a transaction: each step commits on its own.

    A session advisory lock makes concurrent servers (of this version or an older one) wait
    for each other; a database written by a newer Squirrel raises `SchemaVersionError` and is
    left untouched. The migrations before one that counts online go in one transaction (one
    that fails leaves the schema as it was); a count runs in batches of `batch_rows` memories
    while other servers write (`online`), and a count stopped midway is taken up by the next
    start. The version row of such a migration is written by its last step; `progress` is told
    how far its count is (`online.count_online`).
    """
    await _take_lock(conn, migrations, progress)
    try:
        while True:
            _reached, counting = await _offline(conn, migrations)
            if counting is None or counting.online is None:
                break
            step = counting

            async def versioned(c: AsyncConnection, step: PgMigration = step) -> None:
                await _versioned(c, step)

            online = counting.online
            run = (
                partial(rehash_online, conn, online, versioned)
                if isinstance(online, EventRehash)
                else partial(count_online, conn, online, versioned)
            )
            await run(batch_rows=batch_rows, after_batch=after_batch, progress=progress)
    finally:
        with suppress(psycopg.Error):  # a broken connection released it already
            await conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
    return migrations[-1].version if migrations else 0
