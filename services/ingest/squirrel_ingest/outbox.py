"""Events on their way to the sink: batched per project, delivered with the cursors of their
files, each project's floors (delivered positions) kept in step; and back-pressure while the
buffer is full."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import Counter
from collections.abc import Callable, Collection

import structlog

from squirrel_core.events import SourceCursor
from squirrel_ingest.batcher import Batcher
from squirrel_ingest.delivery import Backoff, Sink, call_with_retry
from squirrel_ingest.floors import Floors, advances, counted
from squirrel_ingest.routing import ProjectRouter
from squirrel_ingest.tally import Tally

log = structlog.get_logger()


class Outbox:
    """The engine's delivery side. `floors` is loaded from the sink once (`ensure_floors`) and
    advanced by every delivery the sink takes; the engine reads it to resume and filter files.

    `flusher_running` says whether `run_flusher` runs as a task: without one, a full buffer is
    flushed by whoever waits for room."""

    def __init__(
        self,
        sink: Sink,
        router: ProjectRouter,
        batcher: Batcher,
        backoff: Backoff,
        *,
        tally: Tally,
        stopping: asyncio.Event,
        flusher_running: Callable[[], bool],
    ) -> None:
        self._sink = sink
        self._router = router
        self.batcher = batcher
        self._backoff = backoff
        self._tally = tally
        self._stopping = stopping
        self._flusher_running = flusher_running
        self.floors: Floors = {}
        self._uncounted: Counter[tuple[str, str]] = Counter()  # delivered, cursor still to come
        self._floors_loaded = False
        self._flush_lock = asyncio.Lock()
        self.flush_wanted = asyncio.Event()
        self._drained = asyncio.Event()

    async def run_flusher(self) -> None:
        """Flush whenever a batch is due, until stopping."""
        while not self._stopping.is_set():
            self.flush_wanted.clear()
            delay = self.batcher.seconds_until_due()
            if delay is None or delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.flush_wanted.wait(), timeout=delay)
                continue
            await self.flush()

    def release(self) -> None:
        """On stop: wake the flusher and whoever waits for room."""
        self.flush_wanted.set()
        self._drained.set()

    async def flush(self) -> bool:
        """Deliver everything pending now; False if stopped before the sink took it all."""
        async with self._flush_lock:
            deliveries = self.batcher.take(self._router.project_ids, self._advances)
            for delivery in deliveries:
                cursors, uncounted = counted(self.floors, self._uncounted, delivery)
                result = await call_with_retry(
                    functools.partial(
                        self._sink.deliver, delivery.project_id, delivery.events, cursors
                    ),
                    self._backoff,
                    stopping=self._stopping,
                    on_failure=self._tally.delivery_failed,
                )
                if result is None:
                    return False
                floors = self.floors.setdefault(delivery.project_id, {})
                for cursor in cursors:
                    floors[cursor.path] = cursor
                self._uncounted = uncounted
                self._tally.delivered(delivery.events, result)
                self.batcher.settle(delivery)
                self._drained.set()
            if deliveries:
                log.debug(
                    "batch_delivered",
                    deliveries=len(deliveries),
                    events=sum(len(d.events) for d in deliveries),
                )
            return True

    def _advances(self, project_id: str, cursor: SourceCursor) -> bool:
        return advances(self.floors, project_id, cursor)

    async def room(self) -> None:
        """Back-pressure: wait (or flush, without a flusher task) while the buffer is full."""
        while self.batcher.is_full and not self._stopping.is_set():
            if not self._flusher_running():
                await self.flush()
                continue
            self._drained.clear()
            self.flush_wanted.set()
            await self._drained.wait()

    async def ensure_floors(self) -> None:
        """The registered projects' floors, loaded from the sink the first time."""
        if self._floors_loaded:
            return
        stored = await self._load_cursors()
        self.floors = {
            project: {c.path: c for c in cursors}
            for project, cursors in stored.items()
            if project in self._router.project_ids
        }
        self._floors_loaded = True

    async def add_projects(self, added: Collection[str]) -> None:
        """The stored floors of newly registered projects (none: they start from nothing)."""
        stored = await self._load_cursors()
        for project_id in added:
            self.floors[project_id] = {c.path: c for c in stored.get(project_id, [])}

    async def _load_cursors(self) -> dict[str, list[SourceCursor]]:
        stored = await call_with_retry(
            self._sink.load_cursors,
            self._backoff,
            stopping=self._stopping,
            on_failure=self._tally.delivery_failed,
            what="load_cursors",
            first_contact=True,  # a fresh start waiting for the memory service is no failure
        )
        return stored or {}
