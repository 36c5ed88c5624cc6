"""What each live session already has in its context from the hooks, so a prompt is not served
it again.

The session-start answer starts a session's record afresh (also after `/clear` or a compaction,
when the host starts the session's context again); each per-prompt answer adds to it. A memory
counts as already served when its id was served, or when its text is contained in a line the
session was served (the project brief shows facts without their ids, behind a label), and the
test framework fact when a command the session was served runs that framework. Only the
most recent sessions are kept, each with a bounded record: this is a saving of tokens, never a
promise.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from squirrel_gateway.hook_context import Injection, Served
from squirrel_gateway.hook_left_out import framework_run

MAX_SESSIONS: Final = 256
"""Sessions remembered; the least recently answered is forgotten first."""
MAX_ITEMS: Final = 200
"""Items remembered per session; the oldest go first."""


def _flat(text: str) -> str:
    return " ".join(text.split())


class SessionServed:
    """The items each recent session was served by the hooks, by memory id and text."""

    def __init__(self) -> None:
        self._sessions: OrderedDict[str, OrderedDict[str, None]] = OrderedDict()

    def started(self, session_id: str, injection: Injection) -> None:
        """A session (re)started its context: only what this answer served is in it."""
        if not session_id:
            return
        self._sessions.pop(session_id, None)
        self.add(session_id, injection)

    def add(self, session_id: str, injection: Injection) -> None:
        """The session was also served this answer."""
        if not session_id:
            return
        record = self._sessions.pop(session_id, None) or OrderedDict()
        for item in injection.served:
            for mark in (f"id:{item.memory_id}" if item.memory_id else "", _flat(item.content)):
                if mark:
                    record[mark] = None
                    record.move_to_end(mark)
        while len(record) > MAX_ITEMS:
            record.popitem(last=False)
        self._sessions[session_id] = record
        while len(self._sessions) > MAX_SESSIONS:
            self._sessions.popitem(last=False)

    def has(self, session_id: str, item: Served) -> bool:
        """Whether the session already has `item` in its context from an earlier answer."""
        record = self._sessions.get(session_id)
        if not record:
            return False
        if item.memory_id and f"id:{item.memory_id}" in record:
            return True
        text = _flat(item.content)
        # The test framework fact says nothing a command the session has already runs.
        return bool(text) and (any(text in line for line in record) or framework_run(text, record))
