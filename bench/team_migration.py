"""How long the migration to schema version 8 holds a team server's Postgres, at growing sizes.

For one project at each of `--sizes` memories (loaded with `COPY`, `team_batch.loaded_project`),
the database is taken back to version 7 (the words' counts table, its function and triggers
dropped, the version row deleted, as a server of the version before left it), a checkpoint is
made, and the product's `schema.migrate` brings it to version 8 in one transaction, as a
server's start does. While it runs, two other connections each start, 0.2 s in, what a server
does to `memory_items`: a read (a project's 10 newest memories) and a write (one memory's
importance set to itself, which fires the update triggers); each one's wait is timed, and the
locks the migrating transaction holds on `memory_items` are read from `pg_locks`. Prints the
migration's time, the WAL it wrote, the word rows it counted and their table's size, and both
waits. `--repeats` times per size (the version taken back between them); `--work-mem` also
runs it with that `work_mem` for the migrating transaction (`SET LOCAL`), in turn.

Run: nice -n 10 .venv/bin/python -m bench.team_migration [--sizes 100000,250000] [--repeats 2]
[--work-mem 256MB]
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import Figure, progress
from bench.team_batch import loaded_project, run_sizes
from squirrel_memory.storage.postgres.schema import migrate

_BACK_TO_7 = (
    "DROP TABLE memory_search_words",
    "DROP FUNCTION memory_search_words_moved() CASCADE",
    "DELETE FROM squirrel_schema_version WHERE version = 8",
)
_READ = (
    "SELECT id FROM memory_items WHERE project_id = %s AND NOT deleted "
    "ORDER BY updated_at DESC, id DESC LIMIT 10"
)
_WRITE = "UPDATE memory_items SET importance = importance WHERE id = %s"
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


def _locks(dsn: str, pid: int, delay: float, out: list[str]) -> None:
    import psycopg  # noqa: PLC0415

    with psycopg.connect(dsn, autocommit=True) as conn:
        time.sleep(delay)
        row = conn.execute(_LOCKS, (pid,)).fetchone()
        out.append(str(row[0]) if row and row[0] else "none")


async def _migrate_once(
    dsn: str, project_id: str, memory_id: str, work_mem: str
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
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        probes = [
            threading.Thread(target=_probe, args=(dsn, _READ, (project_id,), 0.2, reads)),
            threading.Thread(target=_probe, args=(dsn, _WRITE, (memory_id,), 0.2, writes)),
            threading.Thread(target=_locks, args=(dsn, conn.info.backend_pid, 0.3, locks)),
        ]
        started = time.perf_counter()
        async with conn.transaction():
            if work_mem:
                await conn.execute(f"SET LOCAL work_mem = '{work_mem}'")
            for probe in probes:
                probe.start()
            version = await migrate(conn)
        took = time.perf_counter() - started
    for probe in probes:
        probe.join()
    assert version == 8, version
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), %s), "
            "(SELECT count(*) FROM memory_search_words), "
            "pg_total_relation_size('memory_search_words')",
            (lsn,),
        ).fetchone()
    assert row is not None
    return {
        "migration to version 8": took,
        "WAL written": float(row[0]) / 2**20,
        "word rows counted": float(row[1]),
        "memory_search_words on disk": float(row[2]) / 2**20,
        "a read of memory_items began 0.2 s in, took": reads[0] if reads else float("nan"),
        "a write to memory_items began 0.2 s in, waited": writes[0] if writes else float("nan"),
        "locks": locks[0] if locks else "none",
    }


_UNITS = {
    "migration to version 8": "s",
    "WAL written": "MiB",
    "word rows counted": "rows",
    "memory_search_words on disk": "MiB",
}


async def scenario(base_dsn: str, root: Path, size: int, args: argparse.Namespace) -> list[Figure]:
    import psycopg  # noqa: PLC0415

    backend, store, dsn = await loaded_project(base_dsn, root, f"migrate_{size}", size)
    section = f"1 x {size:,}"
    figures: list[Figure] = []
    try:
        with psycopg.connect(dsn) as conn:
            row = conn.execute("SELECT id FROM memory_items LIMIT 1").fetchone()
        assert row is not None
        ways = ["", args.work_mem] if args.work_mem else [""]
        for repeat in range(args.repeats):
            for work_mem in ways:
                found = await _migrate_once(dsn, store.project_id, str(row[0]), work_mem)
                note = (
                    f"run {repeat + 1}, work_mem {work_mem or 'default'}; locks: {found['locks']}"
                )
                progress(section, f"{note}: {found}")
                for label, value in found.items():
                    if label == "locks":
                        continue
                    assert isinstance(value, float)
                    figures.append(Figure(section, label, value, _UNITS.get(label, "ms"), note))
    finally:
        await backend.close()
    return figures


def main(argv: list[str] | None = None) -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", default="100000,250000", help="memories in the project")
    options.add_argument("--repeats", type=int, default=2)
    options.add_argument("--work-mem", default="", help="also migrate with this work_mem")
    options.add_argument("--postgres-dsn", default="")
    run_sizes(options.parse_args(argv), scenario)


if __name__ == "__main__":
    main()
