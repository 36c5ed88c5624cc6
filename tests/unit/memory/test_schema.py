"""data.db and user.db layouts: the spec's tables exactly, our additions, and migrations."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_core.errors import FailedPreconditionError
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.dedup import canonical_json, event_hash, normalise_content
from squirrel_memory.models import MemoryType, Scope
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.migrator import (
    Migration,
    SchemaVersionError,
    current_version,
    migrate,
)
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS, USER_MIGRATIONS
from squirrel_memory.user_memories.userstore import SqliteUserStore

SPEC_COLUMNS = {
    "events": [
        ("id", "TEXT", 0, 1),
        ("project_id", "TEXT", 1, 0),
        ("user_id", "TEXT", 1, 0),
        ("source_tool", "TEXT", 1, 0),
        ("session_id", "TEXT", 0, 0),
        ("timestamp", "TEXT", 1, 0),
        ("event_type", "TEXT", 1, 0),
        ("content_json", "TEXT", 1, 0),
        ("file_paths", "TEXT", 1, 0),
        ("hash", "TEXT", 1, 0),
        ("processed_at", "TEXT", 0, 0),
    ],
    "episodes": [
        ("id", "TEXT", 0, 1),
        ("project_id", "TEXT", 1, 0),
        ("user_id", "TEXT", 1, 0),
        ("session_id", "TEXT", 0, 0),
        ("start_ts", "TEXT", 1, 0),
        ("end_ts", "TEXT", 1, 0),
        ("event_count", "INTEGER", 1, 0),
        ("summary", "TEXT", 1, 0),
        ("importance", "REAL", 1, 0),
        ("created_at", "TEXT", 1, 0),
    ],
    "memory_items": [
        ("id", "TEXT", 0, 1),
        ("project_id", "TEXT", 1, 0),
        ("user_id", "TEXT", 0, 0),
        ("scope", "TEXT", 1, 0),
        ("type", "TEXT", 1, 0),
        ("key", "TEXT", 1, 0),
        ("content", "TEXT", 1, 0),
        ("tags", "TEXT", 1, 0),
        ("importance", "REAL", 1, 0),
        ("created_at", "TEXT", 1, 0),
        ("updated_at", "TEXT", 1, 0),
        ("source_episode_id", "TEXT", 0, 0),
        ("source_event_ids", "TEXT", 1, 0),
        ("embedding", "BLOB", 0, 0),
        ("graph_neighbors", "TEXT", 0, 0),
        ("deleted", "INTEGER", 1, 0),
    ],
    "view_meta": [
        ("view_name", "TEXT", 0, 1),
        ("last_generated", "TEXT", 1, 0),
        ("events_count_at_gen", "INTEGER", 1, 0),
        ("ttl_seconds", "INTEGER", 1, 0),
    ],
}
SPEC_INDEXES = {
    "idx_events_project_time": ("events", ["project_id", "timestamp"], 0),
    "idx_events_processed": ("events", ["project_id", "processed_at"], 0),
    "idx_events_session": ("events", ["project_id", "session_id"], 0),
    "idx_episodes_project_time": ("episodes", ["project_id", "start_ts"], 0),
    "idx_mem_project_type": ("memory_items", ["project_id", "type"], 0),
    "idx_mem_key": ("memory_items", ["project_id", "key"], 0),
    "idx_mem_updated": ("memory_items", ["project_id", "updated_at"], 0),
}
# The spec's SQL, verbatim apart from comments: what a spec-conforming `sqrl init` makes.
SPEC_SQL = [
    "CREATE TABLE events (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, user_id TEXT NOT NULL,"
    " source_tool TEXT NOT NULL, session_id TEXT, timestamp TEXT NOT NULL,"
    " event_type TEXT NOT NULL, content_json TEXT NOT NULL, file_paths TEXT NOT NULL,"
    " hash TEXT NOT NULL, processed_at TEXT NULL)",
    "CREATE TABLE episodes (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, user_id TEXT NOT NULL,"
    " session_id TEXT, start_ts TEXT NOT NULL, end_ts TEXT NOT NULL, event_count INTEGER NOT NULL,"
    " summary TEXT NOT NULL, importance REAL NOT NULL, created_at TEXT NOT NULL)",
    "CREATE TABLE memory_items (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, user_id TEXT,"
    " scope TEXT NOT NULL, type TEXT NOT NULL, key TEXT NOT NULL, content TEXT NOT NULL,"
    " tags TEXT NOT NULL, importance REAL NOT NULL, created_at TEXT NOT NULL,"
    " updated_at TEXT NOT NULL, source_episode_id TEXT, source_event_ids TEXT NOT NULL,"
    " embedding BLOB, graph_neighbors TEXT, deleted INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE view_meta (view_name TEXT PRIMARY KEY, last_generated TEXT NOT NULL,"
    " events_count_at_gen INTEGER NOT NULL, ttl_seconds INTEGER NOT NULL)",
]
LEGACY_MEMORY = (
    "INSERT INTO memory_items (id, project_id, user_id, scope, type, key, content, tags,"
    " importance, created_at, updated_at, source_episode_id, source_event_ids)"
    " VALUES ('mem_legacy', ?, NULL, 'project', 'project_fact', 'framework',"
    " 'The API uses FastAPI with SQLAlchemy', '[\"python\"]', 0.7,"
    " '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', NULL, '[\"evt_1\"]')"
)


@contextlib.contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        yield conn
    finally:
        conn.close()


def columns(conn: sqlite3.Connection, table: str) -> list[tuple[str, str, int, int]]:
    return [(r[1], r[2], r[3], r[5]) for r in conn.execute(f"PRAGMA table_info({table})")]


@pytest.fixture
async def store_path(tmp_path: Path) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    store = await SqliteStore.open(str(project))
    await store.close()
    return store.path


@pytest.mark.parametrize("table", sorted(SPEC_COLUMNS))
async def test_spec_tables_have_the_spec_columns_in_order(store_path: Path, table: str) -> None:
    with raw(store_path) as conn:
        found = columns(conn, table)
    assert found[: len(SPEC_COLUMNS[table])] == SPEC_COLUMNS[table]


async def test_episodes_and_view_meta_have_no_extra_columns(store_path: Path) -> None:
    with raw(store_path) as conn:
        for table in ("episodes", "view_meta"):
            assert columns(conn, table) == SPEC_COLUMNS[table]


async def test_events_extra_columns_follow_the_spec_ones(store_path: Path) -> None:
    with raw(store_path) as conn:
        extra = columns(conn, "events")[len(SPEC_COLUMNS["events"]) :]
    assert extra == [
        ("origin", "TEXT", 1, 0),
        ("sidechain", "INTEGER", 1, 0),
        ("agent_id", "TEXT", 0, 0),
    ]


async def test_v2_events_get_the_origin_of_their_type(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".ctx").mkdir(parents=True)
    db = project / ".ctx" / "data.db"
    with raw(db) as conn:
        assert migrate(conn, DATA_MIGRATIONS, target=2) == 2
        for n, kind in enumerate(("user_message", "tool_call", "tool_result", "commit")):
            conn.execute(
                "INSERT INTO events VALUES (?, ?, 'u', 'claude_code', 's', "
                "'2026-01-01T00:00:00Z', ?, '{}', '[]', ?, NULL)",
                (f"evt_{n}", str(project), kind, f"h{n}"),
            )
    store = await SqliteStore.open(str(project))
    try:
        events = await store.get_events([f"evt_{n}" for n in range(4)])
    finally:
        await store.close()
    assert {e.event_type: (e.origin, e.sidechain, e.agent_id) for e in events} == {
        "user_message": ("typed", False, None),
        "tool_call": ("assistant", False, None),
        "tool_result": ("tool_result", False, None),
        "commit": ("git", False, None),
    }
    with raw(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM events WHERE origin = ''").fetchone() == (0,)


async def test_v5_command_events_are_rehashed_so_a_reread_matches_them(tmp_path: Path) -> None:
    # Version 5 hashed the shell folder (`cwd`) of command events; the hash no longer does, so
    # a record re-read after a cursor reset must find the stored copy under the new hash.
    project = tmp_path / "proj"
    (project / ".ctx").mkdir(parents=True)
    db = project / ".ctx" / "data.db"
    at = datetime(2026, 1, 1, tzinfo=UTC)
    command = {"command": "mix test", "tool_use_id": "t1", "exit_code": 0, "cwd": "/w/assets"}
    old_struct = {
        "project_id": str(project),
        "source_tool": "claude_code",
        "event_type": "test_run",
        "session_id": "s",
        "timestamp_bucket": "2026-01-01T00:00:00Z",
        "file_paths": [],
        "content_signature": hashlib.sha256(
            canonical_json(normalise_content(command)).encode()
        ).hexdigest(),
    }
    old_hash = hashlib.sha256(canonical_json(old_struct).encode()).hexdigest()
    with raw(db) as conn:
        assert migrate(conn, DATA_MIGRATIONS, target=5) == 5
        for n, (kind, content, digest) in enumerate(
            [("test_run", command, old_hash), ("user_message", {"text": "hi"}, "kept")]
        ):
            conn.execute(
                "INSERT INTO events (id, project_id, user_id, source_tool, session_id, timestamp,"
                " event_type, content_json, file_paths, hash, origin) VALUES "
                "(?, ?, 'u', 'claude_code', 's', '2026-01-01T00:00:00Z', ?, ?, '[]', ?, 'typed')",
                (f"evt_{n}", str(project), kind, json.dumps(content), digest),
            )
    store = await SqliteStore.open(str(project))
    try:
        reread = Event(SourceTool.CLAUDE_CODE, EventType.TEST_RUN, at, command, session_id="s")
        result = await store.append_events(str(project), "u", [reread], [])
    finally:
        await store.close()
    assert result.duplicates == 1 and not result.event_ids
    with raw(db) as conn:
        hashes = dict(conn.execute("SELECT id, hash FROM events").fetchall())
    # Schema 13 hashed every event again (the message's hash is its content's now).
    said = Event(SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, at, {"text": "hi"}, session_id="s")
    assert hashes == {
        "evt_0": event_hash(str(project), reread),
        "evt_1": event_hash(str(project), said),
    }
    assert hashes["evt_0"] != old_hash


async def test_memory_items_extra_columns_follow_the_spec_ones(store_path: Path) -> None:
    with raw(store_path) as conn:
        extra = columns(conn, "memory_items")[len(SPEC_COLUMNS["memory_items"]) :]
    assert [c[0] for c in extra] == [
        "source",
        "file_paths",
        "superseded_by",
        "version",
        "source_refs",
        "written_by",
        "writers",
    ]


async def test_spec_indexes_exist_with_the_spec_columns(store_path: Path) -> None:
    with raw(store_path) as conn:
        for name, (table, cols, unique) in SPEC_INDEXES.items():
            listed = {r[1]: r[2] for r in conn.execute(f"PRAGMA index_list({table})")}
            assert listed.get(name) == unique, name
            assert [r[2] for r in conn.execute(f"PRAGMA index_info({name})")] == cols


async def test_added_tables_exist(store_path: Path) -> None:
    with raw(store_path) as conn:
        assert [c[0] for c in columns(conn, "source_cursors")] == [
            "project_id",
            "source_tool",
            "path",
            "inode",
            "offset",
            "extra",
            "updated_at",
        ]
        assert [c[0] for c in columns(conn, "memory_history")] == [
            "memory_id",
            "version",
            "action",
            "content",
            "tags",
            "importance",
            "changed_at",
            "reason",
            "source_event_ids",
            "superseded_by",
            "source_refs",
            "written_by",
            "writers",
        ]
        for table in ("episode_events", "dead_letters", "memory_fts", "schema_version"):
            assert columns(conn, table), table
        assert current_version(conn) == DATA_MIGRATIONS[-1].version


async def test_database_uses_wal(store_path: Path) -> None:
    with raw(store_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_user_db_has_the_spec_table_and_unique_index(tmp_path: Path) -> None:
    store = await SqliteUserStore.open(tmp_path / "home")
    await store.close()
    with raw(store.path) as conn:
        assert columns(conn, "user_style_items") == [
            ("id", "TEXT", 0, 1),
            ("user_id", "TEXT", 1, 0),
            ("key", "TEXT", 1, 0),
            ("content", "TEXT", 1, 0),
            ("tags", "TEXT", 1, 0),
            ("importance", "REAL", 1, 0),
            ("created_at", "TEXT", 1, 0),
            ("updated_at", "TEXT", 1, 0),
            ("source", "TEXT", 1, 0),
        ]
        indexes = {r[1]: r[2] for r in conn.execute("PRAGMA index_list(user_style_items)")}
        assert indexes["idx_user_style_key"] == 1
        assert [r[2] for r in conn.execute("PRAGMA index_info(idx_user_style_key)")] == [
            "user_id",
            "key",
        ]
        assert current_version(conn) == USER_MIGRATIONS[-1].version


async def test_v1_database_is_upgraded_on_open_and_keeps_its_rows(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".ctx").mkdir(parents=True)
    db = project / ".ctx" / "data.db"
    with raw(db) as conn:
        assert migrate(conn, DATA_MIGRATIONS, target=1) == 1
        conn.execute(LEGACY_MEMORY, (str(project),))
    store = await SqliteStore.open(str(project))
    try:
        item = await store.get_memory("mem_legacy")
        assert item.content == "The API uses FastAPI with SQLAlchemy"
        assert (item.version, item.source, item.file_paths, item.source_refs) == (1, "llm", (), ())
        history = await store.history("mem_legacy")
        assert [(v.version, v.source_refs) for v in history] == [(1, ())]
        hits = await store.search_fts(str(project), "sqlalchemy")
        assert [h[0] for h in hits] == ["mem_legacy"]
    finally:
        await store.close()
    with raw(db) as conn:
        assert current_version(conn) == DATA_MIGRATIONS[-1].version


async def test_v1_user_db_is_upgraded_on_open_and_keeps_the_users_style(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    with raw(home / "user.db") as conn:
        assert migrate(conn, USER_MIGRATIONS, target=1) == 1
        conn.execute(
            "INSERT INTO user_style_items VALUES ('sty_1', 'alice', 'style:indent', "
            "'Indents with four spaces', '[\"python\"]', 0.6, ?, ?, 'rules')",
            ("2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"),
        )
    store = await SqliteUserStore.open(home)
    try:
        (item,) = await store.list_user_style("alice")
        assert (item.key, item.content, item.importance) == (
            "style:indent",
            "Indents with four spaces",
            0.6,
        )
    finally:
        await store.close()
    with raw(home / "user.db") as conn:
        assert current_version(conn) == USER_MIGRATIONS[-1].version


async def test_database_made_from_spec_sql_alone_is_recognised_and_upgraded(
    tmp_path: Path,
) -> None:
    project = tmp_path / "proj"
    (project / ".ctx").mkdir(parents=True)
    with raw(project / ".ctx" / "data.db") as conn:
        for statement in SPEC_SQL:
            conn.execute(statement)
        conn.execute(LEGACY_MEMORY, (str(project),))
    store = await SqliteStore.open(str(project))
    try:
        found = await store.find_anchor(
            str(project), MemoryType.PROJECT_FACT, "framework", Scope.PROJECT, None
        )
        assert [m.id for m in found] == ["mem_legacy"]
    finally:
        await store.close()


async def test_newer_database_is_refused_and_left_untouched(store_path: Path) -> None:
    with raw(store_path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'future', '2030-01-01T00:00:00Z')")
    project = store_path.parent.parent
    with pytest.raises(SchemaVersionError) as caught:
        await SqliteStore.open(str(project))
    assert isinstance(caught.value, FailedPreconditionError)
    assert (caught.value.found, caught.value.supported) == (99, DATA_MIGRATIONS[-1].version)
    with raw(store_path) as conn:
        assert current_version(conn) == 99


async def test_file_that_is_not_a_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".ctx").mkdir(parents=True)
    junk = b"this is not sqlite" * 100
    (project / ".ctx" / "data.db").write_bytes(junk)
    with pytest.raises(FailedPreconditionError):
        await SqliteStore.open(str(project))
    assert (project / ".ctx" / "data.db").read_bytes() == junk


def test_failed_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    def explode(conn: sqlite3.Connection) -> None:
        raise RuntimeError("step failed")

    broken = (
        DATA_MIGRATIONS[0],
        Migration(2, "adds a table then fails", ("CREATE TABLE half_done (x)", explode)),
    )
    with raw(tmp_path / "data.db") as conn:
        with pytest.raises(RuntimeError):
            migrate(conn, broken)
        assert current_version(conn) == 1
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "half_done" not in tables
        assert migrate(conn, DATA_MIGRATIONS) == DATA_MIGRATIONS[-1].version


def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    with raw(tmp_path / "data.db") as conn:
        first = migrate(conn, DATA_MIGRATIONS)
        rows = conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0]
        assert migrate(conn, DATA_MIGRATIONS) == first
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == rows
