"""A hook's deadline reaches the memory service as the gRPC deadline of the calls it makes."""

from __future__ import annotations

import asyncio

from squirrel_gateway.backend import deadline, time_left


async def test_calls_inside_a_deadline_get_what_is_left_of_it() -> None:
    assert time_left(30.0) == 30.0  # no deadline: the call's own timeout
    with deadline(0.7):
        left = time_left(30.0)
        assert 0.0 < left <= 0.7
        assert time_left(0.2) == 0.2  # a shorter timeout of the call's own stands
        inner = await asyncio.create_task(_in_task())  # tasks started inside inherit it
        assert 0.0 < inner <= 0.7
    assert time_left(30.0) == 30.0
    with deadline(0.0):
        assert time_left(30.0) == 0.001  # spent: the call fails fast with DEADLINE_EXCEEDED


async def _in_task() -> float:
    return time_left(30.0)
