"""A session cut into the user's turns: from one message of the user's to the next, and whether
a turn's first message can report a problem."""

from __future__ import annotations

from squirrel_core.events import EventType, Origin, is_user_voice
from squirrel_memory.models import StoredEvent


def user_turns(events: list[StoredEvent]) -> list[tuple[int, int]]:
    """(first, end) indexes of each turn: from a user's message to the next one."""
    starts = [
        i
        for i, e in enumerate(events)
        if e.event_type == EventType.USER_MESSAGE and is_user_voice(e.origin)
    ]
    bounds = [0, *starts] if not starts or starts[0] != 0 else starts
    return [(a, b) for a, b in zip(bounds, [*bounds[1:], len(events)], strict=True) if a < b]


def opens_with_report(opener: StoredEvent) -> bool:
    """Whether a turn's first event can report trouble: the user's message, or the parent
    agent's prompt that opens a subagent's transcript (it relays what the user or a check
    reported; its words are never the user's, but its trouble is the session's)."""
    if opener.event_type != EventType.USER_MESSAGE:
        return False
    return is_user_voice(opener.origin) or (
        opener.sidechain and opener.origin == str(Origin.PARENT_AGENT)
    )
