"""How long the migration to schema version 8 holds a team server's Postgres, at growing sizes.

For one project at each of `--sizes` memories (loaded with `COPY`, `team_batch.loaded_project`),
the database is taken back to version 7 (the words' counts table, its function and triggers
dropped, the version row deleted, as a server of the version before left it), a checkpoint is
made, and version 8 is reached each of two ways in turn: `offline`, every memory counted in one
transaction (what version 8 did before it counted online: `_OFFLINE`), and
`online`, the product's `schema.migrate` as a server's start runs it (the memories counted in
batches of `--batch-rows`, `online.count_online`). While it runs, a writer on a connection of its
own sets one memory's importance to itself (which fires the update triggers) and commits, every
10 ms from the start to the end of the migration: the longest and the median time a write took,
and how many went through, are what the servers' memory writes waited. A read (a project's 10
newest memories) starts 0.2 s in and is timed, and the locks the migrating connection holds on
`memory_items` 0.3 s in are read from `pg_locks`. Prints the migration's time, the WAL it wrote,
the word rows it counted and their table's size, and the waits. `--repeats` times per size (the
version taken back between them); `--work-mem` also runs each way with that `work_mem`.

Run: nice -n 10 .venv/bin/python -m bench.team_migration [--sizes 100000,250000] [--repeats 2]
[--ways offline,online] [--batch-rows 2000] [--work-mem 256MB]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import Figure, progress
from bench.team_batch import loaded_project, run_sizes
from squirrel_memory.storage.postgres.online import DEFAULT_BATCH_ROWS
from squirrel_memory.storage.postgres.schema import MIGRATIONS, migrate
from squirrel_memory.storage.postgres.search_words import BACKFILL, FUNCTION, TABLE, TRIGGERS

#: The words' counts made in one transaction (every memory counted while the table's lock is
#: held): what schema version 8 ran before it counted online.
_OFFLINE = (
    TABLE,
    FUNCTION,
    *TRIGGERS,
    "INSERT INTO memory_search_words (project_id, lexeme, docs) "
    "SELECT project_id, lexeme, count(*) FROM memory_items, "
    "unnest(tsvector_to_array(search)) AS lexeme WHERE NOT deleted GROUP BY project_id, lexeme",
)

_BACK_TO_7 = (
    f"DROP TABLE IF EXISTS {BACKFILL}",
    "DROP TABLE memory_search_words",
    "DROP FUNCTION memory_search_words_moved() CASCADE",
    "DELETE FROM squirrel_schema_version WHERE version >= 8",
)
_READ = (
    "SELECT id FROM memory_items WHERE project_id = %s AND NOT deleted "
    "ORDER BY updated_at DESC, id DESC LIMIT 10"
)
_WRITE = "UPDATE memory_items SET importance = importance WHERE id = %s"
_VERSION_8 = "INSERT INTO squirrel_schema_version (version, description) VALUES (%s, %s)"
_LOCKS = (
    "SELECT string_agg(DISTINCT mode, ', ' ORDER BY mode) FROM pg_locks "
    "WHERE pid = %s AND relation = 'memory_items'::regclass"
)


def _probe(dsn: str, sql: str, params: tuple[Any, ...], delay: float, out: list[float]) -> None:
    """`sql` on a connection of its own, `delay` s from now, rolled back; its time in `out`."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(dsn) as conn:
        time.sleep(delay)
        started = time.perf_counter()
        conn.execute(sql, params)
        out.append((time.perf_counter() - started) * 1000)
        conn.rollback()


