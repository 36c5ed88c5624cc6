"""Which memories each session was served: queued as the hooks answer, sent in the background.

The hook service tells `ServedLog.observe` what it served (session id from the hook payload,
the memories its answer named) after computing its answer; nothing is awaited there, so the
answer never waits on this record. A background task, a moment after the answer went out
(`LINGER_SECONDS`), sends the queue to the memory service
(`RecordServedMemories`), a batch per (project, session), and keeps what could not be sent for
the next try. On shutdown it sends what it can and writes the rest to `<run>/served.jsonl`,
read back (and removed) at the next start: nothing is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import structlog

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import SquirrelError
from squirrel_core.files import write_private_file
from squirrel_core.settings import Settings
from squirrel_core.wire import timestamp_pb
from squirrel_gateway.hook_context import Injection
from squirrel_gateway.hook_hosts import HookInput, Moment

log = structlog.get_logger()

SPOOL_FILE: Final = "served.jsonl"
MAX_PENDING: Final = 20_000
"""Served memories kept waiting while the memory service is away; the oldest go first."""
LINGER_SECONDS: Final = 0.25
"""How long the sender waits after an answer before sending: the hook's reply goes out first,
and the servings of one moment travel together."""
BATCH_LIMIT: Final = 1000
"""Served memories per call (the RPC's limit)."""
_CHANNELS: Final = {Moment.SESSION_START: "session_start", Moment.PROMPT: "prompt"}


@dataclass(frozen=True, slots=True)
class ServedBatch:
    """Memories one session of one project was served."""

    project_id: str
    session_id: str
    memory_ids: tuple[str, ...]
    served_at: datetime
    channel: str

    def to_json(self) -> str:
        return json.dumps(
            {
                "project_id": self.project_id,
                "session_id": self.session_id,
                "memory_ids": list(self.memory_ids),
                "served_at": self.served_at.isoformat(),
                "channel": self.channel,
            }
        )

    @classmethod
    def from_json(cls, line: str) -> ServedBatch:
        data = json.loads(line)
        return cls(
            str(data["project_id"]),
            str(data["session_id"]),
            tuple(str(i) for i in data["memory_ids"]),
            datetime.fromisoformat(str(data["served_at"])),
            str(data["channel"]),
        )


Send = Callable[[ServedBatch], Awaitable[None]]
"""Delivers one batch; raises `SquirrelError` when it could not (the batch is kept)."""


def grpc_sender(client: Callable[[], MemoryClient]) -> Send:
    """Sends a batch to the memory service with `RecordServedMemories`."""

    async def send(batch: ServedBatch) -> None:
        memory = client()
        await memory.call(
            memory.stub.RecordServedMemories,
            pb.RecordServedMemoriesRequest(
                project_id=batch.project_id,
                session_id=batch.session_id,
                memories=[
                    pb.ServedMemory(
                        memory_id=memory_id,
                        served_at=timestamp_pb(batch.served_at),
                        channel=batch.channel,
                    )
                    for memory_id in batch.memory_ids
                ],
            ),
        )

    return send


def served_log_for(
    settings: Settings, client: Callable[[], MemoryClient], run_dir: Path
) -> ServedLog | None:
    """The gateway's served log, sending to the local memory service (`client`); None when
    `hooks.record_served` is off. Also on a laptop that shares with a team server: its hooks'
    answers hold local memories beside the team's, and the local ones are judged here like any
    other. A team memory's id names no memory of the local project, so the memory service does
    not record it (`outcomes.judge.record_served`): it never waits there for an outcome, which
    would be the team server's to give."""
    if not settings.bool_("hooks.record_served"):
        return None
    return ServedLog(grpc_sender(client), run_dir)


class ServedLog:
    """The queue of served memories and the task that sends it."""

    def __init__(
        self,
        send: Send,
        run_dir: Path,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        retry_seconds: float = 5.0,
        linger_seconds: float = LINGER_SECONDS,
    ) -> None:
        self._send = send
        self._spool = run_dir / SPOOL_FILE
        self._clock = clock
        self._retry = retry_seconds
        self._linger = linger_seconds
        self._pending: list[ServedBatch] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._loaded = False
        self._sending = asyncio.Lock()

    @property
    def pending(self) -> int:
        """Served memories not yet delivered."""
        return sum(len(b.memory_ids) for b in self._pending)

    def observe(self, hook: HookInput, project_id: str, injection: Injection) -> None:
        """The hook service's observer: queue what this answer served (no waiting here)."""
        channel = _CHANNELS.get(hook.moment)
        ids = tuple(dict.fromkeys(s.memory_id for s in injection.served if s.memory_id))
        if self._closed or channel is None or not hook.session_id or not ids:
            return
        for start in range(0, len(ids), BATCH_LIMIT):
            part = ids[start : start + BATCH_LIMIT]
            self._pending.append(
                ServedBatch(project_id, hook.session_id, part, self._clock(), channel)
            )
        self._trim()
        self._start()

    def _trim(self) -> None:
        while self.pending > MAX_PENDING and len(self._pending) > 1:
            dropped = self._pending.pop(0)
            log.warning("served_memories_dropped", count=len(dropped.memory_ids))

    def _start(self) -> None:
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="served-log")

    def load_spool(self) -> None:
        """Queue what an earlier run could not send (once), and remove its file."""
        if self._loaded:
            return
        self._loaded = True
        try:
            lines = self._spool.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return
        except OSError as exc:
            log.warning("served_spool_unread", error_type=type(exc).__name__)
            return
        kept: list[ServedBatch] = []
        for line in lines:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                kept.append(ServedBatch.from_json(line))
        self._pending = kept + self._pending
        self._spool.unlink(missing_ok=True)
        if kept:
            log.info("served_spool_read", batches=len(kept))

    async def _run(self) -> None:
        while not self._closed:
            await self._wake.wait()
            await asyncio.sleep(self._linger)
            self._wake.clear()
            if not await self.flush():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self._retry)
                self._wake.set()

    async def flush(self) -> bool:
        """Send everything queued now; True when nothing is left."""
        async with self._sending:
            return await self._send_all()

    async def _send_all(self) -> bool:
        self.load_spool()
        while self._pending:
            batch = self._pending[0]
            try:
                await self._send(batch)
            except SquirrelError as exc:
                log.info("served_memories_unsent", error_type=type(exc).__name__)
                return False
            if self._pending and self._pending[0] is batch:
                self._pending.pop(0)
        return True

    async def close(self) -> None:
        """Stop the task, send what is left if the memory service answers, spool the rest."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.flush()
        self._write_spool(self._pending)

    def _write_spool(self, batches: Sequence[ServedBatch]) -> None:
        if not batches:
            return
        body = "".join(b.to_json() + "\n" for b in batches).encode("utf-8")
        try:
            write_private_file(self._spool, body)
        except OSError as exc:
            log.warning("served_spool_unwritten", error_type=type(exc).__name__)
            return
        log.info("served_spooled", batches=len(batches))
