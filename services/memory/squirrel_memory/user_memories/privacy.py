"""Whose memories a caller may see: on a team server a user's style is that user's alone.

The team server's edge binds the user of each request's token (`squirrel_core.caller`). For
such a request a user-scoped memory (user_style) is visible only when it is that user's; project
memories (facts, pitfalls, recipes) are shared by everyone in the project. Requests with the
install's own token (a local install, or the server machine itself) see everything, as before:
whoever holds that token can read the database files anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from squirrel_core.caller import team_user
from squirrel_core.errors import PermissionDeniedError
from squirrel_core.events import SourceCursor
from squirrel_memory.models import MemoryItem, MemoryType, Scope


def is_private(item: MemoryItem) -> bool:
    """A memory that belongs to one user: user-scoped, or user style."""
    return item.scope is Scope.USER or item.type is MemoryType.USER_STYLE


def visible(item: MemoryItem) -> bool:
    """Whether the current caller may see `item`."""
    viewer = team_user()
    if viewer is None or not is_private(item):
        return True
    return item.user_id == viewer


def visible_items(items: Iterable[MemoryItem]) -> list[MemoryItem]:
    return [m for m in items if visible(m)]


def filtering() -> bool:
    """True when this request's results are filtered (a team user is calling)."""
    return team_user() is not None


def require_admin(what: str) -> None:
    """Work that runs the server's extractor or rebuilds its indexes (and may spend its model
    budget) is for the server machine's own caller, never a team user's token."""
    if team_user() is not None:
        raise PermissionDeniedError(
            f"{what} runs on the team server itself; a team token cannot ask for it"
        )


_OWNER_MARK = "|"


def owned_cursors(cursors: Sequence[SourceCursor]) -> list[SourceCursor]:
    """A team user's cursors, filed under that user (`alice|team://…`): no one can move, or
    read, another user's delivery position."""
    user = team_user()
    if user is None:
        return list(cursors)
    return [replace(c, path=f"{user}{_OWNER_MARK}{c.path}") for c in cursors]


def callers_cursors(cursors: Sequence[SourceCursor]) -> list[SourceCursor]:
    """The cursors the caller may see: a team user's own (as they sent them), or all."""
    user = team_user()
    if user is None:
        return list(cursors)
    mine = f"{user}{_OWNER_MARK}"
    return [replace(c, path=c.path[len(mine) :]) for c in cursors if c.path.startswith(mine)]
