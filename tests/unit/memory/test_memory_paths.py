"""Which memories name a file: the `memory_paths` table its triggers keep, and its lookups."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.database import connect
from squirrel_memory.storage.sqlite.migrator import migrate
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS

USER = "alice"


def candidate(key: str, files: tuple[str, ...], importance: float = 0.5) -> MemoryCandidate:
    return MemoryCandidate(
        type=MemoryType.PITFALL,
        key=key,
        content=f"Something about {key}",
        tags=(),
        importance=importance,
        file_paths=files,
    )


async def add(store: SqliteStore, key: str, *files: str, importance: float = 0.5) -> MemoryItem:
    decision = UpdateDecision(UpdateAction.ADD_NEW, candidate(key, files, importance))
    item = await store.apply_decision(decision, user_id=USER)
    assert item is not None
    return item


def path_rows(db: Path) -> set[tuple[str, str]]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return {
            (str(p), str(m)) for p, m in conn.execute("SELECT path, memory_id FROM memory_paths")
        }


async def test_writes_keep_the_path_table_right(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    db = tmp_path / ".ctx" / "data.db"
    try:
        a = await add(store, "a", "src/app.py", "src/db.py")
        b = await add(store, "b", "src/app.py", importance=0.9)
        c = await add(store, "c")
        assert path_rows(db) == {("src/app.py", a.id), ("src/db.py", a.id), ("src/app.py", b.id)}
        found = await store.memories_with_paths(store.project_id, ["src/app.py", "nope.py"])
        assert [m.id for m in found] == [b.id, a.id]  # most important first
        assert [m.id for m in await store.memories_with_paths(store.project_id, ["src/db.py"])] == [
            a.id
        ]
        moved = UpdateDecision(
            UpdateAction.UPDATE_EXISTING, candidate("a", ("lib/new.py",)), target_id=a.id
        )
        updated = await store.apply_decision(moved, user_id=USER)
        assert updated is not None and "lib/new.py" in updated.file_paths
        assert path_rows(db) == {(p, a.id) for p in updated.file_paths} | {("src/app.py", b.id)}
        found = await store.memories_with_paths(store.project_id, ["lib/new.py"])
        assert [m.id for m in found] == [a.id]
        await store.forget(b.id, "wrong")
        await store.forget(a.id, "wrong")
        assert path_rows(db) == set()
        assert await store.memories_with_paths(store.project_id, ["src/app.py"]) == []
        assert c.id not in {m for _, m in path_rows(db)}
        restored, _ = await store.correct(a.id, content=None, importance=None, reason="back")
        assert path_rows(db) == {(p, a.id) for p in restored.file_paths}
    finally:
        await store.close()


async def test_odd_and_hostile_paths_are_plain_values(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        odd = ["100%_done.py", 'quote".py', "back\\slash.py", "ünï/cödé.py", "x" * 4000]
        item = await add(store, "odd", *odd)
        for path in odd:
            found = await store.memories_with_paths(store.project_id, [path])
            assert [m.id for m in found] == [item.id]
        for near_miss in ["100%", "%", "_", "quote", "ünï", "x" * 3999]:
            assert await store.memories_with_paths(store.project_id, [near_miss]) == []
    finally:
        await store.close()


async def test_a_store_from_before_the_table_is_backfilled(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        live = await add(store, "live", "src/app.py")
        gone = await add(store, "gone", "src/app.py")
        await store.forget(gone.id, "x")
    finally:
        await store.close()
    db = tmp_path / ".ctx" / "data.db"
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        # Back to version 6's shape (the one before memory_paths), with one malformed path list
        # among the rows.
        conn.execute("ALTER TABLE memory_items DROP COLUMN writers")  # version 15
        conn.execute("ALTER TABLE memory_history DROP COLUMN writers")
        for trigger in ("inserted", "updated", "deleted"):  # version 14
            conn.execute(f"DROP TRIGGER memory_rows_{trigger}")
        conn.execute("DROP TABLE memory_rows_changed")
        conn.execute("DROP TABLE kept_replies")  # version 12
        conn.execute("DROP TABLE dead_letter_events")  # version 11
        conn.execute("DROP TABLE memory_outcomes")  # version 10
        conn.execute("DROP TABLE served_memories")
        conn.execute("DROP TABLE memory_fts_changes")  # version 9 dropped its triggers
        for trigger in ("insert", "update", "delete"):
            conn.execute(f"DROP TRIGGER memory_paths_{trigger}")
        conn.execute("DROP TABLE memory_paths")
        conn.execute("DROP INDEX idx_mem_importance")
        conn.execute("DELETE FROM schema_version WHERE version >= 7")
        conn.execute(
            "INSERT INTO memory_items (id, project_id, user_id, scope, type, key, content, tags,"
            " importance, created_at, updated_at, source, file_paths, source_event_ids)"
            " SELECT 'mem_bad', project_id, user_id, scope, type, 'bad', 'x', '[]', 0.1,"
            " created_at, updated_at, source, 'not json', '[]' FROM memory_items LIMIT 1"
        )
    with contextlib.closing(connect(db, migrations=DATA_MIGRATIONS)) as conn:
        assert migrate(conn, DATA_MIGRATIONS) == DATA_MIGRATIONS[-1].version
    assert path_rows(db) == {("src/app.py", live.id)}
    store = await SqliteStore.open(str(tmp_path))
    try:
        found = await store.memories_with_paths(store.project_id, ["src/app.py"])
        assert [m.id for m in found] == [live.id]
    finally:
        await store.close()


async def test_a_memory_naming_several_paths_counts_once_and_types_filter(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        both = await add(store, "both", "a.py", "b.py", importance=0.9)
        only_a = await add(store, "only-a", "a.py", importance=0.5)
        only_b = await add(store, "only-b", "b.py", importance=0.1)
        found = await store.memories_with_paths(store.project_id, ["a.py", "b.py"], limit=2)
        assert [m.id for m in found] == [both.id, only_a.id]
        everything = await store.memories_with_paths(store.project_id, ["b.py", "a.py", "a.py"])
        assert [m.id for m in everything] == [both.id, only_a.id, only_b.id]
        assert (
            await store.memories_with_paths(store.project_id, ["a.py"], [MemoryType.RECIPE]) == []
        )
        pitfalls = await store.memories_with_paths(store.project_id, ["b.py"], [MemoryType.PITFALL])
        assert [m.id for m in pitfalls] == [both.id, only_b.id]
    finally:
        await store.close()
