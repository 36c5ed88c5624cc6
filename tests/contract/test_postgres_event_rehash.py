"""Schema 9 on Postgres: every event hashed by its record kind in batches, one author's record
stored under two types merged into the first stored (whatever named the other repointed), the
same record re-read by a server of this version while the batches run merged too, another
author's event kept; a migration stopped between batches is taken up by the next start."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.dedup import event_hash
from squirrel_memory.storage.postgres.online import CountProgress
from squirrel_memory.storage.postgres.rehash import EventRehash
from squirrel_memory.storage.postgres.schema import EVENT_REHASH, MIGRATIONS, migrate
from tests.conftest import PATIENCE_SECONDS
from tests.unit.memory.test_event_rehash import former_hash

from .test_memory_book import add, candidate
from .test_postgres_search_totals import _open

AT = datetime(2026, 1, 1, 0, 1, tzinfo=UTC)
COMMAND = {"command": "cd test && make", "tool_use_id": "t1", "exit_code": 0, "output": "ok"}
DONE = {"text": "Done."}
LATEST = MIGRATIONS[-1].version


def _as_version_8_left_it(dsn: str, project: str, rows: list[tuple[str, str, str, Any]]) -> None:
    """The events (id, author, type, content) hashed by the former rule, in storing order, the
    first of them processed; the unique key and the version as a server of version 8 left them."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP INDEX events_author_hash")
        conn.execute(
            "ALTER TABLE events ADD CONSTRAINT events_project_id_hash_key UNIQUE (project_id, hash)"
        )
        conn.execute("DELETE FROM squirrel_schema_version WHERE version >= 9")
        for n, (event_id, author, kind, content) in enumerate(rows):
            conn.execute(
                "INSERT INTO events (id, project_id, user_id, source_tool, session_id, "
                "timestamp, event_type, content_json, file_paths, hash, processed_at, origin) "
                "VALUES (%s, %s, %s, 'claude_code', 's', %s, %s, %s, '{}', %s, %s, 'assistant')",
                (
                    event_id,
                    project,
                    author,
                    AT,
                    kind,
                    json.dumps(content),
                    former_hash(kind, content, project),
                    AT if n == 1 else None,
                ),
            )
        conn.execute(
            "INSERT INTO episodes (id, project_id, user_id, session_id, start_ts, end_ts, "
            "event_count, summary, importance, created_at) VALUES "
            "('ep_both', %s, 'alice', 's', %s, %s, 3, '', 0.5, %s)",
            (project, AT, AT, AT),
        )
        for n, event_id in enumerate(("evt_a_first", "evt_z_again", "evt_m_user")):
            conn.execute(
                "INSERT INTO episode_events (episode_id, event_id, position) "
                "VALUES ('ep_both', %s, %s)",
                (event_id, n),
            )


ROWS = [
    ("evt_a_first", "alice", "test_run", COMMAND),
    ("evt_z_again", "alice", "command_run", COMMAND),
    ("evt_m_user", "alice", "user_message", DONE),
    ("evt_n_said", "alice", "assistant_response", DONE),
]


def _state(dsn: str, project: str) -> dict[str, Any]:
    with psycopg.connect(dsn) as conn:
        return {
            "version": conn.execute("SELECT max(version) FROM squirrel_schema_version").fetchone(),
            "events": dict(
                conn.execute(
                    "SELECT id, hash FROM events WHERE project_id = %s", (project,)
                ).fetchall()
            ),
            "processed": dict(
                conn.execute(
                    "SELECT id, processed_at IS NOT NULL FROM events WHERE project_id = %s",
                    (project,),
                ).fetchall()
            ),
            "episode": [
                r[0]
                for r in conn.execute(
                    "SELECT event_id FROM episode_events WHERE episode_id = 'ep_both' "
                    "ORDER BY position"
                )
            ],
            "count": conn.execute("SELECT event_count FROM episodes").fetchone(),
            "memories": sorted(
                r[0] for r in conn.execute("SELECT source_event_ids FROM memory_items")
            ),
            "history": sorted(
                r[0] for r in conn.execute("SELECT source_event_ids FROM memory_history")
            ),
            "progress": conn.execute(
                "SELECT to_regclass(%s) IS NOT NULL", (EVENT_REHASH.progress,)
            ).fetchone(),
        }


