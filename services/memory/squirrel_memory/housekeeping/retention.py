"""Retention: old processed raw events pruned, one-off instructions that never recurred
forgotten, then project databases vacuumed, on a schedule."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import structlog

from squirrel_core.settings import Settings
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.recurrence import expired
from squirrel_memory.storage import Store

log = structlog.get_logger()

HOUR_SECONDS = 3600.0


@dataclass(frozen=True)
class RetentionSettings:
    """How long processed events keep their content and how often the upkeep runs.

    `event_days` 0 keeps events forever; `tentative_days` 0 keeps one-off instructions that
    never recurred; `vacuum_seconds` 0 never vacuums.
    """

    event_days: int = 0
    tentative_days: int = 30
    check_seconds: float = 6 * HOUR_SECONDS
    vacuum_seconds: float = 7 * 24 * HOUR_SECONDS

    @classmethod
    def from_settings(cls, settings: Settings) -> RetentionSettings:
        return cls(
            event_days=max(0, settings.int_("retention.event_days")),
            tentative_days=max(0, settings.int_("retention.tentative_days")),
            check_seconds=max(1.0, settings.float_("retention.check_hours") * HOUR_SECONDS),
            vacuum_seconds=max(0.0, settings.float_("retention.vacuum_hours") * HOUR_SECONDS),
        )


@dataclass
class RetentionReport:
    """What one retention pass did, over every open project."""

    projects: int = 0
    events_pruned: int = 0
    tentative_forgotten: int = 0
    vacuumed: int = 0
    failed: int = 0


class Retention:
    """Runs a pass at start and every `check_seconds`: prune (when `event_days` > 0), forget
    stale tentative instructions (when `tentative_days` > 0), and vacuum each project whose
    last vacuum by this service is `vacuum_seconds` old."""

    def __init__(
        self,
        stores: Callable[[], Awaitable[list[Store]]],
        settings: RetentionSettings,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._stores = stores
        self._settings = settings
        self._clock = clock
        self._monotonic = monotonic
        self._started = monotonic()
        self._last_vacuum: dict[str, float] = {}
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._started = self._monotonic()
        self._task = asyncio.create_task(self._run(), name="retention")

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._stop.is_set():
            try:
                await self.run_once()
            except Exception as exc:  # the schedule must survive anything; the next pass retries
                log.error("retention_failed", error_type=type(exc).__name__, exc_info=exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self._settings.check_seconds)

    async def _forget_one_offs(self, store: Store) -> int:
        """Forget tentative instructions not seen again within `tentative_days`."""
        cutoff = self._clock() - timedelta(days=self._settings.tentative_days)
        items: list[MemoryItem] = []
        while True:
            page, total = await store.list_memories(
                store.project_id, types=[MemoryType.USER_STYLE], limit=500, offset=len(items)
            )
            items.extend(page)
            if not page or len(items) >= total:
                break
        stale = expired(items, cutoff)
        for item in stale:
            await store.forget(item.id, "one-off instruction did not recur")
        return len(stale)

    def _vacuum_due(self, project_id: str) -> bool:
        every = self._settings.vacuum_seconds
        if every <= 0:
            return False
        since = self._last_vacuum.get(project_id, self._started)
        return self._monotonic() - since >= every

    async def run_once(self) -> RetentionReport:
        """One pass over every open project; one project failing does not stop the others."""
        report = RetentionReport()
        cutoff = self._clock() - timedelta(days=self._settings.event_days)
        for store in await self._stores():
            if self._stop.is_set():
                break
            report.projects += 1
            try:
                if self._settings.event_days > 0:
                    report.events_pruned += await store.prune_processed_events(cutoff)
                if self._settings.tentative_days > 0:
                    report.tentative_forgotten += await self._forget_one_offs(store)
                if self._vacuum_due(store.project_id):
                    await store.vacuum()
                    self._last_vacuum[store.project_id] = self._monotonic()
                    report.vacuumed += 1
            except Exception as exc:  # e.g. a locked or read-only file: log, go on
                report.failed += 1
                log.warning(
                    "retention_project_failed",
                    project_id=store.project_id,
                    error_type=type(exc).__name__,
                )
        log.info(
            "retention_pass_finished",
            projects=report.projects,
            events_pruned=report.events_pruned,
            tentative_forgotten=report.tentative_forgotten,
            vacuumed=report.vacuumed,
            failed=report.failed,
        )
        return report
