"""What every backend checks before it stores events and episodes (no database involved)."""

from __future__ import annotations

from collections.abc import Sequence

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.events import Event
from squirrel_memory.dedup import event_hash
from squirrel_memory.models import Episode
from squirrel_memory.storage.checks import (
    MAX_KEY_CHARS,
    Clock,
    RejectReason,
    check_event,
    check_importance,
    check_text,
)


class EventIntake:
    """The backend-neutral half of an `EventLog`: events checked and hashed, episodes checked."""

    project_id: str
    _clock: Clock
    _max_content_bytes: int

    def _prepare_events(
        self, project_id: str, events: Sequence[Event]
    ) -> tuple[list[tuple[Event, str, str]], list[tuple[int, str]]]:
        """(event, content JSON, dedup hash) of each valid event, and (index, reason) of the
        others."""
        now = self._clock()
        prepared: list[tuple[Event, str, str]] = []
        rejected: list[tuple[int, str]] = []
        for index, event in enumerate(events):
            reason, content_json = check_event(
                event, now=now, max_content_bytes=self._max_content_bytes
            )
            if reason is not None:
                rejected.append((index, str(reason)))
                continue
            assert isinstance(event, Event)
            try:
                digest = event_hash(project_id, event)
            except (TypeError, ValueError, RecursionError):
                rejected.append((index, str(RejectReason.CONTENT_NOT_JSON)))
                continue
            prepared.append((event, content_json, digest))
        return prepared, rejected

    def _check_episodes(self, episodes: Sequence[Episode]) -> None:
        check_episodes(self.project_id, episodes)


def check_episodes(project_id: str, episodes: Sequence[Episode]) -> None:
    """Episodes of this project, with an id and an importance that can be stored."""
    for episode in episodes:
        if not isinstance(episode, Episode):
            raise InvalidArgumentError("episodes must be Episode values")
        if episode.project_id != project_id:
            raise InvalidArgumentError("episode belongs to another project")
        check_text("episode id", episode.id, MAX_KEY_CHARS)
        check_importance(episode.importance)
