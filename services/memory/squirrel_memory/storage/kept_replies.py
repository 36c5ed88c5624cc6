"""The answers of writes sent with an idempotency key, kept per project: shared rules.

A laptop whose write timed out after the server committed it sends it again with the same
key; the server then answers with the reply it kept instead of writing a second time. A key is
claimed before the write runs (a row without a reply), the reply is kept when the write is
done, and a write that failed releases its claim so that a retry runs it again. A claim left
without a reply for `CLAIM_SECONDS` (its server died between the write and keeping the reply)
may be taken over by a retry. Rows older than `KEEP_DAYS` are dropped when a key is claimed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.storage.checks import Clock
from squirrel_memory.storage.dialect import Dialect
from squirrel_memory.storage.queries import PlanRunner, changed

MAX_IDEMPOTENCY_KEY_CHARS = 128
"""A UUID is 32-36 characters; room for a client's own prefix, no room for text."""

KEEP_DAYS = 7
"""How long a kept reply answers a retry (a laptop's outbox retries within minutes to hours)."""

CLAIM_SECONDS = 120.0
"""A claim without a reply this old is taken to be abandoned (its server stopped mid-write)."""

KEEP_FOR = timedelta(days=KEEP_DAYS)
CLAIM_FOR = timedelta(seconds=CLAIM_SECONDS)

_KEY = re.compile(r"[A-Za-z0-9._:-]+")


def checked_key(key: str) -> str:
    """`key` as stored; `InvalidArgumentError` unless it is 1-128 characters of letters,
    digits, `.`, `_`, `:` and `-` (a UUID, with or without dashes, is)."""
    if not isinstance(key, str) or not key:
        raise InvalidArgumentError("an idempotency key must not be empty")
    if len(key) > MAX_IDEMPOTENCY_KEY_CHARS:
        raise InvalidArgumentError(
            f"an idempotency key holds at most {MAX_IDEMPOTENCY_KEY_CHARS} characters"
        )
    if not _KEY.fullmatch(key):
        raise InvalidArgumentError(
            "an idempotency key holds only letters, digits and the characters . _ : -"
        )
    return key


@dataclass(frozen=True)
class KeptReply:
    """What an earlier call with the same key left: the method and request fingerprint it was
    claimed for, and its serialized reply (None while that call has not finished)."""

    method: str
    fingerprint: str
    reply: bytes | None


def claim_reads(d: Dialect) -> tuple[str, str]:
    """The two reads of a claim, in `d`: the statement that drops the project's rows claimed
    before `KEEP_FOR` (parameters: that time, then the project's, `Dialect.of_project`), and
    the one that reads a key's row (the key, then the project's): its method, fingerprint and
    reply (as `kept_reply` reads them) and when it was claimed."""
    mine, _ = d.of_project("")
    return (
        f"DELETE FROM kept_replies WHERE claimed_at < {d.mark}{mine}",  # noqa: S608 (constants)
        "SELECT method, fingerprint, reply, claimed_at FROM kept_replies "  # noqa: S608
        f"WHERE key = {d.mark}{mine}",
    )


def kept_reply(row: Sequence[Any]) -> KeptReply:
    """The `KeptReply` of a row read by `claim_reads`' second statement."""
    return KeptReply(str(row[0]), str(row[1]), None if row[2] is None else bytes(row[2]))


class SharedKeptReplies(PlanRunner):
    """Claiming, keeping and releasing a key's reply, for both backends; the claim's statements
    are each backend's own (`_claim`: SQLite's one writer reads then writes, Postgres claims in
    one `INSERT … ON CONFLICT … RETURNING`, so two servers cannot both win a key)."""

    _clock: Clock

    if TYPE_CHECKING:  # the backend's

        async def _claim(
            self, key: str, method: str, fingerprint: str, now: datetime
        ) -> KeptReply | None:
            """`claim_reply` of a checked `key` at `now`, in the backend's own statements."""
            ...

    async def claim_reply(self, key: str, method: str, fingerprint: str) -> KeptReply | None:
        """Claim `key` for a call of `method` with `fingerprint`: None when this call now holds
        it (new, or an abandoned claim taken over); else what the earlier call left."""
        return await self._claim(checked_key(key), method, fingerprint, self._clock())

    async def keep_reply(self, key: str, reply: bytes) -> None:
        """The reply of the call holding `key`, answered to every later call with it."""
        key = checked_key(key)
        m = self._dialect.mark
        mine, params = self._dialect.of_project(self.project_id)
        sql = f"UPDATE kept_replies SET reply = {m} WHERE key = {m}{mine}"  # noqa: S608
        await self._write(changed(sql, reply, key, *params))

    async def release_reply(self, key: str) -> None:
        """Drop the claim on `key` (its call failed, nothing written): a retry runs again. A
        key whose reply is kept stays."""
        key = checked_key(key)
        m = self._dialect.mark
        mine, params = self._dialect.of_project(self.project_id)
        sql = f"DELETE FROM kept_replies WHERE key = {m} AND reply IS NULL{mine}"  # noqa: S608
        await self._write(changed(sql, key, *params))
