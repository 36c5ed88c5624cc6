"""Where an interim convention was applied: the files the assistant wrote right after it.

"pour l'instant on code en relatif" says how, not where; the files the assistant edited in
answer, before the user spoke again, are where the convention holds in this project. Named
only when few (a reply that rewrites many files says nothing of one convention's place).
"""

from __future__ import annotations

from dataclasses import replace

from squirrel_core.events import EventType
from squirrel_memory.extractors.file_writes import writes
from squirrel_memory.extractors.firmness import StatedPreference
from squirrel_memory.models import StoredEvent

#: The tag of an interim convention (`tongue_instructions`).
INTERIM_TAG = "interim"
#: The most files named as where a convention was applied.
MAX_APPLIED_FILES = 2


def applied_files(events: list[StoredEvent], index: int) -> list[str]:
    """The files written by tool calls after the event at `index`, up to the next user
    message, in order; [] when more than `MAX_APPLIED_FILES` were."""
    paths: list[str] = []
    for event in events[index + 1 :]:
        if event.event_type == EventType.USER_MESSAGE:
            break
        for written in writes(event):
            if written.path not in paths:
                paths.append(written.path)
    return paths if len(paths) <= MAX_APPLIED_FILES else []


def with_applied_files(
    pref: StatedPreference, events: list[StoredEvent], index: int
) -> StatedPreference:
    """An interim convention with the files it was applied in; any other preference as is."""
    if INTERIM_TAG not in pref.tags or not (paths := applied_files(events, index)):
        return pref
    named = " and ".join(f"`{p}`" for p in paths)
    return replace(pref, content=f"{pref.content} Applied in {named}.")


__all__ = ["INTERIM_TAG", "MAX_APPLIED_FILES", "applied_files", "with_applied_files"]
