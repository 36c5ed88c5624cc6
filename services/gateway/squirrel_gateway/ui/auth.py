"""Who may use the memory browser: one-time login codes, session cookies and form tokens.

`sqrl ui` asks the gateway (with the bearer token) for a code and opens `/ui/login?code=…`.
The code is good once, for `CODE_TTL_SECONDS`; it becomes an HttpOnly, SameSite=Strict cookie
on 127.0.0.1, so the token itself never appears in a URL. Every form that changes something
carries the session's form token (`csrf`), checked in constant time.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

CODE_TTL_SECONDS: Final = 120.0
SESSION_TTL_SECONDS: Final = 12 * 3600.0
MAX_CODES: Final = 16
"""Codes waiting to be used; the oldest is dropped when another is issued."""
MAX_SESSIONS: Final = 32
COOKIE_NAME: Final = "sqrl_ui"
COOKIE_PATH: Final = "/ui"
_TOKEN_BYTES: Final = 32
_MAX_PRESENTED_CHARS: Final = 200


@dataclass(frozen=True, slots=True)
class Session:
    """A browser signed in with a code: its cookie value and the token its forms carry."""

    session_id: str
    csrf: str
    expires_at: float


class UiSessions:
    """In-memory codes and sessions of one gateway process (a restart signs everyone out)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._codes: dict[str, float] = {}
        self._sessions: dict[str, Session] = {}

    def issue_code(self) -> str:
        """A new single-use login code, valid for `CODE_TTL_SECONDS`."""
        now = self._clock()
        self._codes = {c: t for c, t in self._codes.items() if t > now}
        while len(self._codes) >= MAX_CODES:
            self._codes.pop(next(iter(self._codes)))
        code = secrets.token_urlsafe(_TOKEN_BYTES)
        self._codes[code] = now + CODE_TTL_SECONDS
        return code

    def redeem(self, code: str) -> Session | None:
        """A new session for a valid, unused code; None for anything else. The code is spent."""
        if not code or len(code) > _MAX_PRESENTED_CHARS:
            return None
        now = self._clock()
        match = next((c for c in self._codes if hmac.compare_digest(c, code)), None)
        if match is None:
            return None
        expires = self._codes.pop(match)
        if expires <= now:
            return None
        self._sessions = {s: v for s, v in self._sessions.items() if v.expires_at > now}
        while len(self._sessions) >= MAX_SESSIONS:
            self._sessions.pop(next(iter(self._sessions)))
        session = Session(
            session_id=secrets.token_urlsafe(_TOKEN_BYTES),
            csrf=secrets.token_urlsafe(_TOKEN_BYTES),
            expires_at=now + SESSION_TTL_SECONDS,
        )
        self._sessions[session.session_id] = session
        return session

    def session(self, cookie: str | None) -> Session | None:
        """The live session a cookie value names, or None."""
        if not cookie or len(cookie) > _MAX_PRESENTED_CHARS:
            return None
        found = self._sessions.get(cookie)
        if found is None or not hmac.compare_digest(found.session_id, cookie):
            return None
        if found.expires_at <= self._clock():
            self._sessions.pop(cookie, None)
            return None
        return found

    def end(self, session: Session) -> None:
        self._sessions.pop(session.session_id, None)


def form_token_ok(session: Session, presented: str | None) -> bool:
    """True when a form carried this session's token."""
    return bool(presented) and hmac.compare_digest(session.csrf, presented or "")


def cookie_header(session: Session) -> bytes:
    max_age = int(SESSION_TTL_SECONDS)
    return (
        f"{COOKIE_NAME}={session.session_id}; Path={COOKIE_PATH}; HttpOnly; SameSite=Strict; "
        f"Max-Age={max_age}"
    ).encode()


def cleared_cookie_header() -> bytes:
    """Set-Cookie that makes the browser drop the session cookie (signing out)."""
    return (f"{COOKIE_NAME}=; Path={COOKIE_PATH}; HttpOnly; SameSite=Strict; Max-Age=0").encode()


def cookie_value(header: str | None) -> str | None:
    """The session cookie's value from a `Cookie` request header."""
    if not header:
        return None
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE_NAME:
            return value
    return None
