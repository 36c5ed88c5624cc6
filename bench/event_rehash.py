"""How long the rehash of every stored event takes (SQLite schema 13, Postgres schema 9).

A store of `--events` events is made as the version before left it: events built from the
fixture transcripts' own (parsed, redacted, signed; each made distinct by a serial number in
its content), one session per 200, half of them processed, every event in an episode (50 each),
and `--doubles` of the command events stored a second time under the other type (a re-read by
a classifier that read them the other way), hashed by the rule that hashed the type; on SQLite,
memories whose source events name both reads. Then the schema's migration runs as a start runs
it and is timed: the events rehashed, the doubles merged into the first stored, what named them
repointed. On Postgres the migration runs in batches of `--batch-rows` while a server of this
version keeps appending one event every 20 ms through its store (from the first batch on); the
longest and the median append are what its writers waited.

Run: nice -n 10 .venv/bin/python -m bench.event_rehash [--events 100000] [--doubles 1000]
[--backends sqlite,postgres] [--batch-rows 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import structlog

from bench.common import Figure, print_table, progress
from bench.parse_fixtures import DEFAULT_ROOT
from bench.postgres_server import local_postgres
from bench.reread_reclassified import patched, read_fixtures
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.kept_text import IDENTITY_KEY
from squirrel_memory import dedup
from squirrel_memory.storage.formats import new_id, to_db_time, to_json
from squirrel_memory.storage.postgres.online import DEFAULT_BATCH_ROWS

_OTHER = {EventType.COMMAND_RUN: EventType.TEST_RUN, EventType.TEST_RUN: EventType.COMMAND_RUN}
T0 = datetime(2026, 6, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Row:
    id: str
    event: Event
    hash: str
    processed: bool


def _rows(project: str, count: int, doubles: int) -> list[Row]:
    """`count` events and `doubles` second reads of command events, hashed by the type."""
    templates = [e for transcript in read_fixtures(DEFAULT_ROOT) for e in transcript]
    rows: list[Row] = []
    left = doubles
    step = max(1, count // max(1, doubles))
    due = 0
    with patched(dedup, "record_kind", str):
        for n in range(count):
            base = templates[n % len(templates)]
            event = replace(
                base,
                # Unsigned, so the serial number makes it distinct (a signature names the
                # template's first form whatever the content holds).
                content={
                    **{k: v for k, v in base.content.items() if k != IDENTITY_KEY},
                    "serial": n,
                },
                session_id=f"s{n // 200}",
                timestamp=T0 + timedelta(seconds=n),
            )
            rows.append(Row(new_id("evt"), event, dedup.event_hash(project, event), n % 2 == 0))
            if left and n >= due and event.event_type in _OTHER:
                again = replace(event, event_type=_OTHER[EventType(event.event_type)])
                rows.append(Row(new_id("evt"), again, dedup.event_hash(project, again), False))
                left, due = left - 1, n + step
    return rows


def _db_row(project: str, row: Row) -> tuple[Any, ...]:
    e = row.event
    return (
        row.id,
        project,
        "me",
        str(e.source_tool),
        e.session_id,
        e.timestamp,
        str(e.event_type),
        json.dumps(e.content),
        list(e.file_paths),
        row.hash,
        e.timestamp if row.processed else None,
        str(e.origin or "assistant"),
    )


_COLUMNS = (
    "id, project_id, user_id, source_tool, session_id, timestamp, event_type, content_json, "
    "file_paths, hash, processed_at, origin"
)


def _episodes(rows: list[Row]) -> Iterator[tuple[str, list[str]]]:
    for start in range(0, len(rows), 50):
        yield f"ep_{start}", [r.id for r in rows[start : start + 50]]


def _sqlite(folder: Path, count: int, doubles: int) -> list[Figure]:
    from squirrel_memory.storage.sqlite.migrator import migrate  # noqa: PLC0415
    from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS  # noqa: PLC0415

    project = str(folder)
    rows = _rows(project, count, doubles)
    db = folder / "data.db"
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        migrate(conn, DATA_MIGRATIONS, target=12)
        conn.execute("BEGIN")
        conn.executemany(
            f"INSERT INTO events ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (
                    *r[:5],
                    to_db_time(r[5]),
                    *r[6:8],
                    to_json(r[8]),
                    r[9],
                    to_db_time(r[10]) if r[10] else None,
                    r[11],
                )
                for r in (_db_row(project, row) for row in rows)
            ),
        )
        for episode, ids in _episodes(rows):
            conn.execute(
                "INSERT INTO episodes VALUES (?, ?, 'me', NULL, ?, ?, ?, '', 0.5, ?)",
                (episode, project, to_db_time(T0), to_db_time(T0), len(ids), to_db_time(T0)),
            )
            conn.executemany(
                "INSERT INTO episode_events VALUES (?, ?, ?)",
                [(episode, i, n) for n, i in enumerate(ids)],
            )
        for n in range(0, len(rows), 20):  # a memory per 20 events, naming 5 of them
            sources = to_json([r.id for r in rows[n : n + 5]])
            conn.execute(
                "INSERT INTO memory_items (id, project_id, scope, type, key, content, tags, "
                "importance, created_at, updated_at, source_event_ids) VALUES "
                "(?, ?, 'project', 'recipe', ?, 'x', '[]', 0.5, ?, ?, ?)",
                (f"mem_{n}", project, f"k{n}", to_db_time(T0), to_db_time(T0), sources),
            )
            conn.execute(
                "INSERT INTO memory_history (memory_id, version, action, content, tags, "
                "importance, changed_at, reason, source_event_ids) VALUES "
                "(?, 1, 'created', 'x', '[]', 0.5, ?, 'r', ?)",
                (f"mem_{n}", to_db_time(T0), sources),
            )
        conn.execute("COMMIT")
        progress("sqlite", f"{len(rows)} events stored; migrating to 13")
        started = time.perf_counter()
        migrate(conn, DATA_MIGRATIONS)
        took = time.perf_counter() - started
        left = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    return _figures("SQLite, schema 12 → 13, one transaction", len(rows), left, took, [])


def _figures(section: str, stored: int, left: int, took: float, waits: list[float]) -> list[Figure]:
    figures = [
        Figure(section, "events before", float(stored), ""),
        Figure(section, "doubles merged", float(stored - left), ""),
        Figure(section, "migration", took, "s"),
        Figure(section, "events per second", stored / took, ""),
    ]
    if waits:
        figures += [
            Figure(section, "appends during it", float(len(waits)), ""),
            Figure(section, "append wait, median", statistics.median(waits), "ms"),
            Figure(section, "append wait, longest", max(waits), "ms"),
        ]
    return figures


async def _postgres(
    dsn: str, root: Path, count: int, doubles: int, batch_rows: int
) -> list[Figure]:
    import psycopg  # noqa: PLC0415
    from psycopg.conninfo import make_conninfo  # noqa: PLC0415

    from squirrel_memory.storage.postgres.database import PostgresDatabase  # noqa: PLC0415
    from squirrel_memory.storage.postgres.schema import migrate  # noqa: PLC0415
    from squirrel_memory.storage.postgres.store import PostgresStore  # noqa: PLC0415

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS rehash_bench")
        conn.execute("CREATE DATABASE rehash_bench")
    target = make_conninfo(dsn, dbname="rehash_bench")
    project = "github.com/acme/shop"
    db = await PostgresDatabase.open(target, max_size=2)  # a server of this version, serving
    store = PostgresStore(project, db, store_dir=root / ".ctx")
    rows = _rows(project, count, doubles)
    with psycopg.connect(target, autocommit=True) as conn:
        conn.execute("DROP INDEX events_author_hash")
        conn.execute(
            "ALTER TABLE events ADD CONSTRAINT events_project_id_hash_key UNIQUE (project_id, hash)"
        )
        conn.execute("DELETE FROM squirrel_schema_version WHERE version = 9")
        with conn.transaction(), conn.cursor() as cur:
            with cur.copy(f"COPY events ({_COLUMNS}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(_db_row(project, row))
            with cur.copy(
                "COPY episodes (id, project_id, user_id, start_ts, end_ts, event_count, "
                "summary, importance, created_at) FROM STDIN"
            ) as copy:
                for episode, ids in _episodes(rows):
                    copy.write_row((episode, project, "me", T0, T0, len(ids), "", 0.5, T0))
            with cur.copy(
                "COPY episode_events (episode_id, event_id, position) FROM STDIN"
            ) as copy:
                for episode, ids in _episodes(rows):
                    for n, i in enumerate(ids):
                        copy.write_row((episode, i, n))
        conn.execute("VACUUM ANALYZE events")
    progress("postgres", f"{len(rows)} events stored; migrating to 9")
    waits: list[float] = []
    done = asyncio.Event()

    async def append_meanwhile() -> None:
        n = 0
        while not done.is_set():
            event = Event(
                SourceTool.CLAUDE_CODE,
                EventType.USER_MESSAGE,
                datetime.now(UTC),
                {"text": f"meanwhile {n}"},
                session_id="live",
            )
            started = time.perf_counter()
            await store.append_events(project, "me", [event], [])
            waits.append((time.perf_counter() - started) * 1000)
            n += 1
            await asyncio.sleep(0.02)

    writers: list[asyncio.Task[None]] = []

    async def first_batch(_upto: str | None) -> None:
        # The writer starts once the unique key its appends name is made (a server appends
        # only once its own start has prepared the migration).
        if not writers:
            writers.append(asyncio.create_task(append_meanwhile()))

    try:
        async with await psycopg.AsyncConnection.connect(target, autocommit=True) as aconn:
            started = time.perf_counter()
            await migrate(aconn, batch_rows=batch_rows, after_batch=first_batch)
            took = time.perf_counter() - started
    finally:
        done.set()
        for writer in writers:
            await writer
        await db.close()
    with psycopg.connect(target) as conn:
        left = conn.execute("SELECT COUNT(*) FROM events WHERE session_id != 'live'").fetchone()
    assert left is not None
    section = f"Postgres, schema 8 → 9, batches of {batch_rows}"
    return _figures(section, len(rows), int(left[0]), took, waits)


def main(argv: list[str] | None = None) -> int:
    """Print one table: per backend, the migration's time and the doubles it merged."""
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--events", type=int, default=100_000)
    options.add_argument("--doubles", type=int, default=1_000)
    options.add_argument("--backends", default="sqlite,postgres")
    options.add_argument("--batch-rows", type=int, default=DEFAULT_BATCH_ROWS)
    options.add_argument("--postgres-dsn", default="")
    args = options.parse_args(argv)
    logging.disable(logging.WARNING)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    load = os.getloadavg()[0]
    figures: list[Figure] = []
    backends = args.backends.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        if "sqlite" in backends:
            folder = Path(tmp) / "sqlite"
            folder.mkdir()
            figures += _sqlite(folder, args.events, args.doubles)
        if "postgres" in backends:
            args.backend = "postgres"
            with local_postgres(args) as dsn:
                figures += asyncio.run(
                    _postgres(dsn, Path(tmp), args.events, args.doubles, args.batch_rows)
                )
    print_table(figures)
    print(f"load (1 min) {load:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
