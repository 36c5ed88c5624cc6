"""Queued remembers the team server keeps refusing for their project are not sent again at every
wake-up.

A laptop joined with a `read` token queues its remembers (the server refuses them:
PERMISSION_DENIED) and keeps them for a grant that may come. Every read the team answered woke
the queue, and every 3 seconds it tried again: each queued row was one more refused `Remember`
on the server, all day. After a round whose rows were all refused for their project, the next
background round waits twice as long as the last (up to ten minutes); a new row queued ends the
wait. Nothing is dropped: the rows stay queued."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import PermissionDeniedError
from squirrel_gateway.team_outbox import OutboxSender, TeamOutbox

WAKES = 5
NEVER = 120.0
"""A safety net for a wait that would otherwise hang: never a measure of speed."""


class _ReadOnlyTeam:
    """A team server that refuses every `Remember` of this token: it may only read."""

    def __init__(self) -> None:
        self.remembers = 0
        self.stub = self
        self._counted: dict[int, asyncio.Event] = {}

    async def reached(self, count: int) -> None:
        """Returns once `count` remembers were refused (a machine's load only delays it)."""
        if self.remembers < count:
            await asyncio.wait_for(self._counted.setdefault(count, asyncio.Event()).wait(), NEVER)

    Remember = "Remember"

    async def call(self, method: str, request: Any, timeout: float | None = None) -> Any:
        self.remembers += 1
        for count, reached in self._counted.items():
            if self.remembers >= count:
                reached.set()
        raise PermissionDeniedError("team token t1 (bob) may only read project 'x', not write it")

    async def close(self) -> None:
        return None


async def _team_id(root: str) -> str:
    return "github.com/acme/shop"


async def test_rows_refused_for_their_project_are_not_sent_at_every_wake(tmp_path: Path) -> None:
    outbox = TeamOutbox(tmp_path / "team" / "outbox.db")
    team = _ReadOnlyTeam()
    sender = OutboxSender(
        outbox,
        lambda: cast(MemoryClient, team),
        _team_id,
        timeout=1.0,
        retry_every=3600,  # only the wakes (reads the team answered) start rounds here
    )
    await sender.queue("/home/bob/shop", pb.RememberRequest(content="deploy with make ship"))
    first = await sender.flush()
    assert (first.sent, first.kept) == (0, 1)
    assert team.remembers == 1
    sender.start()
    try:
        for _ in range(WAKES):
            sender.wake()
            await asyncio.sleep(0.2)
        assert team.remembers == 1  # held: not one refused call per wake
        assert outbox.pending() == 1  # kept, never dropped
        # A new remember queued ends the wait: its round tries both rows.
        await sender.queue("/home/bob/shop", pb.RememberRequest(content="run make lint first"))
        sender.wake()
        await team.reached(3)
        assert team.remembers == 3
        assert outbox.pending() == 2
    finally:
        await sender.stop()
