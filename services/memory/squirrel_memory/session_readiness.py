"""When a session's waiting events are ready for a pass: once the session has been idle a while
(its episode is over), or held back long enough, and when the next pass will take them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from squirrel_memory.episodes import DEFAULT_GAP
from squirrel_memory.models import StoredEvent
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import Store

MAX_HOLD = timedelta(hours=2)
"""A session still active is held back (its episode is not over) for at most this long."""


class SessionReadiness:
    """Tells which waiting sessions a pass takes now, by `settings` and `clock`."""

    def __init__(self, settings: ProcessorSettings, clock: Callable[[], datetime]) -> None:
        self._settings = settings
        self._clock = clock

    def ready_at(self, first: datetime, last: datetime) -> datetime:
        """When a session whose waiting events span `first`..`last` is processed: once it has
        been idle `session_idle_seconds` (capped at the episode gap), or held `MAX_HOLD`."""
        idle = min(timedelta(seconds=self._settings.session_idle_seconds), DEFAULT_GAP)
        return min(last + idle, first + MAX_HOLD)

    def ready(self, events: list[StoredEvent]) -> list[StoredEvent]:
        """Events of sessions that are finished for now (see `ready_at`)."""
        now = self._clock()
        spans: dict[str | None, tuple[datetime, datetime]] = {}
        for event in events:
            first, last = spans.get(event.session_id, (event.timestamp, event.timestamp))
            spans[event.session_id] = (min(first, event.timestamp), max(last, event.timestamp))
        ready = {
            session for session, (first, last) in spans.items() if self.ready_at(first, last) <= now
        }
        return [e for e in events if e.session_id in ready]

    async def next_processing_at(self, store: Store) -> datetime | None:
        """The latest time the events waiting now will have been processed (None: none wait):
        the first pass after their sessions are ready, passes running every `interval_seconds`."""
        spans = await store.waiting_sessions(store.project_id)
        if not spans:
            return None
        ready = min(self.ready_at(first, last) for first, last in spans)
        return max(ready, self._clock()) + timedelta(seconds=self._settings.interval_seconds)
