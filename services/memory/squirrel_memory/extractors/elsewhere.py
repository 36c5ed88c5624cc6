"""Who looked outside the project: the subagents whose reads reached another folder.

A subagent's reads, commands and fixes are the session's work, as the main agent's are, and
the rules read them alike. Its report (its final text) is another matter when it was sent to
look somewhere else, at another repository or a dependency: what it then says the project is,
how it is built or tested, describes that other place. So a reply that would say what *this*
project is counts only when its speaker read nothing outside the project root: for a subagent,
none of its own reads in the episode; a file outside the root is never evidence of the project.
The launcher's result in the parent's session is that report relayed (Claude Code's `Agent`
tool, `Task` before 2.1): it shows what the subagent read, not that the parent read anything.
"""

from __future__ import annotations

from collections.abc import Iterable

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.models import StoredEvent

#: Events whose paths are what a tool looked at (a read, a search, a listing).
_LOOKING = frozenset({EventType.TOOL_CALL, EventType.TOOL_RESULT})
#: Tools that launch a subagent and return its report (Claude Code's, under both names).
SUBAGENT_LAUNCHERS = frozenset({"Agent", "Task"})


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


def subagents_elsewhere(events: Iterable[StoredEvent]) -> frozenset[str]:
    """The subagents (by agent id) that looked at a path outside the project root."""
    return frozenset(_agent(e) for e in events if e.sidechain and looked_outside(e))


def speaks_elsewhere(event: StoredEvent, elsewhere: frozenset[str]) -> bool:
    """Whether `event` is the text of a subagent in `elsewhere` (`subagents_elsewhere`):
    whatever it says of a project is about the other place it read."""
    return event.sidechain and _agent(event) in elsewhere


def read_in_project(event: StoredEvent) -> bool:
    """Whether `event` is a tool's result that shows something of the project: not a result
    that looked outside the project root, nor a subagent's report relayed by its launcher."""
    return (
        event.event_type == EventType.TOOL_RESULT
        and event.content.get("tool") not in SUBAGENT_LAUNCHERS
        and not looked_outside(event)
    )
