"""A team server's database written by the oldest schema Squirrel has shipped for Postgres
(version 1, built here with its own DDL and rows) is brought to this version on open, and
nothing is lost: the events wait to be processed, the memory reads, searches and keeps its
history."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest

from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.schema import MIGRATIONS, current_version, migrate
from squirrel_memory.storage.postgres.store import PostgresStore

OLDEST = MIGRATIONS[:1]
WHEN = "2026-01-01T00:00:00Z"

EVENT = (
    "INSERT INTO events (id, project_id, user_id, source_tool, session_id, timestamp,"
    " event_type, content_json, file_paths, hash, processed_at, origin)"
    " VALUES ('evt_old', %s, 'alice', 'claude_code', 's1', %s, 'user_message', %s,"
    " ARRAY['src/api.py'], 'hash-of-v1', NULL, 'user')"
)
MEMORY = (
    "INSERT INTO memory_items (id, project_id, user_id, scope, type, key, content, tags,"
    " importance, created_at, updated_at, source, file_paths, source_episode_id,"
    " source_event_ids, version, source_refs, written_by, search)"
    " VALUES ('mem_old', %s, NULL, 'project', 'project_fact', 'framework',"
    " 'The API uses FastAPI with SQLAlchemy', ARRAY['python'], 0.7, %s, %s, 'manual',"
    " ARRAY['src/api.py'], NULL, ARRAY['evt_old'], 1, ARRAY[]::text[], 'manual',"
    # As version 1 wrote it: key, tags and content weighted A, B and C.
    " setweight(to_tsvector('english', 'framework'), 'A')"
    " || setweight(to_tsvector('english', 'python'), 'B')"
    " || setweight(to_tsvector('english', 'The API uses FastAPI with SQLAlchemy'), 'C'))"
)
HISTORY = (
    "INSERT INTO memory_history (memory_id, version, action, content, tags, importance,"
    " changed_at, reason, source_event_ids, superseded_by, source_refs, written_by)"
    " VALUES ('mem_old', 1, 'added', 'The API uses FastAPI with SQLAlchemy', ARRAY['python'],"
    " 0.7, %s, 'remembered by the user', ARRAY['evt_old'], NULL, ARRAY[]::text[], 'manual')"
)


@pytest.fixture
async def oldest(database: str, project: str) -> AsyncIterator[str]:
    """A database at schema version 1 holding one event, one memory and its history."""
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        assert await migrate(conn, OLDEST) == 1
        await conn.execute(EVENT, (project, WHEN, json.dumps({"text": "use SQLAlchemy"})))
        await conn.execute(MEMORY, (project, WHEN, WHEN))
        await conn.execute(HISTORY, (WHEN,))
    yield database


async def test_the_oldest_schema_is_upgraded_on_open_and_loses_nothing(
    oldest: str, project: str
) -> None:
    database = await PostgresDatabase.open(oldest, max_size=2)
    store = PostgresStore(project, database, store_dir=Path(project) / ".ctx")
    try:
        async with database.transaction() as conn:
            assert await current_version(conn) == MIGRATIONS[-1].version
        item = await store.get_memory("mem_old")
        assert (item.content, item.version, item.deleted) == (
            "The API uses FastAPI with SQLAlchemy",
            1,
            False,
        )
        assert item.file_paths == ("src/api.py",)
        assert [(v.version, v.reason) for v in await store.history("mem_old")] == [
            (1, "remembered by the user")
        ]
        assert [hit[0] for hit in await store.search_fts(project, "sqlalchemy")] == ["mem_old"]
        assert await store.count_events(project) == 1
        (event,) = await store.get_events(["evt_old"])
        assert (event.session_id, event.processed_at) == ("s1", None)
    finally:
        await store.close()
        await database.close()


async def test_opening_it_again_changes_nothing(oldest: str, project: str) -> None:
    for _ in range(2):
        database = await PostgresDatabase.open(oldest, max_size=2)
        await database.close()
    async with await psycopg.AsyncConnection.connect(oldest, autocommit=True) as conn:
        cursor = await conn.execute("SELECT COUNT(*) FROM squirrel_schema_version")
        assert await cursor.fetchone() == (len(MIGRATIONS),)
        cursor = await conn.execute("SELECT COUNT(*) FROM memory_history")
        assert await cursor.fetchone() == (1,)
