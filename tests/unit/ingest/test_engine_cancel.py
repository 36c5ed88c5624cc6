"""The engine's stop ends its tasks even when one of them loses a cancellation."""

from __future__ import annotations

import asyncio

from squirrel_ingest.engine import _cancel


async def test_a_task_that_swallows_one_cancellation_is_still_ended() -> None:
    """As `asyncio.wait_for` in Python 3.11 can when its inner wait completes at the moment of the
    cancel: the task carries on with its loop, and a single cancel would wait for it forever."""
    swallowed = 0
    turns = 0

    async def loop_that_swallows_once() -> None:
        nonlocal swallowed, turns
        while True:
            turns += 1
            try:
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed += 1

    task = asyncio.create_task(loop_that_swallows_once())
    await asyncio.sleep(0)
    await _cancel(task)
    assert task.cancelled() and swallowed == 1 and turns >= 2


async def test_a_finished_task_is_left_as_it_ended() -> None:
    async def done() -> None:
        return None

    task = asyncio.create_task(done())
    await task
    await _cancel(task)
    assert not task.cancelled()
