"""The part of a schema migration that runs while servers keep writing: counting rows in batches.

A migration that derives rows from every memory (the words' counts of schema version 8) used to
count them in the migrating transaction, which held `SHARE ROW EXCLUSIVE` on `memory_items` (it
creates the triggers) until its commit: every memory write of every server waited for the whole
count, seconds per 100,000 memories. Here it runs in steps, each its own short transaction:

1. **prepare**: the derived table, a progress row (`counted_to = ''`, `done = false`), the
   counting function and its triggers. Creating the triggers takes the table's lock for as long
   as the transactions already writing take to commit, then lets writes go.
2. **batches** of `batch_rows` memories in the order of their id, each adding the rows' counts
   and moving the progress row to the last id it counted (the last batch sets `done`).
3. **finish**: the counting function replaced by its final form and the version row written;
   then the progress table is dropped.

The triggers and the batches partition the memories by that watermark, so nothing is counted
twice or missed: a trigger counts only the rows whose id is at or below `counted_to` (every
row once `done`), and a batch counts the committed rows above it. They take turns through one
advisory lock: each trigger takes it shared (until its transaction commits) before it reads the
watermark, and each batch takes it exclusively before it reads anything. So a batch waits for
every transaction whose trigger read the old watermark to commit, and counts their rows as
committed; a trigger that fires while a batch runs waits for its commit, then reads the new
watermark and counts the change to the rows the batch counted as they were before it. A write
waits at most for one batch. The writers must read at `READ COMMITTED` (the server's, psycopg's
and Postgres's default), so that the trigger's read of the watermark sees the batch's commit.
A writer whose transaction already holds the lock from an earlier statement may wait on a row
(a project's totals) held by another writer queued behind a batch; the queued writer's shared
request is compatible with the held one, so Postgres's deadlock check (after `deadlock_timeout`,
1 s by default) lets it go first rather than fail one of them: that write waits about a second.

A migration stopped between steps (its server killed) is taken up where it stopped by the next
server's start: the progress row says how far it counted, and the version row is written only
by the last step, so every server still finds the version it must reach.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from psycopg import AsyncConnection

DEFAULT_BATCH_ROWS = 2000
"""Memories counted per batch: a write waits at most for one batch."""


@dataclass(frozen=True, slots=True)
class OnlineCount:
    """A derived table counted from `memory_items` in batches while servers keep writing.

    `prepare` makes the table, the progress table `progress` (one row: `counted_to`, `done`),
    the function and the triggers that count a change to a row counted so far; `batch` adds the
    counts of the rows with `%(after)s < id <= %(upto)s` (`upto` NULL: every row after); `finish`
    gives the function its final form. The triggers take `lock_key` shared before reading the
    progress row, and count every row once the progress table is dropped (a trigger of the
    former form may still be running then: it must catch `undefined_table`).
    """

    progress: str
    lock_key: int
    prepare: tuple[str, ...]
    batch: str
    finish: tuple[str, ...]


AfterBatch = Callable[[str | None], Awaitable[None]]
"""Called after each batch's commit with the last id it counted (None: every row)."""


@dataclass(frozen=True, slots=True)
class CountProgress:
    """How far a migration has gone: `counted` of `total` rows (memories counted — rows of
    `memory_items`, forgotten ones included — or events rehashed), as the migrating server
    knows it."""

    counted: int
    total: int
    rows: str = "memories"
    done: str = "counted"


Progress = Callable[[CountProgress], None]
"""Told where a count stands: once before its first batch, then after each batch's commit."""


@dataclass(frozen=True, slots=True)
class BatchDone:
    """What one batch did: the last id it did (None: every row is done), how many more rows
    are done now (the batch's own, less any done before that it removed), and how many rows it
    removed from the table (events merged away), which leave the total."""

    upto: str | None
    counted: int
    removed: int = 0


async def prepared_once(conn: AsyncConnection, progress: str, prepare: Sequence[str]) -> None:
    """Run `prepare` (which makes the table `progress`, with `counted_to` and `done`) and start
    the progress row, unless a stopped migration already did (its progress table is there)."""
    async with conn.transaction():
        cursor = await conn.execute("SELECT to_regclass(%s) IS NOT NULL", (progress,))
        found = await cursor.fetchone()
        if found is not None and found[0]:
            return
        for statement in prepare:
            await conn.execute(statement)
        await conn.execute(
            f"INSERT INTO {progress} (counted_to, done) VALUES ('', false)"  # noqa: S608
        )


