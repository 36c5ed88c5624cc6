"""Schema 9 on Postgres: every stored event hashed again by today's dedup rule in batches while
servers keep writing, the events stored twice merged (`storage.rehash`).

1. **prepare** (one transaction, skipped when a stopped migration did it): the migration's
   statements (an event is a duplicate only of one its own author stored: the unique key
   becomes `(project_id, user_id, hash)`) and a progress row (`counted_to = ''`).
2. **batches** of `batch_rows` events in the order of their id: the rows are read and hashed
   again (an event's content never changes once stored), then, in one transaction, the appends
   of the batch's projects wait (each project's append lock, taken in a fixed order), any
   stored event already holding a new hash (rehashed earlier, or appended since the start by a
   server of this version) is weighed with the batch's, the doubles are merged into the first
   stored, the others take their new hash, and the progress row moves to the batch's last id.
3. **finish**: the version row written, then the progress table dropped.

Servers of this version append with today's hash from the start, so an event appended while
the batches run is right whichever side of the watermark its id falls, and a re-read event
that doubles one not yet rehashed is merged when the batch reaches it. A migration stopped
between batches is taken up at its watermark by the next start; one stopped inside a batch
left nothing of that batch. Servers of an older version must stop first: they append with the
former hash and the former unique key.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import structlog
from psycopg import AsyncConnection, errors

from squirrel_memory.storage.dialect import POSTGRES
from squirrel_memory.storage.postgres.online import (
    DEFAULT_BATCH_ROWS,
    AfterBatch,
    BatchDone,
    CountProgress,
    Progress,
    batches_told,
    prepared_once,
)
from squirrel_memory.storage.rehash import (
    HASHED_COLUMNS,
    Merges,
    Rehashed,
    hash_of_row,
    plan_merges,
)

log = structlog.get_logger()

BATCH_ATTEMPTS: Final = 5
"""How often a batch is tried when Postgres aborted it to break a deadlock with a server's own
writes (a processor that marks events processed and updates the memories naming them takes
its row locks in another order than the batch): the batch left nothing and is run again."""


@dataclass(frozen=True, slots=True)
class EventRehash:
    """Every event hashed again in batches (`prepare` runs first, once)."""

    progress: str
    prepare: tuple[str, ...]


def _new_hashes(rows: Sequence[tuple[Any, ...]]) -> dict[str, str]:
    """Each row's hash by today's rule, by event id (a row whose content cannot be read keeps
    the hash it has)."""
    out = {}
    for row in rows:
        digest = hash_of_row(POSTGRES, row[1:])
        if digest is not None:
            out[str(row[0])] = digest
    return out


_READ_BATCH = (
    f"SELECT id, {HASHED_COLUMNS} FROM events "  # noqa: S608 (constants)
    "WHERE id > %s ORDER BY id LIMIT %s"
)
_LOCK_BATCH = (
    "SELECT id, seq, project_id, user_id, hash, processed_at FROM events "
    "WHERE id > %s AND id <= %s ORDER BY id FOR UPDATE"
)
_HOLDERS = (
    "SELECT id, seq, project_id, user_id, hash, processed_at, id <= %s FROM events "
    "WHERE (project_id, user_id, hash) IN "
    "(SELECT * FROM unnest(%s::text[], %s::text[], %s::text[])) AND NOT (id = ANY(%s)) "
    "FOR UPDATE"
)
_SET_HASHES = (
    "UPDATE events e SET hash = u.hash FROM unnest(%s::text[], %s::text[]) AS u(id, hash) "
    "WHERE e.id = u.id"
)


async def _one_batch(conn: AsyncConnection, rehash: EventRehash, batch_rows: int) -> BatchDone:
    """Rehash the next `batch_rows` events (the last id done: None when every event is). The
    events done are those of the batch that are kept, less any done before that the batch
    merged away; every event merged away leaves the total.

    The rows are read and hashed before the batch's transaction (an event's content never
    changes once stored), so the appends wait only for the SQL that merges and rehashes."""
    cursor = await conn.execute(
        f"SELECT counted_to, done FROM {rehash.progress}"  # noqa: S608
    )
    row = await cursor.fetchone()
    if row is None or row[1]:
        return BatchDone(None, 0)
    after = str(row[0])
    cursor = await conn.execute(_READ_BATCH, (after, batch_rows))
    read = await cursor.fetchall()
    hashes = await asyncio.to_thread(_new_hashes, read)
    async with conn.transaction():
        if not read:
            await conn.execute(f"UPDATE {rehash.progress} SET done = true")  # noqa: S608
            return BatchDone(None, 0)
        upto = str(read[-1][0])
        for project in sorted({str(r[1]) for r in read}):
            # The project's appends take turns through this lock (`events.PostgresEventLog`).
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (project,))
        cursor = await conn.execute(_LOCK_BATCH, (after, upto))
        # A row appended since the read carries today's hash already.
        batch = [
            (Rehashed(str(i), int(seq), (str(p), str(u), hashes.get(str(i), str(h))), done), h)
            for i, seq, p, u, h, done in await cursor.fetchall()
        ]
        ids = [event.id for event, _ in batch]
        cursor = await conn.execute(
            _HOLDERS,
            (
                after,
                [e.key[0] for e, _ in batch],
                [e.key[1] for e, _ in batch],
                [e.key[2] for e, _ in batch],
                ids,
            ),
        )
        found = await cursor.fetchall()
        holders = [
            Rehashed(str(h[0]), int(h[1]), (str(h[2]), str(h[3]), str(h[4])), h[5]) for h in found
        ]
        done_before = {str(h[0]) for h in found if h[6]}  # at or below the watermark
        merges = plan_merges([event for event, _ in batch] + holders)
        if merges.into:
            await conn.execute("DELETE FROM events WHERE id = ANY(%s)", (list(merges.into),))
        changed = [
            (event.id, event.key[2])
            for event, old in batch
            if event.key[2] != old and event.id not in merges.into
        ]
        if changed:
            await conn.execute(_SET_HASHES, ([c[0] for c in changed], [c[1] for c in changed]))
        if merges.into:
            await _repoint(conn, merges)
        await conn.execute(
            f"UPDATE {rehash.progress} SET counted_to = %s",  # noqa: S608
            (upto,),
        )
    undone = sum(1 for event, _ in batch if event.id in merges.into)
    undone += sum(1 for merged in merges.into if merged in done_before)
    return BatchDone(upto, len(batch) - undone, len(merges.into))


async def _retried_batch(conn: AsyncConnection, rehash: EventRehash, batch_rows: int) -> BatchDone:
    """`_one_batch`, run again when Postgres chose it to break a deadlock (nothing of it was
    kept: its transaction rolled back, the watermark did not move)."""
    attempt = 1
    while True:
        try:
            return await _one_batch(conn, rehash, batch_rows)
        except (errors.DeadlockDetected, errors.SerializationFailure) as exc:
            if attempt >= BATCH_ATTEMPTS:
                raise
            log.warning("rehash_batch_retried", attempt=attempt, error=type(exc).__name__)
            await asyncio.sleep(0.1 * attempt)
            attempt += 1


async def where_it_stands(conn: AsyncConnection, rehash: EventRehash) -> CountProgress:
    """The events at or below the watermark (every one once it is done), of every event: a
    rehash taken up after a stop starts from what it had done."""
    cursor = await conn.execute(
        "SELECT count(*) FILTER (WHERE p.done OR e.id <= p.counted_to), count(*) "  # noqa: S608
        f"FROM events e, {rehash.progress} p"
    )
    row = await cursor.fetchone()  # an aggregate: one row
    done, total = (int(row[0]), int(row[1])) if row is not None else (0, 0)
    return CountProgress(done, total, "events", "rehashed")


_PAIRS = "(SELECT * FROM unnest(%(merged)s::text[], %(kept)s::text[]) AS p(merged, kept))"
# An episode naming a merged event and the event kept for it (or two events merged into one)
# keeps the first it names.
_EPISODE_DOUBLES = f"""DELETE FROM episode_events e USING {_PAIRS} m, episode_events o
LEFT JOIN {_PAIRS} om ON om.merged = o.event_id
WHERE e.event_id = m.merged AND o.episode_id = e.episode_id AND o.event_id != e.event_id
  AND COALESCE(om.kept, o.event_id) = m.kept
  AND (om.merged IS NULL OR (o.position, o.event_id) < (e.position, e.event_id))
