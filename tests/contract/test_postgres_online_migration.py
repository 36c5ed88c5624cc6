"""The migration to schema version 8 counts the memories already there in batches while servers
keep writing: writes go through between batches, and the words' counts it leaves equal a recount
of every live memory, with writers changing rows above and below the watermark as it moves, a
migration stopped midway taken up by the next start."""

from __future__ import annotations

import asyncio
import threading
import uuid

import psycopg
import pytest

from squirrel_memory.storage.postgres.online import CountProgress
from squirrel_memory.storage.postgres.schema import MIGRATIONS, current_version, migrate
from squirrel_memory.storage.postgres.search_words import BACKFILL, SEARCH_WORDS_ONLINE

from .test_memory_book import add, candidate
from .test_postgres_search_totals import _agree, _fill, _open, _waiting

LATEST = MIGRATIONS[-1].version
_BACK_TO_7 = (
    "DROP TABLE memory_search_words",
    "DROP FUNCTION memory_search_words_moved() CASCADE",
    "DELETE FROM squirrel_schema_version WHERE version >= 8",  # and the versions after it
)
# A copy of a memory under a new id and key: a row the writers insert without the store.
_COPY = (
    "INSERT INTO memory_items SELECT * FROM jsonb_populate_record(NULL::memory_items, "
    "(SELECT to_jsonb(m) || jsonb_build_object('id', %s::text, 'key', %s::text) "
    "FROM memory_items m WHERE id = %s))"
)


