"""Writes sent with an idempotency key run once per project; a retry gets the first reply.

The key is claimed in the project's store before the write runs and the serialized reply kept
after it (`storage.kept_replies`). The write runs in its own task, shielded from the caller:
a client that gives up (or whose connection drops) after the write began does not stop it
half-way, and its retry, served by this process, waits for that same task's reply. A retry
whose first call still runs in another process is answered UNAVAILABLE (retry later).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import Protocol, Self, TypeVar

import structlog

from squirrel_core.errors import InvalidArgumentError, UnavailableError
from squirrel_memory.storage import Store

log = structlog.get_logger()


class Reply(Protocol):
    """A protobuf message (what a keyed write answers)."""

    def SerializeToString(self, *, deterministic: bool = ...) -> bytes: ...  # noqa: N802

    @classmethod
    def FromString(cls, s: bytes) -> Self: ...  # noqa: N802


R = TypeVar("R", bound=Reply)


def fingerprint(method: str, user: str, request: Reply) -> str:
    """What a key is claimed for: the method, the caller and the request (its key included,
    so the caller fills the key in before asking)."""
    digest = hashlib.sha256()
    for part in (method.encode(), user.encode(), request.SerializeToString(deterministic=True)):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


class KeyedWrites:
    """Runs keyed writes once per (project, key) and answers retries with the kept reply."""

    def __init__(self, store_of: Callable[[str], Awaitable[Store]]) -> None:
        self._store_of = store_of
        self._running: dict[tuple[str, str], asyncio.Task[bytes]] = {}

    async def run(
        self,
        project_id: str,
        key: str,
        *,
        method: str,
        user: str,
        request: Reply,
        reply_type: type[R],
        write: Callable[[], Awaitable[R]],
    ) -> R:
        """`write()`'s reply; with a `key`, the reply of the first call that sent it."""
        if not key:
            return await write()
        store = await self._store_of(project_id)
        claimed_for = fingerprint(method, user, request)
        while True:
            kept = await store.claim_reply(key, method, claimed_for)
            if kept is None:
                task = asyncio.create_task(self._write_and_keep(store, key, write))
                self._running[project_id, key] = task
                task.add_done_callback(lambda t: self._finished(project_id, key, t))
                return reply_type.FromString(await asyncio.shield(task))
            if kept.method != method or kept.fingerprint != claimed_for:
                raise InvalidArgumentError(
                    "this idempotency key was already used for another request; "
                    "make a new key for each write"
                )
            if kept.reply is not None:
                log.info("keyed_write_repeated", project_id=project_id, method=method)
                return reply_type.FromString(kept.reply)
            running = self._running.get((project_id, key))
            if running is None:
                raise UnavailableError(
                    "a write with this idempotency key is still running; retry it shortly"
                )
            # The first call runs here: its reply (or its release, after which this call
            # claims the key and writes) is in the store once it is done.
            await asyncio.wait([running])

    def _finished(self, project_id: str, key: str, task: asyncio.Task[bytes]) -> None:
        if self._running.get((project_id, key)) is task:
            del self._running[project_id, key]
        if not task.cancelled():
            task.exception()  # seen here: a caller that gave up does not read it

    async def _write_and_keep(
        self, store: Store, key: str, write: Callable[[], Awaitable[Reply]]
    ) -> bytes:
        try:
            reply = await write()
        except BaseException:
            await store.release_reply(key)
            raise
        data = reply.SerializeToString()
        await store.keep_reply(key, data)
        return data
