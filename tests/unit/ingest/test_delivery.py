"""Retry policy of deliveries: quick while the memory service is briefly unreachable, then growing."""

from __future__ import annotations

import asyncio
from itertools import islice

from structlog.testing import capture_logs

from squirrel_ingest.delivery import Backoff, RetryDelays, SinkUnavailableError, call_with_retry


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


UNREACHABLE = SinkUnavailableError("connection refused")


def test_unreachable_sink_is_retried_at_the_quick_interval_during_the_window() -> None:
    clock = FakeClock()
    delays = RetryDelays(Backoff(initial_s=0.2, quick_s=0.1, quick_for_s=10.0), clock)
    seen = []
    for _ in range(60):  # 60 failures 0.1 s apart: six seconds, all inside the window
        seen.append(delays.after(UNREACHABLE))
        clock.now += 0.1
    assert seen == [0.1] * 60


def test_after_the_window_the_delays_grow_from_the_initial_one() -> None:
    clock = FakeClock()
    backoff = Backoff(initial_s=0.2, maximum_s=30.0, quick_s=0.1, quick_for_s=10.0)
    delays = RetryDelays(backoff, clock)
    assert delays.after(UNREACHABLE) == 0.1
    clock.now += 10.0
    grown = [delays.after(UNREACHABLE) for _ in range(10)]
    assert not delays.quick
    bounds = [0.2 * 2**i for i in range(10)]
    for delay, bound in zip(grown, bounds, strict=True):
        assert min(bound, 30.0) * 0.75 <= delay <= min(bound, 30.0)
    assert grown[-1] >= 30.0 * 0.75  # still capped, not hammering a service that stays down


def test_other_failures_get_the_growing_delays_at_once() -> None:
    clock = FakeClock()
    delays = RetryDelays(Backoff(initial_s=0.2, quick_s=0.1, quick_for_s=10.0), clock)
    first = delays.after(RuntimeError("store refused the batch"))
    second = delays.after(RuntimeError("store refused the batch"))
    assert 0.15 <= first <= 0.2
    assert 0.3 <= second <= 0.4


def test_the_quick_interval_never_exceeds_the_initial_delay() -> None:
    delays = RetryDelays(Backoff(initial_s=0.01, maximum_s=0.05), FakeClock())
    assert delays.after(UNREACHABLE) == 0.01


def test_growing_delays_are_unchanged() -> None:
    backoff = Backoff(initial_s=0.2, maximum_s=1.0)
    got = list(islice(backoff.delays(), 5))
    for delay, bound in zip(got, [0.2, 0.4, 0.8, 1.0, 1.0], strict=True):
        assert bound * 0.75 <= delay <= bound


async def test_call_with_retry_reaches_a_sink_that_comes_up_and_logs_and_counts_once() -> None:
    calls = 0

    async def attempt() -> str:
        nonlocal calls
        calls += 1
        if calls <= 5:
            raise SinkUnavailableError("connection refused")
        return "cursors"

    failures: list[BaseException] = []
    with capture_logs() as logs:
        result = await call_with_retry(
            attempt,
            Backoff(initial_s=0.01, maximum_s=0.05, quick_s=0.001),
            stopping=asyncio.Event(),
            on_failure=failures.append,
            what="load_cursors",
        )
    assert result == "cursors"
    assert calls == 6
    assert len(failures) == 1  # a run of quick retries while the sink starts counts once
    lines = [entry for entry in logs if entry["event"] == "sink_call_failed"]
    # One warning; the quick retries after it are debug (dropped when another test configured
    # the log level above debug).
    assert [entry["log_level"] for entry in lines if entry["log_level"] != "debug"] == ["warning"]
    assert len(lines) in (1, 5)
    assert {entry["retry_in_ms"] for entry in lines} == {1}  # 1 ms each, not growing


async def test_waiting_for_a_sink_that_never_answered_yet_is_no_failure() -> None:
    calls = 0

    async def attempt() -> str:
        nonlocal calls
        calls += 1
        if calls <= 5:
            raise SinkUnavailableError("connection refused")
        return "cursors"

    failures: list[BaseException] = []
    result = await call_with_retry(
        attempt,
        Backoff(initial_s=0.01, maximum_s=0.05, quick_s=0.001),
        stopping=asyncio.Event(),
        on_failure=failures.append,
        what="load_cursors",
        first_contact=True,
    )
    assert result == "cursors"
    assert failures == []  # a fresh home shows no delivery failure for a starting service


async def test_a_sink_still_unreachable_after_the_window_counts_even_at_first_contact() -> None:
    calls = 0

    async def attempt() -> str:
        nonlocal calls
        calls += 1
        if calls <= 3:
            raise SinkUnavailableError("connection refused")
        return "cursors"

    failures: list[BaseException] = []
    result = await call_with_retry(
        attempt,
        Backoff(initial_s=0.001, maximum_s=0.002, quick_s=0.001, quick_for_s=0.0),
        stopping=asyncio.Event(),
        on_failure=failures.append,
        first_contact=True,
    )
    assert result == "cursors"
    assert len(failures) == 3


async def test_failures_other_than_a_starting_sink_are_each_counted() -> None:
    calls = 0

    async def attempt() -> str:
        nonlocal calls
        calls += 1
        if calls <= 3:
            raise RuntimeError("refused the batch")
        return "done"

    failures: list[BaseException] = []
    result = await call_with_retry(
        attempt,
        Backoff(initial_s=0.001, maximum_s=0.002),
        stopping=asyncio.Event(),
        on_failure=failures.append,
    )
    assert result == "done"
    assert len(failures) == 3
