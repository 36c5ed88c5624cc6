"""Parsed events as the extractors read them, without a store: what the benches hand to rules
that take `StoredEvent`s (ids are positions, stable from run to run)."""

from __future__ import annotations

from collections.abc import Sequence

from squirrel_core.events import Event
from squirrel_memory.models import StoredEvent


def stored(events: Sequence[Event], project_id: str, tag: str) -> list[StoredEvent]:
    """The events as the extractors read them, with ids `<tag>-<position>`."""
    return [
        StoredEvent(
            id=f"{tag}-{n:06d}",
            project_id=project_id,
            user_id="",
            source_tool=str(e.source_tool),
            session_id=e.session_id,
            timestamp=e.timestamp,
            event_type=str(e.event_type),
            content=e.content,
            file_paths=e.file_paths,
            hash="",
            origin=str(e.origin) if e.origin else "",
            sidechain=e.sidechain,
            agent_id=e.agent_id,
        )
        for n, e in enumerate(events)
    ]
