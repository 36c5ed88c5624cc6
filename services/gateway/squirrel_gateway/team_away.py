"""Saying when the team server was not used: one line, with the reason, for every answer.

A read on a joined laptop that had to answer from local memory alone (the team server refused
the token, was unreachable, failed TLS, did not answer in time) must say so: the CLI prints the
line on stderr, MCP tools and hook output end with it. The team backend notes the reason in the
collector of the request being answered (`collecting`); whoever answers reads it back.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from squirrel_core.team_client import failure_reason

_notes: ContextVar[list[str] | None] = ContextVar("team_away_notes", default=None)


@contextlib.contextmanager
def collecting() -> Iterator[list[str]]:
    """The reasons noted while the block runs (tasks started inside it note here too)."""
    notes: list[str] = []
    token = _notes.set(notes)
    try:
        yield notes
    finally:
        _notes.reset(token)


def note(reason: str) -> None:
    """Notes that this request answered without the team server, and why."""
    notes = _notes.get()
    if notes is not None and reason not in notes:
        notes.append(reason)


def reason_of(exc: BaseException, wait_seconds: float) -> str:
    """Why the team server was not used, in a few words (never memory text or a token)."""
    return failure_reason(exc, wait_seconds)


def line(server: str, reason: str, *, write: bool = False, queued: bool = False) -> str:
    """The one line said to the user (`queued`: a write kept to send when the team is back)."""
    if queued:
        where = "written to local memory and queued for the team server"
    else:
        where = "written to local memory only" if write else "answered from local memory only"
    return f"team server {server} not used: {reason}; {where}"


def footer(text: str, notes: list[str]) -> str:
    """`text` with the notes as its last line(s), for MCP tools and hook output."""
    if not notes:
        return text
    said = "\n".join(f"⚠ {n}" for n in notes)
    return f"{text.rstrip()}\n\n{said}" if text.strip() else said
