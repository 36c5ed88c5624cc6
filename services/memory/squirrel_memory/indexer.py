"""Keeps each project's vector index in step with its memories: on every change, and on start.

The store says where its vectors live (`Store.open_vector_index`): a FAISS file beside SQLite,
pgvector rows on Postgres.

A change only queues the memory ids it touched: a writer never waits for the embedding model.
One worker per project drains the queue in batches (`EMBED_BATCH` texts per model call), so a
burst of writes costs a few batched model calls instead of one call per memory. The worker holds
back while a burst is arriving (until no change came for `QUIET_SECONDS`, at most
`MAX_HOLD_SECONDS` after it started), so the model does not take the cores the writes need; a
read waiting for the index (`caught_up`) ends the hold at once. The store stays
the truth: retrieval re-reads every hit from it, lexical search sees a write at once, and the
sync on start embeds whatever a crash left unqueued.

A rebuild (`sqrl reindex`) covers every change made before it read the store: it takes them off
the queue, and a batch the worker took before it (waiting for the index meanwhile) is dropped
(`_rebuilds`). A model's vector for a text moves by a few ulps with the batch it is embedded
in, so embedding those memories again in a batch of their own after the rebuild gave vectors
a second rebuild would not give; two rebuilds of the same memories now give the same vectors
to the bit (a change made while the rebuild embeds is queued, and embedded after it)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Coroutine, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path

import numpy as np
import numpy.typing as npt
import structlog

from squirrel_core.store_paths import ProjectPaths
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.index import INDEX_FILE_NAME, VectorIndex
from squirrel_memory.models import MemoryItem
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import MemoryChange, Store

log = structlog.get_logger()

INDEX_FILE = INDEX_FILE_NAME
EMBED_BATCH = 64
PAGE = 500
SAVE_DELAY_SECONDS = 2.0
CATCH_UP_SECONDS = 1.5
"""How long a read waits for the index to take in the writes made just before it."""
CATCH_UP_MAX_PENDING = 2 * EMBED_BATCH
"""A larger backlog (an import) is not waited for: reads answer at once, lexical credit only."""
DEADLINE_SHARE = 0.5
"""Part of a request's remaining deadline a read may spend waiting for the index; a read whose
share is shorter than the wait does not wait."""
QUIET_SECONDS = 0.3
"""A worker starts embedding once no change arrived for this long (a burst has ended)... A
store tells its listeners once per transaction, so a bulk import of `RememberMany` calls of 100
changes every 100-300 ms on a loaded machine; a shorter quiet period ends the hold mid-burst."""
MAX_HOLD_SECONDS = 1.0
"""...or this long after the first change it holds, so a steady stream never starves it."""

_read_deadline: ContextVar[float | None] = ContextVar("read_deadline", default=None)


@contextlib.contextmanager
def read_deadline(seconds_left: float | None) -> Iterator[None]:
    """Bounds index waits inside the block by the caller's deadline (gRPC `time_remaining`): a
    read waits for the index only when half of what is left covers the whole wait; a read with
    a second to answer answers at once from what the index holds."""
    if seconds_left is None:
        yield
        return
    loop = asyncio.get_running_loop()
    token = _read_deadline.set(loop.time() + max(0.0, seconds_left) * DEADLINE_SHARE)
    try:
        yield
    finally:
        _read_deadline.reset(token)


def hold_seconds(
    now: float, *, started: float, last_change: float, quiet: float, max_hold: float
) -> float:
    """How much longer a worker that began holding at `started` waits before embedding: until
    `quiet` seconds passed since the last change, never beyond `started + max_hold`."""
    return max(0.0, min(last_change + quiet, started + max_hold) - now)


def index_path(project_id: str, store_dir: Path | None = None) -> Path:
    """The vector index file of a project's store (default store folder `<repo>/.ctx`)."""
    return ProjectPaths(Path(project_id), store_dir).index_dir / INDEX_FILE


