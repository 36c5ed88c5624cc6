"""Who looked outside the project: the subagents whose reads reached another folder.

A subagent's reads, commands and fixes are the session's work, as the main agent's are, and
the rules read them alike. Its report (its final text) is another matter when it was sent to
look somewhere else, at another repository or a dependency: what it then says the project is,
how it is built or tested, describes that other place, and so does the parent's reply that
relays it. So a reply that would say what *this* project is does not count when it is such a
subagent's (one that read a file outside the project root), nor when it is the parent's in a
turn where such a subagent worked and the parent read no file of the project itself. A file
outside the root is never evidence of the project.
The launcher's result in the parent's session (Claude Code's `Agent` tool, `Task` before 2.1)
is that report relayed: it counts as what the subagent read for the parent, unless the
subagent's own records show it looked elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.models import StoredEvent

#: Events whose paths are what a tool looked at (a read, a search, a listing).
_LOOKING = frozenset({EventType.TOOL_CALL, EventType.TOOL_RESULT})


def outside_root(path: str, project_id: str) -> bool:
    """Whether `path` (as an event gives it) lies outside the project root."""
    return relative_path(path, project_id).startswith(("/", "~"))


def looked_outside(event: StoredEvent) -> bool:
    """Whether `event` is a tool call or result that looked at a path outside the project."""
    return event.event_type in _LOOKING and any(
        outside_root(path, event.project_id) for path in event.file_paths
    )


def _agent(event: StoredEvent) -> str:
    return event.agent_id or ""


def _read_of_project(event: StoredEvent) -> bool:
    """A tool's result naming files, all inside the project root (a relayed report names
    none)."""
    return (
        event.event_type == EventType.TOOL_RESULT
        and bool(event.file_paths)
        and not looked_outside(event)
    )


def _turns(events: Iterable[StoredEvent]) -> list[list[StoredEvent]]:
    """`events` cut where the user speaks in the main session."""
    turns: list[list[StoredEvent]] = [[]]
    for event in events:
        if (
            event.event_type == EventType.USER_MESSAGE
            and not event.sidechain
            and is_user_voice(event.origin)
        ):
            turns.append([])
        turns[-1].append(event)
    return turns


def replies_elsewhere(events: Iterable[StoredEvent]) -> frozenset[str]:
    """The ids of the assistant replies in `events` (in order) that speak of another place: a
    subagent's that looked at a path outside the project root, and the parent's in a turn where
    such a subagent worked and the parent read no file of the project itself (it relays)."""
    turns = _turns(events)
    away = {_agent(e) for turn in turns for e in turn if e.sidechain and looked_outside(e)}
    if not away:
        return frozenset()
    found: set[str] = set()
    for turn in turns:
        relayed = any(e.sidechain and _agent(e) in away for e in turn)
        own_read = any(not e.sidechain and _read_of_project(e) for e in turn)
        for event in turn:
            if event.event_type != EventType.ASSISTANT_RESPONSE:
                continue
            if (_agent(event) in away) if event.sidechain else (relayed and not own_read):
                found.add(event.id)
    return frozenset(found)


def read_in_project(event: StoredEvent) -> bool:
    """Whether `event` is a tool's result that may show something of the project: any but one
    that looked outside the project root."""
    return event.event_type == EventType.TOOL_RESULT and not looked_outside(event)
