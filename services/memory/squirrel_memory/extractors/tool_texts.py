"""What the session's tools were given or printed, as text: what a statement's names are checked
against."""

from __future__ import annotations

from squirrel_core.events import EventType
from squirrel_memory.models import StoredEvent

#: The events whose content is what the session's tools were given or printed.
TOOL_EVENTS = frozenset(
    (EventType.TOOL_CALL, EventType.TOOL_RESULT, EventType.COMMAND_RUN, EventType.CODE_CHANGE)
)


def seen_by_tools(event: StoredEvent) -> list[str]:
    """What the session's tools saw in `event`: every string a tool call, its result, a command
    run or a code change holds, and the paths it names; nothing for any other event."""
    if event.event_type not in TOOL_EVENTS:
        return []
    return [*tool_strings(event.content), *(event.file_paths or ())]


def tool_strings(value: object) -> list[str]:
    """Every string of a tool event's content, nested values included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in tool_strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in tool_strings(v)]
    return []


def tools_saw(events: list[StoredEvent]) -> str:
    """Every string the session's tools were given or printed in `events`, and the paths
    they name, joined."""
    return "\n".join(s for event in events for s in seen_by_tools(event))