class ProjectIndexes:
    """One index per project. The index may lag SQLite for a moment (retrieval re-reads every
    hit from SQLite, so a deleted memory never comes back); a sync on start repairs any drift
    left by a crash, and a missing or corrupt file is rebuilt from SQLite."""

    def __init__(
        self,
        embedder: Embedder,
        *,
        save_delay: float = SAVE_DELAY_SECONDS,
        quiet: float = QUIET_SECONDS,
        max_hold: float = MAX_HOLD_SECONDS,
    ) -> None:
        self._embedder = embedder
        self._save_delay = save_delay
        self._quiet = quiet
        self._max_hold = max_hold
        self._last_change: dict[str, float] = {}
        self._wake: dict[str, asyncio.Event] = {}  # set on a change, a waiting read, a close
        self._readers: dict[str, int] = {}  # project -> reads waiting in `caught_up`
        self._indexes: dict[str, VectorIndex] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._dirty: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._saver: asyncio.Task[None] | None = None
        self._pending: dict[str, dict[str, None]] = {}
        self._in_flight: dict[str, int] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._idle: dict[str, asyncio.Event] = {}
        self._syncing: dict[str, int | None] = {}  # project -> memories the sync embeds
        self._rebuilds: dict[str, int] = {}  # project -> rebuilds begun: a batch taken before
        # the last one began is covered by it
        self._closing = False

    def get(self, project_id: str) -> VectorIndex | None:
        return self._indexes.get(project_id)

    async def attach(self, store: Store) -> VectorIndex:
        """Opens (or starts rebuilding) the index of `store` and follows its changes."""
        project_id = store.project_id
        found = self._indexes.get(project_id)
        if found is not None:
            return found
        index, problem = await asyncio.to_thread(
            store.open_vector_index, self._embedder.dim, self._embedder.model_id
        )
        if problem is not None:
            log.info("vector_index_rebuilding", project_id=project_id, problem=problem.value)
        self._indexes[project_id] = index
        self._locks[project_id] = asyncio.Lock()

        async def listener(change: MemoryChange) -> None:
            await self._on_change(store, change)

        store.add_listener(listener)
        self._syncing[project_id] = None
        self._idle_event(project_id).clear()
        self._spawn(self._sync_when_ready(store))
        return index

    def _spawn(self, coro: Coroutine[None, None, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _sync_when_ready(self, store: Store) -> None:
        project_id = store.project_id
        try:
            if not await self._embedder.wait_ready():
                log.warning("vector_index_waiting_for_model", project_id=project_id)
                return
            await self.sync(store)
        except Exception as exc:  # the next change or restart retries; lexical search works
            log.error("vector_index_sync_failed", project_id=project_id, exc_info=exc)
        finally:
            self._syncing.pop(project_id, None)
            self._maybe_idle(project_id)

    def _idle_event(self, project_id: str) -> asyncio.Event:
        """Set while the project's index holds every write made so far."""
        event = self._idle.get(project_id)
        if event is None:
            event = self._idle[project_id] = asyncio.Event()
            event.set()
        return event

    def _maybe_idle(self, project_id: str) -> None:
        if not self.pending(project_id) and project_id not in self._syncing:
            self._idle_event(project_id).set()

    async def _on_change(self, store: Store, change: MemoryChange) -> None:
        if not self._embedder.ready or self._closing:
            return  # the sync after loading (or on the next start) picks these up
        project_id = store.project_id
        pending = self._pending.setdefault(project_id, {})
        pending.update(dict.fromkeys((*change.added, *change.updated, *change.deleted)))
        self._idle_event(project_id).clear()
        self._last_change[project_id] = asyncio.get_running_loop().time()
        self._wake_event(project_id).set()
        worker = self._workers.get(project_id)
        if worker is None or worker.done():
            self._workers[project_id] = asyncio.create_task(
                self._drain(store), name=f"index-{project_id}"
            )

    def _wake_event(self, project_id: str) -> asyncio.Event:
        event = self._wake.get(project_id)
        if event is None:
            event = self._wake[project_id] = asyncio.Event()
        return event

    async def _hold(self, project_id: str) -> None:
        """Waits while a burst of writes is arriving (see `hold_seconds`); returns at once when
        a read is waiting for the index or the indexes close."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        wake = self._wake_event(project_id)
        while not self._closing and not self._readers.get(project_id):
            wait = hold_seconds(
                loop.time(),
                started=started,
                last_change=self._last_change.get(project_id, started),
                quiet=self._quiet,
                max_hold=self._max_hold,
            )
            if wait <= 0:
                return
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), wait)

    def pending(self, project_id: str) -> int:
        """Memories changed but not yet brought into the project's index."""
        return len(self._pending.get(project_id, ())) + self._in_flight.get(project_id, 0)

    async def caught_up(
        self,
        project_id: str,
        *,
        timeout: float = CATCH_UP_SECONDS,
        max_pending: int = CATCH_UP_MAX_PENDING,
    ) -> bool:
        """Waits (at most `timeout`) until the project's index holds the writes made so far
        (the model loading after a start, then the sync, then the queued changes), so a read
        just after a write ranks the new memory as it will a moment later. True when nothing
        is left to wait for; False when the backlog is too large to wait for (an import, a
        rebuild), the caller's deadline (`read_deadline`) leaves less than `timeout`, or the
        time ran out: the read then answers at once, vector credit only for what the index
        holds."""
        syncing = project_id in self._syncing
        waiting = self.pending(project_id) + (self._syncing.get(project_id) or 0)
        if not syncing and not waiting:
            return True
        if waiting > max_pending or self._closing or self._embedder.load_error is not None:
            return False
        deadline = _read_deadline.get()
        if deadline is not None and deadline - asyncio.get_running_loop().time() < timeout:
            # A caller that cannot spare the whole wait (a hook, with a second for its whole
            # answer) is answered from what the index holds now: a wait cut short would end
            # before the catch-up (the model's load takes tens of seconds on a loaded machine)
            # and only take its time from the answer.
            log.info(
                "vector_index_catch_up_skipped",
                project_id=project_id,
                pending=waiting,
                model_loading=not self._embedder.ready,
            )
            return False
        self._readers[project_id] = self._readers.get(project_id, 0) + 1
        self._wake_event(project_id).set()  # a holding worker embeds at once
        try:
            await asyncio.wait_for(self._idle_event(project_id).wait(), timeout)
        except TimeoutError:
            log.info("vector_index_catch_up_timeout", project_id=project_id, pending=waiting)
            return False
        finally:
            self._readers[project_id] -= 1
        return True

    async def _drain(self, store: Store) -> None:
        """Brings queued changes into the index, a batch at a time, until the queue is empty,
        after holding back while the burst that started it is arriving. A failed batch is
        logged and left to the sync on the next start."""
        project_id = store.project_id
        pending = self._pending[project_id]
        await self._hold(project_id)
        while pending and not self._closing:
            # Taken off the queue before reading them: a change made meanwhile queues again.
            batch = list(itertools.islice(pending, EMBED_BATCH))
            for memory_id in batch:
                del pending[memory_id]
            self._in_flight[project_id] = len(batch)
            rebuilds = self._rebuilds.get(project_id, 0)
            try:
                await self._apply(store, batch, rebuilds)
            except Exception as exc:
                log.error("vector_index_update_failed", project_id=project_id, exc_info=exc)
            finally:
                self._in_flight[project_id] = 0
            self._mark_dirty(project_id)
        self._maybe_idle(project_id)

    async def _apply(self, store: Store, memory_ids: Sequence[str], rebuilds: int) -> None:
        """Brings a batch taken off the queue into the index, unless a rebuild began since it
        was taken (`rebuilds`, the count then): that rebuild read these memories after their
        changes and embedded them in its own batches."""
        index = self._indexes[store.project_id]
        async with self._locks[store.project_id]:
            if self._rebuilds.get(store.project_id, 0) != rebuilds:
                return
            items = await store.get_memories(memory_ids)
            live = [m for m in items if not m.deleted]
            gone = set(memory_ids) - {m.id for m in live}
            await self._upsert(index, live)
            if gone:
                await asyncio.to_thread(index.remove, gone)

    async def _upsert(self, index: VectorIndex, items: Sequence[MemoryItem]) -> None:
        for start in range(0, len(items), EMBED_BATCH):
            chunk = items[start : start + EMBED_BATCH]
            vectors = await self._embedder.embed([embedding_text(m) for m in chunk])
            await asyncio.to_thread(index.upsert, [(m.id, vectors[i]) for i, m in enumerate(chunk)])

    async def _memories(self, store: Store, memory_ids: Sequence[str]) -> list[MemoryItem]:
        """The memories with these ids, read `PAGE` at a time."""
        items: list[MemoryItem] = []
        for start in range(0, len(memory_ids), PAGE):
            items.extend(await store.get_memories(memory_ids[start : start + PAGE]))
        return [m for m in items if not m.deleted]

    async def sync(self, store: Store) -> tuple[int, int]:
        """Embeds memories the index lacks and drops ids it should not have: (added, removed)."""
        project_id = store.project_id
        index = self._indexes[project_id]
        async with self._locks[project_id]:
            # Only ids are compared; only the memories the index lacks are read in full.
            live = await store.live_memory_ids()
            present = await asyncio.to_thread(index.memory_ids)
            if project_id in self._syncing:
                self._syncing[project_id] = len(live - present)
            missing = await self._memories(store, sorted(live - present))
            extra = present - live
            if missing or extra:
                # Marked before the change: a stop that cancels this sync mid-way (its thread
                # still finishing the change) must not leave a changed index unsaved.
                self._mark_dirty(project_id)
            await self._upsert(index, missing)
            if extra:
                await asyncio.to_thread(index.remove, extra)
        if missing or extra:
            log.info(
                "vector_index_synced", project_id=project_id, added=len(missing), removed=len(extra)
            )
        return len(missing), len(extra)

    async def rebuild(self, store: Store) -> int:
        """Re-embeds every live memory into a fresh index and saves it (`sqrl reindex`)."""
        project_id = store.project_id
        if project_id not in self._indexes:
            await self.attach(store)
        if not await self._embedder.wait_ready():
            from squirrel_memory.embedding.base import EmbedderNotReadyError  # noqa: PLC0415

            raise EmbedderNotReadyError("the embedding model did not load; see the memory log")
        index = self._indexes[project_id]
        started = time.perf_counter()
        async with self._locks[project_id]:
            # Every change made so far is in what is read next: none is embedded again after
            # (the worker's queue, and a batch it took, waiting for the lock: `_apply`).
            self._rebuilds[project_id] = self._rebuilds.get(project_id, 0) + 1
            self._pending.get(project_id, {}).clear()
            live = await self._memories(store, sorted(await store.live_memory_ids()))
            pairs: list[tuple[str, npt.NDArray[np.float32]]] = []
            for start in range(0, len(live), EMBED_BATCH):
                chunk = live[start : start + EMBED_BATCH]
                vectors = await self._embedder.embed([embedding_text(m) for m in chunk])
                pairs.extend((m.id, vectors[i]) for i, m in enumerate(chunk))
            await asyncio.to_thread(index.rebuild, pairs)
            await asyncio.to_thread(index.save)
        self._dirty.discard(project_id)
        self._maybe_idle(project_id)
        log.info(
            "vector_index_rebuilt",
            project_id=project_id,
            memories=len(live),
            duration_ms=round((time.perf_counter() - started) * 1000),
        )
        return len(live)

    def _mark_dirty(self, project_id: str) -> None:
        self._dirty.add(project_id)
        if self._saver is None or self._saver.done():
            self._saver = asyncio.create_task(self._save_later())

    async def _save_later(self) -> None:
        """Persists changed indexes at most every few seconds (not on every insert)."""
        await asyncio.sleep(self._save_delay)
        await self.save_dirty()

    async def save_dirty(self) -> None:
        while self._dirty:
            project_id = self._dirty.pop()
            index = self._indexes.get(project_id)
            if index is None:
                continue
            try:
                async with self._locks[project_id]:
                    await asyncio.to_thread(index.save)
            except asyncio.CancelledError:
                self._dirty.add(project_id)  # stopped mid-save: the close saves it again
                raise

    async def close(self) -> None:
        self._closing = True  # workers stop after their current batch; the next sync resumes
        for wake in self._wake.values():
            wake.set()
        for worker in list(self._workers.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await worker
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._saver is not None and not self._saver.done():
            self._saver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._saver
        await self.save_dirty()
