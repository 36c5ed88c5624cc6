"""Reaching the team server: each call within a deadline, and a pause after it fails.

A call to the team server that does not answer within the wait (`TEAM_WAIT_SECONDS` unless
told), or fails, gives None, and the team is left alone for `RETRY_AFTER_SECONDS` (a project
the team has not seen yet is no failure); the reason is noted for whoever answers
(`team_away`). A token saved since the server refused the one in use (`sqrl team join`) ends
the pause, for every call. When the team answers, what waits in the outbox goes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

import structlog

from squirrel_core.errors import (
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
    SquirrelError,
    UnauthenticatedError,
)
from squirrel_gateway import team_away
from squirrel_gateway.team_outbox import OutboxSender

log = structlog.get_logger()

TEAM_WAIT_SECONDS: Final = 3.0
RETRY_AFTER_SECONDS: Final = 30.0
T = TypeVar("T")


def _nothing() -> None:
    return None


def _one_token() -> str:
    return ""


class TeamReach:
    """Calls to one team server, each within `wait_seconds`, paused after a failure."""

    def __init__(
        self,
        team_id: Callable[[str], str],
        *,
        server: str,
        wait_seconds: float = TEAM_WAIT_SECONDS,
        outbox: OutboxSender | None = None,
        token_in_use: Callable[[], str] | None = None,
        token_refused: Callable[[], None] | None = None,
    ) -> None:
        """`team_id` gives a project's id on the team server. `token_in_use` gives the token
        the team calls carry now (the home's, read again when `sqrl team join` saved another):
        a pause ends when it is no longer the refused one. `token_refused` is told when the
        team server refused it (UNAUTHENTICATED)."""
        self._team_id = team_id
        self._server = server
        self._wait = wait_seconds
        self._outbox = outbox
        self._token_in_use = token_in_use or _one_token
        self._token_refused = token_refused or _nothing
        self._down_until = 0.0
        self._down_reason = ""
        self._down_token = ""
        """The token the call that began the pause carried."""
        self._ids: dict[str, str] = {}

    @property
    def server(self) -> str:
        return self._server

    @property
    def outbox(self) -> OutboxSender | None:
        return self._outbox

    def waiting_at_most(self, seconds: float) -> TeamReach:
        """A reach of the same server waiting at most `seconds` for each call (paused, and
        knowing project ids, afresh)."""
        return TeamReach(
            self._team_id,
            server=self._server,
            wait_seconds=seconds,
            outbox=self._outbox,
            token_in_use=self._token_in_use,
            token_refused=self._token_refused,
        )

    def team_is_back(self) -> None:
        """The team answered (the outbox sent to it): calls go to it again at once."""
        self._down_until = 0.0

    async def team_id(self, project_id: str) -> str:
        """The project's id on the team server."""
        if project_id not in self._ids:
            self._ids[project_id] = await asyncio.to_thread(self._team_id, project_id)
        return self._ids[project_id]

    async def ask(
        self,
        call: Callable[[str], Awaitable[T]],
        project_id: str,
        *,
        write: bool = False,
        queued: bool = False,
        quiet_not_found: bool = False,
        raise_invalid: bool = False,
    ) -> T | None:
        """`call(team project id)`'s answer, or None (down, slow, failing, or left alone for
        now); the reason is noted for whoever answers (`team_away`). `quiet_not_found`: NOT_FOUND
        is an answer, not a reason to say anything; `raise_invalid`: INVALID_ARGUMENT is the
        caller's mistake, raised."""
        # A token saved since the server refused this one (`sqrl team join`) ends the pause, for
        # every read (each asks for itself: none can use up the news for another).
        token = self._token_in_use()
        if time.monotonic() < self._down_until and token == self._down_token:
            team_away.note(
                team_away.line(self._server, self._down_reason, write=write, queued=queued)
            )
            return None
        try:
            answer = await asyncio.wait_for(call(await self.team_id(project_id)), self._wait)
        except (SquirrelError, TimeoutError, OSError) as exc:
            if isinstance(exc, NotFoundError) and quiet_not_found:
                return None
            if isinstance(exc, InvalidArgumentError) and raise_invalid:
                raise
            if isinstance(exc, UnauthenticatedError):
                self._token_refused()
            reason = team_away.reason_of(exc, self._wait)
            # Left alone for a while: not for a project the team has not seen yet, nor for a
            # write this token may not make (a `read` token still reads the team at once).
            if not isinstance(exc, NotFoundError) and not (
                write and isinstance(exc, PermissionDeniedError)
            ):
                self._down_until = time.monotonic() + RETRY_AFTER_SECONDS
                self._down_reason = reason
                self._down_token = token
            team_away.note(team_away.line(self._server, reason, write=write, queued=queued))
            log.warning("team_read_skipped", server=self._server, error_type=type(exc).__name__)
            return None
        if self._outbox is not None:
            self._outbox.wake()  # the team answers: what waits in the outbox goes now
        return answer
