"""Per-project batching of events and read cursors, by size and age, with a bounded buffer."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from squirrel_core.events import Event, SourceCursor

Advances = Callable[[str, SourceCursor], bool]
"""Whether a cursor moves a project's stored position forward (project id, cursor)."""


@dataclass(frozen=True, slots=True)
class Delivery:
    """One call to the sink: a project's events in read order and the cursors they complete."""

    project_id: str
    events: tuple[Event, ...]
    cursors: tuple[SourceCursor, ...]


class Batcher:
    """Collects events per project plus the read positions reached, until a flush takes them.

    A flush is due when `max_batch_events` events wait or the oldest pending item is
    `max_age_s` old. `is_full` turns true when pending plus in-flight events reach
    `max_buffered_events`; the reader then stops reading (back-pressure) until deliveries settle.
    """

    def __init__(
        self,
        *,
        max_batch_events: int = 500,
        max_age_s: float = 1.0,
        max_buffered_events: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_batch_events <= 0 or max_buffered_events <= 0 or max_age_s < 0:
            raise ValueError("batch limits must be positive")
        self.max_batch_events = max_batch_events
        self.max_age_s = max_age_s
        self.max_buffered_events = max_buffered_events
        self._clock = clock
        self._events: dict[str, list[Event]] = {}
        self._touched: dict[str, SourceCursor] = {}  # path -> position, for every project
        self._own: dict[str, dict[str, SourceCursor]] = {}  # project -> path -> cursor
        self._pending = 0
        self._in_flight = 0
        self._since: float | None = None

    @property
    def pending_events(self) -> int:
        """Events waiting for the next flush."""
        return self._pending

    @property
    def buffered_events(self) -> int:
        """Events held in memory: pending plus taken but not yet settled."""
        return self._pending + self._in_flight

    @property
    def is_full(self) -> bool:
        """True when no more events should be read until deliveries settle."""
        return self.buffered_events >= self.max_buffered_events

    @property
    def has_pending(self) -> bool:
        """True when events or cursor moves wait for a flush."""
        return self._since is not None

    def add(self, project_id: str, event: Event) -> None:
        """Queue an event (already redacted and routed) for a project."""
        self._events.setdefault(project_id, []).append(event)
        self._pending += 1
        self._mark()

    def touch(self, cursor: SourceCursor) -> None:
        """Record that a file has been read up to `cursor`; every project learns it on flush."""
        self._touched[cursor.path] = cursor
        self._mark()

    def touch_project(self, project_id: str, cursor: SourceCursor) -> None:
        """Record a position that belongs to one project only (e.g. its last seen git commit)."""
        self._own.setdefault(project_id, {})[cursor.path] = cursor
        self._mark()

    def seconds_until_due(self) -> float | None:
        """0 when a flush is due, the wait until it is due by age, or None with nothing pending."""
        if self._since is None:
            return None
        if self._pending >= self.max_batch_events:
            return 0.0
        return max(0.0, self._since + self.max_age_s - self._clock())

    def take(self, project_ids: Iterable[str], advances: Advances) -> list[Delivery]:
        """Move everything pending into deliveries, per project, in read order.

        Every project in `project_ids` (and every project with events) gets its events in chunks
        of about `max_batch_events`, never splitting the events of one source line; only the
        last chunk carries cursors: every touched cursor that `advances` says moves that project
        forward.
        Projects with nothing to send get no delivery.
        """
        events, touched, own = self._events, self._touched, self._own
        self._events, self._touched, self._own = {}, {}, {}
        self._in_flight += self._pending
        self._pending = 0
        self._since = None
        deliveries: list[Delivery] = []
        for project_id in sorted(set(project_ids) | set(events) | set(own)):
            final_cursors = [*touched.values(), *own.get(project_id, {}).values()]
            deliveries.extend(
                self._chunks(project_id, events.get(project_id, []), final_cursors, advances)
            )
        return deliveries

    def settle(self, delivery: Delivery) -> None:
        """Release the memory accounting of a delivery the sink has accepted."""
        self._in_flight = max(0, self._in_flight - len(delivery.events))

    def _chunks(
        self,
        project_id: str,
        events: list[Event],
        final_cursors: list[SourceCursor],
        advances: Advances,
    ) -> list[Delivery]:
        chunks: list[Delivery] = []
        start = 0
        while len(events) - start > self.max_batch_events:
            end = start + self.max_batch_events
            while end < len(events) and _same_line(events[end - 1], events[end]):
                end += 1
            if end == len(events):
                break
            # No cursor rides on an early chunk: a position in the middle of a read has no
            # parser state (tool calls awaiting their results) and no document mark, so a
            # restart resuming there would read the next lines without their context. After a
            # crash the events from the last full cursor on are read again, and the memory
            # service drops the ones it already holds by their dedup hash.
            chunks.append(Delivery(project_id, tuple(events[start:end]), ()))
            start = end
        last = tuple(events[start:])
        cursors = tuple(cursor for cursor in final_cursors if advances(project_id, cursor))
        if last or cursors:
            chunks.append(Delivery(project_id, last, cursors))
        return chunks

    def _mark(self) -> None:
        if self._since is None:
            self._since = self._clock()


def _same_line(first: Event, second: Event) -> bool:
    a, b = first.position, second.position
    return a is not None and b is not None and (a.path, a.end_offset) == (b.path, b.end_offset)
