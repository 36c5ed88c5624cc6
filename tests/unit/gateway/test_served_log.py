"""The gateway's served log: what each session was served is queued as hooks answer, sent in
the background, kept while the memory service is away, and spooled on shutdown."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from squirrel_core.errors import UnavailableError
from squirrel_gateway.hook_context import Injection, Served
from squirrel_gateway.hook_hosts import parse_input
from squirrel_gateway.served_log import SPOOL_FILE, ServedBatch, ServedLog

AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Receiver:
    """Records what it is sent; refuses while `down`."""

    def __init__(self) -> None:
        self.batches: list[ServedBatch] = []
        self.down = False
        self.arrived = asyncio.Event()

    async def __call__(self, batch: ServedBatch) -> None:
        if self.down:
            raise UnavailableError("memory service is not running")
        self.batches.append(batch)
        self.arrived.set()


def hook(event: str = "UserPromptSubmit", session: str = "s-1"):  # type: ignore[no-untyped-def]
    return parse_input("claude", event, {"session_id": session, "cwd": "/p", "prompt": "hi"})


def injection(*ids: str) -> Injection:
    served = tuple(Served("recipe", f"k{n}", i, "Run `make`.") for n, i in enumerate(ids))
    return Injection("text", 10, len(served), served)


async def test_what_a_prompt_served_is_sent_in_the_background(tmp_path: Path) -> None:
    receiver = Receiver()
    log = ServedLog(receiver, tmp_path, clock=lambda: AT)
    log.observe(hook(), "/p", injection("m1", "m2", "m1", ""))
    assert receiver.batches == []  # nothing is sent before the hook's answer returns
    await asyncio.wait_for(receiver.arrived.wait(), 30)
    assert receiver.batches == [ServedBatch("/p", "s-1", ("m1", "m2"), AT, "prompt")]
    await log.close()
    assert not (tmp_path / SPOOL_FILE).exists()


async def test_answers_without_a_session_or_a_memory_are_not_recorded(tmp_path: Path) -> None:
    receiver = Receiver()
    log = ServedLog(receiver, tmp_path)
    log.observe(hook(session=""), "/p", injection("m1"))
    log.observe(hook(), "/p", injection(""))
    log.observe(hook("Stop"), "/p", injection("m1"))
    assert log.pending == 0
    await log.close()
    assert receiver.batches == []


async def test_nothing_is_lost_while_the_memory_service_is_away(tmp_path: Path) -> None:
    receiver = Receiver()
    receiver.down = True
    log = ServedLog(receiver, tmp_path, clock=lambda: AT)
    log.observe(hook("SessionStart"), "/p", injection("m1"))
    assert not await log.flush()
    assert log.pending == 1
    await log.close()  # still away: spooled
    assert (tmp_path / SPOOL_FILE).exists()

    receiver.down = False
    again = ServedLog(receiver, tmp_path, clock=lambda: AT)
    assert await again.flush()
    assert receiver.batches == [ServedBatch("/p", "s-1", ("m1",), AT, "session_start")]
    assert not (tmp_path / SPOOL_FILE).exists()
    await again.close()


async def test_a_damaged_spool_line_is_skipped_and_the_rest_sent(tmp_path: Path) -> None:
    good = ServedBatch("/p", "s-2", ("m9",), AT, "prompt")
    (tmp_path / SPOOL_FILE).write_text("not json\n" + good.to_json() + "\n")
    receiver = Receiver()
    log = ServedLog(receiver, tmp_path)
    assert await log.flush()
    assert receiver.batches == [good]
    await log.close()