def _back_to_7(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        for statement in _BACK_TO_7:
            conn.execute(statement)


def _version_and_backfill(dsn: str) -> tuple[int, bool]:
    with psycopg.connect(dsn) as conn:
        row = conn.execute(
            "SELECT (SELECT max(version) FROM squirrel_schema_version), "
            "to_regclass(%s) IS NOT NULL",
            (BACKFILL,),
        ).fetchone()
    assert row is not None
    return int(row[0]), bool(row[1])


async def test_writes_go_through_between_batches_and_the_counts_equal_a_recount(
    database: str, project: str, other_project: str
) -> None:
    # A server of version 7 keeps writing while a server of version 8 migrates.
    db, (store, other) = await _open(database, project, other_project)
    try:
        ids = await _fill(store, 30, "gradle")
        await _fill(other, 12, "composer")
        _back_to_7(database)
        marks: list[str | None] = []

        async def write_between(upto: str | None) -> None:
            marks.append(upto)
            n = len(marks)
            # Each write commits while the migration is under way (a lock held across batches
            # would stop it here); they touch rows on both sides of the watermark.
            await asyncio.wait_for(add(store, candidate(f"gradle wrapper {n}", key=f"w{n}")), 30)
            if n < len(ids):
                await asyncio.wait_for(store.forget(ids[-n], "gone"), 30)
                await asyncio.wait_for(
                    store.correct(
                        ids[n - 1],
                        content=f"gradle build --offline {n}",
                        importance=None,
                        reason="x",
                    ),
                    30,
                )

        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
            assert await migrate(conn, batch_rows=4, after_batch=write_between) == LATEST
            assert await current_version(conn) == LATEST
        assert len(marks) > 10 and marks[-1] is None  # many batches, the last to the end
        assert _version_and_backfill(database) == (LATEST, False)
        assert _agree(database, project, other_project)[1] == 12
        await _fill(store, 2, "after")  # the final triggers count on
        _agree(database, project, other_project)
    finally:
        await db.close()


def _writer(
    dsn: str, ids: list[str], rounds: int, seed: int, failures: list[BaseException]
) -> None:
    """Inserts, corrections, forgets, un-forgets and deletions, one transaction each."""
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            for n in range(rounds):
                memory_id = ids[(seed * 7 + n * 5) % len(ids)]
                step = n % 5
                if step == 0:
                    conn.execute(_COPY, (str(uuid.uuid4()), f"copy_{seed}_{n}", memory_id))
                elif step == 1:
                    conn.execute(
                        "UPDATE memory_items SET search = to_tsvector('english', %s) WHERE id = %s",
                        (f"maven surefire round {n} of {seed}", memory_id),
                    )
                elif step == 2:
                    conn.execute(
                        "UPDATE memory_items SET deleted = NOT deleted WHERE id = %s", (memory_id,)
                    )
                elif step == 3:
                    with conn.transaction():  # two statements in one transaction
                        conn.execute(_COPY, (str(uuid.uuid4()), f"pair_{seed}_{n}", memory_id))
                        conn.execute(
                            "UPDATE memory_items SET importance = importance WHERE id = %s",
                            (memory_id,),
                        )
                else:
                    conn.execute(
                        "DELETE FROM memory_items WHERE key LIKE 'copy%%' AND id = "
                        "(SELECT id FROM memory_items WHERE key LIKE 'copy%%' ORDER BY id LIMIT 1)"
                    )
    except BaseException as error:
        failures.append(error)


async def test_concurrent_writers_lose_and_double_nothing(
    database: str, project: str, other_project: str
) -> None:
    db, (store, other) = await _open(database, project, other_project)
    try:
        ids = await _fill(store, 40, "php")
        ids += await _fill(other, 20, "artisan")
    finally:
        await db.close()
    _back_to_7(database)
    failures: list[BaseException] = []
    writers = [
        threading.Thread(target=_writer, args=(database, ids, 60, seed, failures))
        for seed in range(3)
    ]
    for writer in writers:
        writer.start()
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        await migrate(conn, batch_rows=3)
    for writer in writers:
        writer.join()
    assert failures == []
    assert _version_and_backfill(database) == (LATEST, False)
    _agree(database, project, other_project)


class _StoppedError(Exception):
    pass


async def _filled_at_7(database: str, project: str, memories: int) -> list[str]:
    """The ids of `memories` memories written, the database then taken back to version 7."""
    db, (store,) = await _open(database, project)
    try:
        ids = await _fill(store, memories, "docker")
    finally:
        await db.close()
    _back_to_7(database)
    return ids


async def test_a_migration_stopped_midway_is_taken_up_by_the_next_start(
    database: str, project: str
) -> None:
    ids = await _filled_at_7(database, project, 20)

    async def stop_after_three(upto: str | None) -> None:
        if upto is not None and upto >= sorted(ids)[8]:
            raise _StoppedError

    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        with pytest.raises(_StoppedError):
            await migrate(conn, batch_rows=3, after_batch=stop_after_three)
    assert _version_and_backfill(database) == (7, True)
    with psycopg.connect(database) as conn:  # writes meanwhile, on both sides of the watermark
        conn.execute("UPDATE memory_items SET deleted = true WHERE id = ANY(%s)", (ids[::3],))
    db, (store,) = await _open(database, project)  # the next start finishes the count
    try:
        assert _version_and_backfill(database) == (LATEST, False)
        assert _agree(database, project) == [13]
        await store.forget(ids[1], "gone")
        assert _agree(database, project) == [12]
    finally:
        await db.close()


async def test_the_count_tells_how_far_it_is_and_a_count_taken_up_starts_where_it_stopped(
    database: str, project: str
) -> None:
    ids = await _filled_at_7(database, project, 11)
    told: list[CountProgress] = []

    async def stop_after_two(upto: str | None) -> None:
        if len(told) == 3:
            raise _StoppedError

    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        with pytest.raises(_StoppedError):
            await migrate(conn, batch_rows=4, after_batch=stop_after_two, progress=told.append)
    assert told == [CountProgress(0, 11), CountProgress(4, 11), CountProgress(8, 11)]
    told.clear()
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        assert await migrate(conn, batch_rows=4, progress=told.append) == LATEST
    counted = [p for p in told if p.rows == "memories"]  # then schema 9 rehashes the events
    assert counted == [CountProgress(8, 11), CountProgress(11, 11)]  # the last batch: 3 left
    assert {(p.rows, p.done) for p in told[len(counted) :]} == {("events", "rehashed")}
    assert _version_and_backfill(database) == (LATEST, False)
    assert _agree(database, project) == [len(ids)]


async def test_a_writer_queued_behind_a_batch_is_let_through_not_failed(
    database: str, project: str
) -> None:
    db, (store,) = await _open(database, project)
    try:
        a, b, c = await _fill(store, 3, "maven")
    finally:
        await db.close()
    _back_to_7(database)

    async def stop(_upto: str | None) -> None:
        raise _StoppedError

    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        with pytest.raises(_StoppedError):  # counting, the triggers in their counting form
            await migrate(conn, batch_rows=1, after_batch=stop)
    writer = psycopg.connect(database)  # holds the count's lock shared, not the totals row
    other = psycopg.connect(database, autocommit=True)
    batch = psycopg.connect(database)
    failures: list[BaseException] = []

    def run(conn: psycopg.Connection, sql: str, params: tuple[str, ...]) -> None:
        try:
            conn.execute(sql, params)
            conn.commit()
        except BaseException as error:
            failures.append(error)
            conn.rollback()

    try:
        writer.execute("UPDATE memory_items SET importance = importance WHERE id = %s", (a,))
        lock = "SELECT pg_advisory_xact_lock(%s)"
        turns = [
            (batch, lock, (str(SEARCH_WORDS_ONLINE.lock_key),)),
            (other, "UPDATE memory_items SET deleted = true WHERE id = %s", (b,)),
        ]
        threads = []
        for conn, sql, params in turns:  # a batch waits; a writer of the project behind it
            thread = threading.Thread(target=run, args=(conn, sql, params))
            thread.start()
            threads.append(thread)
            while thread.is_alive() and not _waiting(database, conn.info.backend_pid):
                await asyncio.sleep(0.01)
        # The writer now needs the project's totals row, held by the writer queued behind.
        writer.execute("UPDATE memory_items SET deleted = true WHERE id = %s", (c,))
        writer.commit()
        for thread in threads:
            thread.join()
    finally:
        for conn in (writer, other, batch):
            conn.close()
    assert failures == []
    db, _ = await _open(database)  # the next start finishes the count
    await db.close()
    assert _agree(database, project) == [1]