RETURNING e.episode_id"""  # noqa: S608 (constants)
_EPISODE_MOVES = f"""UPDATE episode_events e SET event_id = m.kept FROM {_PAIRS} m
WHERE e.event_id = m.merged RETURNING e.episode_id"""  # noqa: S608 (constants)
_EPISODE_COUNTS = """UPDATE episodes SET event_count = (SELECT COUNT(*) FROM episode_events
WHERE episode_id = episodes.id) WHERE id = ANY(%(episodes)s)"""
# A list of ids with each merged one named by the kept one, each id once, in first-named order.
_MOVED_LIST = """ARRAY(SELECT x FROM (SELECT COALESCE(m.kept, u.x) AS x, u.n
FROM unnest({0}) WITH ORDINALITY AS u(x, n) LEFT JOIN {1} m ON m.merged = u.x) s
GROUP BY x ORDER BY min(n))"""


async def _repoint(conn: AsyncConnection, merges: Merges) -> None:
    """Processing times and whatever named a merged event, moved to the kept one (one statement
    per table for the whole batch: `episode_events` and `memory_history` are not indexed by
    event)."""
    for kept, at in merges.processed.items():
        await conn.execute("UPDATE events SET processed_at = %s WHERE id = %s", (at, kept))
    pairs = {"merged": list(merges.into), "kept": list(merges.into.values())}
    cursor = await conn.execute(_EPISODE_DOUBLES, pairs)
    episodes = {str(r[0]) for r in await cursor.fetchall()}
    cursor = await conn.execute(_EPISODE_MOVES, pairs)
    episodes.update(str(r[0]) for r in await cursor.fetchall())
    await conn.execute(_EPISODE_COUNTS, {"episodes": sorted(episodes)})
    for table, column in (
        ("memory_items", "source_event_ids"),
        ("memory_history", "source_event_ids"),
        ("dead_letter_events", "event_ids"),
    ):
        moved = _MOVED_LIST.format(column, _PAIRS)
        await conn.execute(
            f"UPDATE {table} SET {column} = {moved} "  # noqa: S608 (constants)
            f"WHERE {column} && %(merged)s::text[]",
            pairs,
        )


async def rehash_online(
    conn: AsyncConnection,
    rehash: EventRehash,
    finished: Callable[[AsyncConnection], Awaitable[None]],
    *,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    after_batch: AfterBatch | None = None,
    progress: Progress | None = None,
) -> int:
    """Prepare, rehash in batches, then finish (`finished` writes the version row); `conn` in
    autocommit, outside a transaction. Returns the batches run. `progress` is told how far the
    rehash is before its first batch and after each one."""
    prepare = (
        *rehash.prepare,
        f"CREATE TABLE {rehash.progress} (counted_to text NOT NULL, done boolean NOT NULL)",
    )
    await prepared_once(conn, rehash.progress, prepare)
    batches = await batches_told(
        lambda: _retried_batch(conn, rehash, max(1, batch_rows)),
        lambda: where_it_stands(conn, rehash),
        progress,
        after_batch,
    )
    async with conn.transaction():
        await finished(conn)
    async with conn.transaction():
        await conn.execute(f"DROP TABLE {rehash.progress}")
    return batches
