"""Remembers that fell back to local memory, kept and sent to the team server when it returns.

When a `remember` on a joined laptop could not use the team server (down, too slow, refused),
the memory is written to local memory and its request is queued here, in
`<home>/team/outbox.db` (SQLite, one row per remember, committed before the user is answered;
the CLI, `sqrl serve` and `sqrl mcp` of one home share it). `OutboxSender` sends the queue, oldest
first, as soon as the team answers again: it tries every `RETRY_SECONDS` on a fresh channel (an
old one may still be backing off), and at once when a read finds the team back.

Each row is sent once. Its id is the idempotency key on this side: a sender claims rows for a
lease before sending (another process sending the same queue leaves them alone) and deletes a row
when the team server acknowledged it. The lease is kept in the file, so it is on the wall clock
(the one clock every process of the home shares, across restarts), and a step of that clock is
harmless: a claim that ends further ahead than a lease from now (the clock stepped back since it
was made) is void, so rows never wait past a lease however far the clock went back; a step
forward may let a second sender take rows still being sent, and each row carries one
idempotency key, so the team server answers the second send with the first one's reply. A reply
lost after the server stored the memory leaves the row, sent again after the lease with the same
key, so the team does not hold it twice.
A statement the team refuses as invalid is dropped from the queue (it stays in local memory); a
project the team does not know yet, or a token without write access, keeps its rows for later.
A token the server refuses (revoked or unknown) keeps every row; the background rounds then wait
for another token in the home (`sqrl team join`) instead of sending the refused one every few
seconds (they try it again after ten minutes), and `on_token` notes the refusal for
`sqrl status` and `sqrl doctor`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import structlog

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import (
    InvalidArgumentError,
    SquirrelError,
    UnauthenticatedError,
    UnavailableError,
)
from squirrel_core.files import ensure_private_dir
from squirrel_core.store_paths import ensure_private_file, secure_sqlite_files

log = structlog.get_logger()

RETRY_SECONDS: Final = 3.0
"""While rows wait, how often the team server is tried again."""
REFUSED_RETRY_SECONDS: Final = 600.0
"""After the server refused the token in use, how long the background rounds wait before trying
that same token again (another token saved in the home is tried at once)."""
KEPT_RETRY_SECONDS: Final = 600.0
"""Rows the server keeps refusing for their project (PERMISSION_DENIED: a `read` token, a
project not granted or not created yet) are tried again after a pause that doubles from
`RETRY_SECONDS` up to this, not every 3 seconds and at every read the team answers; a new row
queued, or a row sent, ends the pause."""
LEASE_SECONDS: Final = 120.0
"""How long a claimed row is left to its sender before another may send it."""
CLAIM_LIMIT: Final = 200

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL,
    request BLOB NOT NULL,
    queued_at REAL NOT NULL,
    claimed_until REAL NOT NULL DEFAULT 0
)
"""


@dataclass(frozen=True, slots=True)
class Queued:
    """One queued remember: its id, the local project it was written to, the request."""

    id: str
    project: str
    request: pb.RememberRequest


