"""Who is calling: the team user a request's token belongs to, bound for that request only.

The team server's edge sets it from the token (never from the request); the memory service reads
it to keep one user's private memories from another. It is None for a local install, where the
only caller is the install's own user.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar, Token

from squirrel_core.team_grants import Grant

_TEAM_USER: ContextVar[str | None] = ContextVar("squirrel_team_user", default=None)
_TEAM_GRANT: ContextVar[Grant | None] = ContextVar("squirrel_team_grant", default=None)


def team_user() -> str | None:
    """The team user of the request being served, or None (a local caller)."""
    return _TEAM_USER.get()


def team_grant() -> Grant | None:
    """What the team token of the request being served may do, or None (a local caller)."""
    return _TEAM_GRANT.get()


def bind_team_grant(grant: Grant | None) -> Token[Grant | None]:
    return _TEAM_GRANT.set(grant)


def unbind_team_grant(token: Token[Grant | None]) -> None:
    with contextlib.suppress(ValueError):
        _TEAM_GRANT.reset(token)


def bind_team_user(user: str | None) -> Token[str | None]:
    """Binds `user` for the current request; returns the token `unbind_team_user` takes."""
    return _TEAM_USER.set(user)


def unbind_team_user(token: Token[str | None]) -> None:
    # A streaming handler may end in another context than it began in; the binding then ends
    # with that context anyway.
    with contextlib.suppress(ValueError):
        _TEAM_USER.reset(token)


@contextlib.contextmanager
def serving_team_user(user: str | None) -> Iterator[None]:
    """Serves the block as a request of team user `user` (None: the install's own caller)."""
    token = bind_team_user(user)
    try:
        yield
    finally:
        unbind_team_user(token)