async def test_events_stored_twice_are_merged_into_the_first_stored_in_batches(
    database: str, project: str
) -> None:
    db, (store,) = await _open(database, project)  # a server of this version, serving
    try:
        await add(store, candidate("make in test", key="a", events=("evt_z_again", "evt_m_user")))
        await add(store, candidate("make again", key="b", events=("evt_a_first", "evt_z_again")))
        _as_version_8_left_it(database, project, ROWS)
        said = Event(SourceTool.CLAUDE_CODE, EventType.ASSISTANT_RESPONSE, AT, DONE, session_id="s")
        appended: list[str] = []

        async def read_again(upto: str | None) -> None:
            # While the batches run, the server stores a re-read of the assistant's words
            # (today's hash) before the batch holding the first read of them is rehashed.
            if not appended:
                result = await store.append_events(project, "alice", [said], [])
                appended.extend(result.event_ids)

        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
            assert await migrate(conn, batch_rows=2, after_batch=read_again) == LATEST
    finally:
        await db.close()
    state = _state(database, project)
    assert len(appended) == 1
    assert set(state["events"]) == {"evt_a_first", "evt_m_user", "evt_n_said"}
    command = Event(SourceTool.CLAUDE_CODE, EventType.TEST_RUN, AT, COMMAND, session_id="s")
    assert state["events"]["evt_a_first"] == event_hash(project, command)
    assert state["events"]["evt_n_said"] == event_hash(project, said)
    assert state["events"]["evt_m_user"] != state["events"]["evt_n_said"]
    assert state["processed"]["evt_a_first"]
    assert state["episode"] == ["evt_a_first", "evt_m_user"] and state["count"] == (2,)
    assert state["memories"] == [["evt_a_first"], ["evt_a_first", "evt_m_user"]]
    assert state["history"] == state["memories"]
    assert state["version"] == (LATEST,) and state["progress"] == (False,)
    # Read again: the author's own event is stored; another author's same event is theirs.
    db, (store,) = await _open(database, project)
    try:
        again = await store.append_events(project, "alice", [command], [])
        bobs = await store.append_events(project, "bob", [command], [])
    finally:
        await db.close()
    assert (again.accepted, again.duplicates) == (0, 1)
    assert (bobs.accepted, bobs.duplicates) == (1, 0)


class _StoppedError(Exception):
    pass


async def test_a_rehash_stopped_between_batches_is_taken_up_by_the_next_start(
    database: str, project: str
) -> None:
    db, _ = await _open(database, project)
    await db.close()
    _as_version_8_left_it(database, project, ROWS)

    async def stop(upto: str | None) -> None:
        if upto is not None:
            raise _StoppedError

    told: list[CountProgress] = []
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        with pytest.raises(_StoppedError):
            await migrate(conn, batch_rows=2, after_batch=stop, progress=told.append)
    stopped = _state(database, project)
    assert stopped["version"] == (8,) and stopped["progress"] == (True,)
    total = told[0].total
    # How far it is, as a migrating team server tells laptops: before the first batch, after it.
    assert [(p.counted, p.total, p.rows, p.done) for p in told] == [
        (0, total, "events", "rehashed"),
        (2, total, "events", "rehashed"),
    ]
    told.clear()
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        await migrate(conn, batch_rows=2, progress=told.append)  # taken up at its watermark
    assert told[0].counted == 2 and told[-1].counted == told[-1].total >= 2
    assert [p.counted for p in told] == sorted(p.counted for p in told)
    state = _state(database, project)
    assert set(state["events"]) == {"evt_a_first", "evt_m_user", "evt_n_said"}
    assert state["version"] == (LATEST,) and state["progress"] == (False,)
    assert state["episode"] == ["evt_a_first", "evt_m_user"]


async def test_the_progress_counts_the_events_rehashed_never_the_ones_merged_away(
    database: str, project: str
) -> None:
    db, _ = await _open(database, project)
    await db.close()
    # The command stored first has the last id: the double stored after it, rehashed in the
    # first batch, is merged away (after it was counted) by the last batch, into the first.
    first = ("evt_z_again", "alice", "test_run", COMMAND)
    double = ("evt_a_first", "alice", "command_run", COMMAND)
    _as_version_8_left_it(database, project, [first, double, *ROWS[2:]])
    told: list[CountProgress] = []

    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as conn:
        await migrate(conn, batch_rows=1, progress=told.append)

    events = set(_state(database, project)["events"])
    assert events == {"evt_z_again", "evt_m_user", "evt_n_said"}
    assert (told[0].counted, told[0].total) == (0, 4)
    # Never more counted than there are events; at the end, every event left, of them all.
    assert all(p.counted <= p.total for p in told), told
    assert (told[-1].counted, told[-1].total) == (3, 3)
    assert [p.counted for p in told[:-1]] == sorted(p.counted for p in told[:-1])