def _writer(dsn: str, ids: list[str], done: threading.Event, out: list[float]) -> None:
    """One memory write committed every 10 ms until `done`; each one's time (ms) in `out`."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(dsn, autocommit=True) as conn:
        n = 0
        while not done.is_set():
            started = time.perf_counter()
            conn.execute(_WRITE, (ids[n % len(ids)],))
            out.append((time.perf_counter() - started) * 1000)
            n += 1
            time.sleep(0.01)


def _locks(dsn: str, pid: int, delay: float, out: list[str]) -> None:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(dsn, autocommit=True) as conn:
        time.sleep(delay)
        row = conn.execute(_LOCKS, (pid,)).fetchone()
        out.append(str(row[0]) if row and row[0] else "none")


async def _to_version_8(conn: Any, way: str, work_mem: str, batch_rows: int) -> None:
    if way == "offline":  # every memory counted in one transaction, the table locked throughout
        async with conn.transaction():
            if work_mem:
                await conn.execute(f"SET LOCAL work_mem = '{work_mem}'")
            for statement in _OFFLINE:
                await conn.execute(statement)
            await conn.execute(_VERSION_8, (8, MIGRATIONS[7].description))
        return
    if work_mem:
        await conn.execute(f"SET work_mem = '{work_mem}'")
    assert await migrate(conn, MIGRATIONS[:8], batch_rows=batch_rows) == 8


async def _migrate_once(
    dsn: str, project_id: str, ids: list[str], way: str, work_mem: str, batch_rows: int
) -> dict[str, float | str]:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(dsn, autocommit=True) as conn:
        for statement in _BACK_TO_7:
            conn.execute(statement)
        conn.execute("CHECKPOINT")
        lsn = conn.execute("SELECT pg_current_wal_insert_lsn()").fetchone()[0]  # type: ignore[index]
    reads: list[float] = []
    writes: list[float] = []
    locks: list[str] = []
    done = threading.Event()
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        probes = [
            threading.Thread(target=_probe, args=(dsn, _READ, (project_id,), 0.2, reads)),
            threading.Thread(target=_writer, args=(dsn, ids, done, writes)),
            threading.Thread(target=_locks, args=(dsn, conn.info.backend_pid, 0.3, locks)),
        ]
        for probe in probes:
            probe.start()
        started = time.perf_counter()
        try:
            await _to_version_8(conn, way, work_mem, batch_rows)
        finally:
            took = time.perf_counter() - started
            done.set()
            for probe in probes:
                probe.join()
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), %s), "
            "(SELECT count(*) FROM memory_search_words), "
            "pg_total_relation_size('memory_search_words'), "
            "(SELECT max(version) FROM squirrel_schema_version)",
            (lsn,),
        ).fetchone()
    assert row is not None and row[3] == 8, row
    return {
        "migration to version 8": took,
        "WAL written": float(row[0]) / 2**20,
        "word rows counted": float(row[1]),
        "memory_search_words on disk": float(row[2]) / 2**20,
        "a read of memory_items began 0.2 s in, took": reads[0] if reads else float("nan"),
        "longest a memory write waited": max(writes) if writes else float("nan"),
        "median memory write": statistics.median(writes) if writes else float("nan"),
        "memory writes during the migration": float(len(writes)),
        "locks": locks[0] if locks else "none",
    }


_UNITS = {
    "migration to version 8": "s",
    "WAL written": "MiB",
    "word rows counted": "rows",
    "memory_search_words on disk": "MiB",
    "memory writes during the migration": "writes",
}


async def scenario(base_dsn: str, root: Path, size: int, args: argparse.Namespace) -> list[Figure]:
    import psycopg  # noqa: PLC0415

    backend, store, dsn = await loaded_project(base_dsn, root, f"migrate_{size}", size)
    section = f"1 x {size:,}"
    figures: list[Figure] = []
    try:
        with psycopg.connect(dsn) as conn:
            rows = conn.execute(
                "SELECT id FROM memory_items ORDER BY md5(id) LIMIT 1000"
            ).fetchall()
        ids = [str(r[0]) for r in rows]
        assert ids
        memories = ["", args.work_mem] if args.work_mem else [""]
        ways = [w for w in args.ways.split(",") if w]
        for repeat in range(args.repeats):
            for way in ways:
                for work_mem in memories:
                    found = await _migrate_once(
                        dsn, store.project_id, ids, way, work_mem, args.batch_rows
                    )
                    note = (
                        f"{way}, run {repeat + 1}, work_mem {work_mem or 'default'}; "
                        f"locks 0.3 s in: {found['locks']}"
                    )
                    progress(section, f"{note}: {found}")
                    for label, value in found.items():
                        if label == "locks":
                            continue
                        assert isinstance(value, float)
                        unit = _UNITS.get(label, "ms")
                        figures.append(Figure(section, f"{way}: {label}", value, unit, note))
    finally:
        await backend.close()
    return figures


def main(argv: list[str] | None = None) -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", default="100000,250000", help="memories in the project")
    options.add_argument("--repeats", type=int, default=2)
    options.add_argument("--work-mem", default="", help="also migrate with this work_mem")
    options.add_argument("--ways", default="offline,online", help="offline, online")
    options.add_argument("--batch-rows", type=int, default=DEFAULT_BATCH_ROWS)
    options.add_argument("--postgres-dsn", default="")
    run_sizes(options.parse_args(argv), scenario)


if __name__ == "__main__":
    main()
