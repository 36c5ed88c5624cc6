"""The CPU columns of bench/search_floor.py: another process's CPU clock, and each call's CPU
time read beside its wall-clock time."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections import Counter
from itertools import pairwise

from bench.common import process_cpu_ns
from bench.search_floor import (
    Row,
    Timed,
    Times,
    VectorFigures,
    balanced_orders,
    timed_rotating,
)

SPIN = (
    "import sys, time\n"
    "end = time.process_time() + 0.3\n"
    "while time.process_time() < end: pass\n"
    "print('spun', flush=True)\n"
    "sys.stdin.read()\n"
)


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_another_process_cpu_time_is_read_below_a_clock_tick() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SPIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "spun"
        spent = process_cpu_ns(child.pid)
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
    assert spent >= 300_000_000
    # /proc/<pid>/stat counts in 10 ms ticks; the CPU-time clock is not rounded to them.
    assert spent % 10_000_000 != 0
    assert process_cpu_ns(os.getpid()) > 0


def test_each_call_gets_the_cpu_time_of_its_own_process() -> None:
    async def busy(_: str) -> None:
        _burn(0.02)

    async def waiting(_: str) -> None:
        await asyncio.sleep(0.02)

    calls = [Timed(busy, time.process_time_ns), Timed(waiting, time.process_time_ns)]
    busy_times, waiting_times = asyncio.run(timed_rotating(calls, ["a", "b", "c"]))
    assert len(busy_times.cpu) == len(busy_times.millis) == 3
    assert min(busy_times.cpu) >= 20.0
    assert busy_times.cpu_mean > 5 * waiting_times.cpu_mean


def test_the_cpu_floor_is_empty_plus_encoder_means() -> None:
    figures = VectorFigures("flat", 0.1, 0.2, 1.0)
    row = Row(
        400,
        "this",
        Times([9.0], [6.0, 8.0]),
        Times([2.0], [1.0, 2.0]),
        Times([3.0], [2.0, 3.0]),
        "1",
        "1",
        1.0,
        figures,
        figures,
    )
    assert row.cpu_floor == 1.5 + 2.5
    assert row.cpu_ratio == 7.0 / 4.0
    assert row.floor == 5.0
    assert row.ratio == 9.0 / 5.0


def _before_search(orders: list[list[int]], side: int) -> Counter[str]:
    """What each side's search follows within a text: the encoder, its own empty search, or
    another side's empty search (or a search)."""
    search, own = 1 + 2 * side, 2 + 2 * side
    seen: Counter[str] = Counter()
    for order in orders:
        for before, call in pairwise(order):
            if call == search:
                kind = "encoder" if before == 0 else "own empty" if before == own else "other"
                seen[kind] += 1
    return seen


def test_no_side_has_a_fixed_place_in_the_order_of_the_calls() -> None:
    for sides in (1, 2, 3):
        calls = 1 + 2 * sides
        orders = balanced_orders(sides, 2 * calls * sides)
        assert all(sorted(order) == list(range(calls)) for order in orders)
        # every call comes first as often as every other
        assert len(set(Counter(order[0] for order in orders).values())) == 1
        seen = [_before_search(orders, side) for side in range(sides)]
        assert all(s == seen[0] for s in seen)
        assert seen[0]["encoder"] > 0
    # the fixed cycle this replaced put one side's search after the encoder every time
    fixed = [[(n + k) % 5 for k in range(5)] for n in range(20)]
    assert _before_search(fixed, 0) != _before_search(fixed, 1)


def test_the_calls_run_in_the_order_given() -> None:
    ran: list[str] = []

    def named(name: str) -> Timed:
        async def call(_: str) -> None:
            ran.append(name)

        return Timed(call, time.process_time_ns)

    asyncio.run(
        timed_rotating([named("a"), named("b"), named("c")], ["x", "y"], [[2, 0, 1], [1, 2, 0]])
    )
    assert ran == ["c", "a", "b", "b", "c", "a"]
