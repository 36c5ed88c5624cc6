"""The gateway's client of the team server, carrying the token the home holds now.

`sqrl team join` saves a new token in `<home>/team/token` when the admin replaced a revoked
one. Reads must use it at once, not at the next `sqrl up`: a call looks at the token file (one
`stat`) when a second or more has passed since the last look, reads it again only when it
changed, and opens a new client for a new token, which that call and every one after it use. So
the event loop makes at most one `stat` a second, however many calls it serves. Once the server
refused the token in use (`refused`), every call looks, until another token is saved: the next
call after `sqrl team join` uses the new one (those calls ask no server meanwhile). A file that
cannot be read (removed, a folder in its place, not text) keeps the token in use.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Final

import structlog

from squirrel_core.clients import MemoryClient
from squirrel_core.team_client import TeamLink, team_memory_client

log = structlog.get_logger()

Stamp = tuple[int, int, int] | None

LOOK_EVERY_SECONDS: Final = 1.0
"""Least time between two looks at the token file, whatever the rate of calls."""


def _stamp(path: Path) -> Stamp:
    """What changes when the file is saved again (`write_private_file` replaces it)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


class TeamConnection:
    """A `MemoryClient` of the team server with the home's current token."""

    def __init__(
        self,
        link: TeamLink,
        token_file: Path,
        saved_link: Callable[[], TeamLink | None],
        *,
        timeout: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._link = link
        self._token_file = token_file
        self._saved_link = saved_link
        self._timeout = timeout
        self._clock = clock
        self._seen = _stamp(token_file)
        self._looked_at = clock()
        self._refused = False
        self._client: MemoryClient | None = None
        self._stale: list[MemoryClient] = []

    def current_link(self) -> TeamLink:
        """The link with the token the home holds now."""
        self.token_replaced()
        return self._link

    def client(self) -> MemoryClient:
        """The client for the token the home holds now."""
        self.token_replaced()
        if self._client is None:
            self._client = team_memory_client(self._link, timeout=self._timeout)
        return self._client

    def refused(self) -> None:
        """The team server refused the token in use: look at the file on every call until
        another token is saved there."""
        self._refused = True

    def token_replaced(self) -> bool:
        """Whether another token was saved since the last look; it is used from now on. The
        file is looked at when `LOOK_EVERY_SECONDS` have passed since the last look, or on
        every call while the token in use is one the server refused."""
        now = self._clock()
        if now - self._looked_at < LOOK_EVERY_SECONDS and not self._refused:
            return False
        self._looked_at = now
        stamp = _stamp(self._token_file)
        if stamp == self._seen:
            return False
        self._seen = stamp
        saved = self._saved_link()
        if saved is None or saved.token == self._link.token:
            return False
        self._link = replace(self._link, token=saved.token)
        self._refused = False
        if self._client is not None:
            self._stale.append(self._client)  # a read may still be on it; closed with the rest
            self._client = None
        log.info("team_token_replaced", server=self._link.server)
        return True

    async def close(self) -> None:
        for client in [*self._stale, *([self._client] if self._client else [])]:
            await client.close()
        self._stale.clear()
        self._client = None
