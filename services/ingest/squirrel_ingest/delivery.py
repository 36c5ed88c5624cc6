"""Delivery of event batches to the memory service: the `Sink` contract and retry with backoff."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

import structlog

from squirrel_core.events import Event, SourceCursor

log = structlog.get_logger()

T = TypeVar("T")


class SinkUnavailableError(ConnectionError):
    """The sink cannot take deliveries right now; the batch is kept and retried."""


@dataclass(frozen=True, slots=True)
class DeliveryResult:
    """What the sink did with one delivery: new events, known duplicates, and invalid ones."""

    accepted: int
    duplicates: int
    rejected: int


class Sink(Protocol):
    """Where batches go. Memory commits a delivery's cursors in the same transaction as its events.

    `deliver` is all-or-nothing per call: on success the events and cursors are durable; on an
    exception nothing of the call was kept.
    """

    async def deliver(
        self, project_id: str, events: Sequence[Event], cursors: Sequence[SourceCursor]
    ) -> DeliveryResult: ...

    async def load_cursors(self) -> dict[str, list[SourceCursor]]: ...


@dataclass(frozen=True, slots=True)
class Backoff:
    """Exponential backoff with a cap and full jitter on the upper half.

    While the sink is unreachable (`SinkUnavailableError`) during the first `quick_for_s`
    seconds of a run of failures, retries come every `quick_s` (never more than `initial_s`)
    instead: the memory service started beside ingest is usually a second or two from SERVING,
    and a growing delay would leave ingest waiting seconds after it is. A sink still
    unreachable after that window, or failing any other way, gets the growing delays.
    """

    initial_s: float = 0.2
    maximum_s: float = 30.0
    factor: float = 2.0
    quick_s: float = 0.1
    quick_for_s: float = 10.0

    def delays(self) -> Iterator[float]:
        """Endless delays: initial, initial·factor, … capped at maximum, each jittered ±25 %."""
        delay = self.initial_s
        while True:
            yield delay * random.uniform(0.75, 1.0)
            delay = min(delay * self.factor, self.maximum_s)


class RetryDelays:
    """The delays of one run of retries: quick while the sink is briefly unreachable, then
    growing (see `Backoff`)."""

    def __init__(self, backoff: Backoff, clock: Callable[[], float] = time.monotonic) -> None:
        self._backoff = backoff
        self._growing = backoff.delays()
        self._clock = clock
        self._started: float | None = None
        self.quick = False

    def after(self, error: BaseException) -> float:
        """Seconds to wait after `error` before the next attempt."""
        now = self._clock()
        if self._started is None:
            self._started = now
        quick_until = self._started + self._backoff.quick_for_s
        self.quick = isinstance(error, SinkUnavailableError) and now < quick_until
        if self.quick:
            return min(self._backoff.quick_s, self._backoff.initial_s)
        return next(self._growing)


async def call_with_retry(
    attempt: Callable[[], Awaitable[T]],
    backoff: Backoff,
    *,
    stopping: asyncio.Event,
    on_failure: Callable[[BaseException], None] | None = None,
    what: str = "delivery",
    first_contact: bool = False,
) -> T | None:
    """Run `attempt` until it succeeds, sleeping with backoff between failures.

    Every `Exception` counts as a transient failure (nothing is ever dropped); returns None only
    when `stopping` is set before a success. `on_failure` hears of every failure but the quick
    retries after the first while the sink starts. With `first_contact` (the sink has never
    answered this run: the memory service started beside ingest may not be serving yet) those
    quick retries are waiting for it, not failures: `on_failure` hears of none of them.
    """
    delays = RetryDelays(backoff)
    failures = 0
    while not stopping.is_set():
        try:
            return await attempt()
        except Exception as error:  # any failure keeps the batch and retries
            failures += 1
            delay = delays.after(error)
            # A run of quick retries while the sink starts counts once (`sqrl status` would
            # otherwise show a dozen failures after every cold start).
            counts = not delays.quick or (failures == 1 and not first_contact)
            if on_failure is not None and counts:
                on_failure(error)
            # Quick retries while the sink starts would fill the log: after the first, debug.
            emit = log.debug if delays.quick and failures > 1 else log.warning
            emit(
                "sink_call_failed",
                what=what,
                error_type=type(error).__name__,
                failures=failures,
                retry_in_ms=round(delay * 1000),
            )
        try:
            await asyncio.wait_for(stopping.wait(), timeout=delay)
        except TimeoutError:
            continue
    return None
