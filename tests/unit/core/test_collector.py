"""The service process's garbage collector: frozen after the start, its young threshold raised."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from squirrel_core import runner
from squirrel_core.collector import YOUNG_THRESHOLD, settle_collector
from squirrel_core.rpc import GrpcService
from squirrel_core.settings import Settings, load_settings


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    """Each test leaves the collector as it found it (the rest of the suite shares the process)."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    """A reference cycle that only the collector can free, and a weak reference to watch it."""
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_settle_raises_the_young_threshold_and_keeps_the_older_ones() -> None:
    _, older, oldest = gc.get_threshold()
    settle_collector(5_000)
    assert gc.get_threshold() == (5_000, older, oldest)
    settle_collector()
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD > 700


def test_what_lived_before_is_frozen_and_a_cycle_made_after_is_still_freed() -> None:
    before = _cycle()  # garbage already: the collection before the freeze frees it
    kept = [_Node()]  # alive at the freeze: out of later scans
    settle_collector()
    assert before() is None
    assert gc.get_freeze_count() > 0
    assert not any(obj is kept for obj in gc.get_objects())
    after = _cycle()
    assert after() is not None
    gc.collect()
    assert after() is None


def test_a_threshold_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        settle_collector(0)


async def test_a_service_settles_its_collector_once_it_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings({"SQRL_HOME": str(tmp_path / "home")})
    order: list[str] = []

    async def setup(
        _: Settings, service: GrpcService
    ) -> tuple[Callable[[], Awaitable[None]], Callable[[], Awaitable[None]]]:
        async def ready() -> None:
            order.append("ready")

        async def cleanup() -> None:
            order.append("cleanup")

        return ready, cleanup

    real_serving = GrpcService.set_serving

    async def serving(self: GrpcService) -> None:
        await real_serving(self)
        order.append("serving")

    monkeypatch.setattr(GrpcService, "set_serving", serving)
    monkeypatch.setattr(runner, "settle_collector", lambda: order.append("settled"))
    # A parent that is not this process's: the service stops as soon as it has started.
    await asyncio.wait_for(runner.run_service("ingest", setup, settings, parent_pid=-1), 60)
    assert order == ["ready", "serving", "settled", "cleanup"]
