"""When a session's waiting events are ready for a pass: once the session has been idle a while
(its episode is over), or held back long enough, and when the next pass will take them.

A session stamped by a clock ahead of this one (a teammate's laptop whose clock runs fast) has
its idle time and hold measured on this clock instead, from when its waiting events last changed
here: its own times would hold it back by the whole difference of the two clocks. On a team
server (`other_clocks`) every session is measured so: a laptop whose clock runs slow stamps an
active session in this clock's past, and its own times would call it idle at once, so it would
be taken in pieces as it grows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from squirrel_memory.episodes import DEFAULT_GAP
from squirrel_memory.models import StoredEvent
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import Store

MAX_HOLD = timedelta(hours=2)
"""A session still active is held back (its episode is not over) for at most this long."""


@dataclass(frozen=True, slots=True)
class _Seen:
    """A session ahead of this clock as a pass last found it waiting, in this clock's time."""

    waiting: tuple[int, datetime]
    """How many of its events waited, and the last one's time: a change means it grew."""
    changed_at: datetime
    first_seen_at: datetime


class SessionReadiness:
    """Tells which waiting sessions a pass takes now, by `settings` and `clock`."""

    def __init__(
        self,
        settings: ProcessorSettings,
        clock: Callable[[], datetime],
        *,
        other_clocks: bool = False,
    ) -> None:
        self._settings = settings
        self._clock = clock
        self._other_clocks = other_clocks
        """Events stamped by other machines' clocks (a team server): idle time and hold of
        every session are measured on this clock, never by the events' own times."""
        self._ahead: dict[tuple[str, str | None], _Seen] = {}

    @property
    def _idle(self) -> timedelta:
        return min(timedelta(seconds=self._settings.session_idle_seconds), DEFAULT_GAP)

    def ready_at(self, first: datetime, last: datetime) -> datetime:
        """When a session whose waiting events span `first`..`last` is processed: once it has
        been idle `session_idle_seconds` (capped at the episode gap), or held `MAX_HOLD`."""
        return min(last + self._idle, first + MAX_HOLD)

    def ready(self, events: list[StoredEvent]) -> list[StoredEvent]:
        """Events of sessions that are finished for now (see `ready_at`; a session stamped
        ahead of this clock, or any with `other_clocks`, by when its waiting events last
        changed here)."""
        now = self._clock()
        spans: dict[tuple[str, str | None], tuple[datetime, datetime, int]] = {}
        for event in events:
            key = (event.project_id, event.session_id)
            first, last, count = spans.get(key, (event.timestamp, event.timestamp, 0))
            spans[key] = (min(first, event.timestamp), max(last, event.timestamp), count + 1)
        ready = set()
        for key, (first, last, count) in spans.items():
            if last > now or self._other_clocks:
                if self._quiet_here(key, (count, last), now):
                    ready.add(key)
            elif self.ready_at(first, last) <= now:
                ready.add(key)
        for key in ready:
            self._ahead.pop(key, None)
        self._forget_stale(now)
        return [e for e in events if (e.project_id, e.session_id) in ready]

    def _quiet_here(
        self, key: tuple[str, str | None], waiting: tuple[int, datetime], now: datetime
    ) -> bool:
        """Whether a session measured here has not grown for the idle time here, or was
        first found waiting `MAX_HOLD` ago; remembers what this pass found."""
        seen = self._ahead.get(key)
        if seen is None:
            self._ahead[key] = _Seen(waiting, now, now)
            return False
        if seen.waiting != waiting:
            self._ahead[key] = _Seen(waiting, now, seen.first_seen_at)
            return now - seen.first_seen_at >= MAX_HOLD
        return min(seen.changed_at + self._idle, seen.first_seen_at + MAX_HOLD) <= now

    def _forget_stale(self, now: datetime) -> None:
        """Drops sessions not found waiting for a long while (processed by a forced pass, or
        their project closed), so the map stays as small as what waits."""
        stale = [k for k, seen in self._ahead.items() if now - seen.changed_at > 2 * MAX_HOLD]
        for key in stale:
            del self._ahead[key]

    async def next_processing_at(self, store: Store) -> datetime | None:
        """The latest time the events waiting now will have been processed (None: none wait):
        the first pass after their sessions are ready, passes running every `interval_seconds`."""
        spans = await store.waiting_sessions(store.project_id)
        if not spans:
            return None
        now = self._clock()
        # A session measured here is taken once quiet here: at the soonest, idle from now.
        ready = min(
            self.ready_at(first, last)
            if last <= now and not self._other_clocks
            else now + self._idle
            for first, last in spans
        )
        return max(ready, now) + timedelta(seconds=self._settings.interval_seconds)