class TeamOutbox:
    """The queue file (blocking calls: the sender runs them in a thread)."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        self._path = path
        self._clock = clock

    @property
    def path(self) -> Path:
        return self._path

    def _connect(self) -> sqlite3.Connection:
        # The queue holds remembered text: 0600 like every store, its folder 0700.
        ensure_private_dir(self._path.parent)
        ensure_private_file(self._path)
        conn = sqlite3.connect(self._path, timeout=10.0, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(_SCHEMA)
        secure_sqlite_files(self._path)
        return conn

    def put(self, project: str, request: pb.RememberRequest) -> str:
        """Queues `request` (its project id and user are set when sent); returns the row id."""
        row_id = uuid.uuid4().hex
        kept = pb.RememberRequest()
        kept.CopyFrom(request)
        kept.project_id = ""
        kept.user_id = ""  # the team server derives the user from the token
        # Every send of the row carries one key: a reply lost after the team stored the
        # memory makes the next send answer that reply, not a second write.
        kept.idempotency_key = kept.idempotency_key or uuid.uuid4().hex
        with contextlib.closing(self._connect()) as conn:
            conn.execute(
                "INSERT INTO outbox (id, project, request, queued_at) VALUES (?, ?, ?, ?)",
                (row_id, project, kept.SerializeToString(), self._clock()),
            )
        return row_id

    def claim(self, *, limit: int = CLAIM_LIMIT, lease: float = LEASE_SECONDS) -> list[Queued]:
        """The oldest unclaimed rows, now claimed for `lease` seconds. A claim ending more than
        `lease` from now was made before the clock stepped back: it is void."""
        now = self._clock()
        with contextlib.closing(self._connect()) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                rows = conn.execute(
                    "SELECT id, project, request FROM outbox"
                    " WHERE claimed_until <= ? OR claimed_until > ? ORDER BY seq LIMIT ?",
                    (now, now + lease, limit),
                ).fetchall()
                conn.executemany(
                    "UPDATE outbox SET claimed_until = ? WHERE id = ?",
                    [(now + lease, r[0]) for r in rows],
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return [Queued(r[0], r[1], pb.RememberRequest.FromString(r[2])) for r in rows]

    def done(self, row_id: str) -> None:
        with contextlib.closing(self._connect()) as conn:
            conn.execute("DELETE FROM outbox WHERE id = ?", (row_id,))

    def release(self, row_ids: list[str]) -> None:
        """Rows claimed but not sent: free for the next try at once."""
        with contextlib.closing(self._connect()) as conn:
            conn.executemany(
                "UPDATE outbox SET claimed_until = 0 WHERE id = ?", [(i,) for i in row_ids]
            )

    def pending(self) -> int:
        if not self._path.exists():
            return 0
        with contextlib.closing(self._connect()) as conn:
            return int(conn.execute("SELECT count(*) FROM outbox").fetchone()[0])


@dataclass
class FlushReport:
    sent: int = 0
    dropped: int = 0
    kept: int = 0


class OutboxSender:
    """Sends the queue to the team server: now (`flush`), and in the background while rows wait."""

    def __init__(
        self,
        outbox: TeamOutbox,
        client_factory: Callable[[], MemoryClient],
        team_id: Callable[[str], Awaitable[str]],
        *,
        timeout: float,
        retry_every: float = RETRY_SECONDS,
        token: Callable[[], str] | None = None,
    ) -> None:
        self._outbox = outbox
        self._client_factory = client_factory
        self._team_id = team_id
        self._timeout = timeout
        self._retry_every = retry_every
        self._token = token
        """The token calls go with now: after the server refused one, the background rounds
        wait for another (a revoked token is not sent again every few seconds)."""
        self._refused_token: str | None = None
        self._refused_at = 0.0
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.on_sent: Callable[[], None] | None = None
        """Called after a round sent something (the team is back)."""
        self.on_token: Callable[[bool], None] | None = None
        """Told, in a thread, whether the team server accepted the token (a row sent) or
        refused it (UNAUTHENTICATED: the rows stay queued for a new token)."""
        self.last_error: str | None = None
        self._refused = False
        self._kept_pause = 0.0
        self._kept_until = 0.0
        """While only rows the server keeps refusing wait (`KEPT_RETRY_SECONDS`), the
        background rounds are held until then."""

    @property
    def outbox(self) -> TeamOutbox:
        return self._outbox

    async def queue(self, project: str, request: pb.RememberRequest) -> str:
        row_id = await asyncio.to_thread(self._outbox.put, project, request)
        self._kept_until = 0.0  # a new row may be for a project the server takes
        log.info("team_remember_queued", project_hash=hash(project) & 0xFFFF)
        return row_id

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="team-outbox")

    async def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while not self._stop.is_set():
            try:
                waiting = await asyncio.to_thread(self._outbox.pending)
                held = time.monotonic() < self._kept_until
                if waiting and not held and not self._same_refused_token():
                    await self.flush()
            except (SquirrelError, OSError, sqlite3.Error) as exc:
                log.warning("team_outbox_failed", error_type=type(exc).__name__)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._retry_every)
            self._wake.clear()

    def _same_refused_token(self) -> bool:
        """Whether the token in use is still the one the server last refused."""
        if self._refused_token is None or self._token is None:
            return False
        if time.monotonic() - self._refused_at >= REFUSED_RETRY_SECONDS:
            return False
        try:
            return self._token() == self._refused_token
        except (SquirrelError, OSError):
            return True

    async def flush(self) -> FlushReport:
        """One round over the queue; a team server still away leaves the rest for later."""
        async with self._lock:
            report = FlushReport()
            rows = await asyncio.to_thread(self._outbox.claim)
            if not rows:
                return report
            self._refused = False
            away = False
            client = self._client_factory()
            try:
                for index, row in enumerate(rows):
                    outcome = await self._send(client, row)
                    if outcome == "away":
                        away = True
                        left = [r.id for r in rows[index:]]
                        report.kept += len(left)
                        await asyncio.to_thread(self._outbox.release, left)
                        break
                    if outcome == "kept":
                        report.kept += 1
                        await asyncio.to_thread(self._outbox.release, [row.id])
                        continue
                    await asyncio.to_thread(self._outbox.done, row.id)
                    if outcome == "sent":
                        report.sent += 1
                    else:
                        report.dropped += 1
            finally:
                await client.close()
            self._hold_kept(report, away)
            if self._refused:
                self._refused_token = self._token() if self._token is not None else None
                self._refused_at = time.monotonic()
            elif report.sent:
                self._refused_token = None
            if self.on_token is not None and (report.sent or self._refused):
                await asyncio.to_thread(self.on_token, not self._refused)
            if report.sent:
                self.last_error = None
                log.info("team_outbox_sent", sent=report.sent, kept=report.kept)
                if self.on_sent is not None:
                    self.on_sent()
            return report

    def _hold_kept(self, report: FlushReport, away: bool) -> None:
        """After a round whose rows the server all kept refusing for their project, the next
        background round waits twice as long as the last (up to `KEPT_RETRY_SECONDS`)."""
        if report.kept and not report.sent and not away:
            self._kept_pause = min(KEPT_RETRY_SECONDS, max(self._retry_every, self._kept_pause * 2))
            self._kept_until = time.monotonic() + self._kept_pause
        elif report.sent:
            self._kept_pause = self._kept_until = 0.0

    async def _send(self, client: MemoryClient, row: Queued) -> str:
        """ "sent", "dropped" (the team refuses it as invalid), "kept" (not this project now),
        or "away" (the team server did not answer, or refused the token: stop the round)."""
        request = pb.RememberRequest()
        request.CopyFrom(row.request)
        try:
            request.project_id = await self._team_id(row.project)
            await client.call(client.stub.Remember, request, timeout=self._timeout)
        except InvalidArgumentError:
            log.warning("team_outbox_dropped", reason="invalid_argument")
            return "dropped"
        except (UnavailableError, UnauthenticatedError, TimeoutError, OSError) as exc:
            self.last_error = type(exc).__name__
            self._refused = isinstance(exc, UnauthenticatedError)
            return "away"
        except SquirrelError as exc:  # not this project (yet), or this token may not write
            self.last_error = type(exc).__name__
            return "kept"
        return "sent"