async def where_it_stands(conn: AsyncConnection, count: OnlineCount) -> CountProgress:
    """The memories at or below the progress row's watermark (every one once it is done), of
    every memory: a count taken up after a stop starts from what it had counted."""
    cursor = await conn.execute(
        "SELECT count(*) FILTER (WHERE p.done OR m.id <= p.counted_to), count(*) "  # noqa: S608
        f"FROM memory_items m, {count.progress} p"
    )
    row = await cursor.fetchone()  # an aggregate: one row, (0, 0) when nothing matched
    return CountProgress(int(row[0]), int(row[1])) if row is not None else CountProgress(0, 0)


async def in_batches(
    one_batch: Callable[[], Awaitable[str | None]], after_batch: AfterBatch | None
) -> int:
    """Run `one_batch` until it says every row is done (None); `after_batch` after each with
    the last id it did. Returns the batches run."""
    batches = 0
    while True:
        upto = await one_batch()
        batches += 1
        if after_batch is not None:
            await after_batch(upto)
        if upto is None:
            return batches


async def batches_told(
    one_batch: Callable[[], Awaitable[BatchDone]],
    start: Callable[[], Awaitable[CountProgress]],
    progress: Progress | None,
    after_batch: AfterBatch | None,
) -> int:
    """`in_batches` over `one_batch`, telling `progress` where the migration stands (`start`)
    before its first batch and after each one. Returns the batches run."""
    stands = await start() if progress is not None else None
    if progress is not None and stands is not None:
        progress(stands)

    async def told() -> str | None:
        nonlocal stands
        step = await one_batch()
        if progress is not None and stands is not None:
            done = stands.counted + step.counted
            # Rows the batch removed leave the total; rows written meanwhile land on either
            # side of the watermark: the total grows with them, never below what was done.
            total = max(stands.total - step.removed, done)
            stands = replace(stands, counted=done, total=total)
            progress(stands)
        return step.upto

    return await in_batches(told, after_batch)


async def _one_batch(conn: AsyncConnection, count: OnlineCount, batch_rows: int) -> BatchDone:
    """Count the next `batch_rows` memories (the last id counted: None when every row is)."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (count.lock_key,))
        cursor = await conn.execute(f"SELECT counted_to, done FROM {count.progress}")  # noqa: S608
        row = await cursor.fetchone()
        if row is None or row[1]:
            return BatchDone(None, 0)
        after = str(row[0])
        cursor = await conn.execute(
            "SELECT id FROM memory_items WHERE id > %s ORDER BY id OFFSET %s LIMIT 1",
            (after, batch_rows - 1),
        )
        last = await cursor.fetchone()
        upto = str(last[0]) if last is not None else None
        rows = batch_rows
        if upto is None:  # the last batch: what is left, fewer than `batch_rows`
            cursor = await conn.execute("SELECT count(*) FROM memory_items WHERE id > %s", (after,))
            left = await cursor.fetchone()
            rows = int(left[0]) if left else 0
        await conn.execute(count.batch, {"after": after, "upto": upto})
        await conn.execute(
            f"UPDATE {count.progress} SET counted_to = COALESCE(%s, counted_to), "  # noqa: S608
            "done = %s",
            (upto, upto is None),
        )
    return BatchDone(upto, rows)


async def count_online(
    conn: AsyncConnection,
    count: OnlineCount,
    finished: Callable[[AsyncConnection], Awaitable[None]],
    *,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    after_batch: AfterBatch | None = None,
    progress: Progress | None = None,
) -> int:
    """Prepare, count in batches, then finish (`finished` writes the version row in the finishing
    transaction); `conn` in autocommit, outside a transaction. Returns the batches run.
    `progress` is told how far the count is before its first batch and after each one."""
    await prepared_once(conn, count.progress, count.prepare)
    batches = await batches_told(
        lambda: _one_batch(conn, count, max(1, batch_rows)),
        lambda: where_it_stands(conn, count),
        progress,
        after_batch,
    )
    async with conn.transaction():
        # Every trigger that read the progress row before has committed once this is held.
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (count.lock_key,))
        for statement in count.finish:
            await conn.execute(statement)
        await finished(conn)
    async with conn.transaction():
        # A trigger still in the function's former form holds the lock shared until it commits;
        # one that finds the table gone counts every row, as the final form does.
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (count.lock_key,))
        await conn.execute(f"DROP TABLE {count.progress}")
    return batches
