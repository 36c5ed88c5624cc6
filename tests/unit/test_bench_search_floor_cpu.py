"""The CPU columns of bench/search_floor.py: another process's CPU clock, and each call's CPU
time read beside its wall-clock time."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

from bench.common import process_cpu_ns
from bench.search_floor import Row, Timed, Times, VectorFigures, timed_rotating

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