async def test_a_server_waiting_for_anothers_rehash_says_how_far_that_one_is(
    database: str, project: str
) -> None:
    db, _ = await _open(database, project)
    await db.close()
    _as_version_8_left_it(database, project, ROWS)
    first_batch = asyncio.Event()
    release = asyncio.Event()

    async def held(upto: str | None) -> None:
        if upto is not None and not first_batch.is_set():
            first_batch.set()
            await release.wait()

    told: list[CountProgress] = []
    async with (
        await psycopg.AsyncConnection.connect(database, autocommit=True) as a,
        await psycopg.AsyncConnection.connect(database, autocommit=True) as b,
    ):
        running = asyncio.create_task(migrate(a, batch_rows=2, after_batch=held))
        await asyncio.wait_for(first_batch.wait(), 30)
        waiting = asyncio.create_task(migrate(b, progress=told.append))
        # The waiting one asks every LOCK_POLL_SECONDS; bounded by time, not a count of polls.
        deadline = asyncio.get_running_loop().time() + PATIENCE_SECONDS
        while not told and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert not waiting.done()  # it waits for the lock
        assert (told[0].counted, told[0].rows, told[0].done) == (2, "events", "rehashed")
        assert told[0].total >= 2
        release.set()
        assert await asyncio.wait_for(running, 30) == LATEST
        assert await asyncio.wait_for(waiting, 30) == LATEST  # nothing left for it to do
    assert _state(database, project)["version"] == (LATEST,)


async def test_a_batch_postgres_aborts_to_break_a_deadlock_is_run_again(
    database: str, project: str
) -> None:
    """A server's own write holds an event's row and then waits for the project's append lock,
    which the batch holds while it waits for that row: Postgres aborts the batch (it detects
    the deadlock first here: its `deadlock_timeout` is the shorter), and the batch runs again
    instead of failing the start."""
    db, _ = await _open(database, project)
    await db.close()
    _as_version_8_left_it(database, project, ROWS)
    later = max(r[0] for r in ROWS)  # in the second batch of two
    async with (
        await psycopg.AsyncConnection.connect(database, autocommit=True) as migrating,
        await psycopg.AsyncConnection.connect(database) as writer,
    ):
        # Postgres looks for a deadlock once, `deadlock_timeout` after a wait starts: the
        # batch's look must come after the writer asks for the lock (a loaded machine may take
        # a while between the two), and long before the writer's own.
        await migrating.execute("SET deadlock_timeout = '3s'")
        await writer.execute("SET deadlock_timeout = '120s'")
        await writer.commit()
        holding = asyncio.Event()

        async def hold_a_row(upto: str | None) -> None:
            if upto is not None and not holding.is_set():  # after the first batch
                await writer.execute("SELECT id FROM events WHERE id = %s FOR UPDATE", (later,))
                holding.set()

        running = asyncio.create_task(migrate(migrating, batch_rows=2, after_batch=hold_a_row))
        await asyncio.wait_for(holding.wait(), 30)
        pid = migrating.info.backend_pid
        for _ in range(400):  # until the batch waits for the writer's row
            cursor = await writer.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,)
            )
            row = await cursor.fetchone()
            if row is not None and row[0] == "Lock":
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the batch never waited for the writer's row")
        await writer.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (project,))
        await writer.commit()  # the batch was aborted: the writer got the lock and is done
        assert await asyncio.wait_for(running, 30) == LATEST
    state = _state(database, project)
    assert state["version"] == (LATEST,)
    assert set(state["events"]) == {"evt_a_first", "evt_m_user", "evt_n_said"}


def test_the_rehash_is_the_last_step_of_its_version() -> None:
    [rehash] = [m for m in MIGRATIONS if m.version == 9]
    assert isinstance(rehash.online, EventRehash) and not rehash.statements
