"""Consolidation runs on its schedule: never at a service's start, and a restart keeps it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from squirrel_memory.housekeeping.consolidation import Consolidator

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class NoCaller:
    backend = "claude_cli"
    model = ""

    async def call_tool(self, **_: Any) -> dict[str, Any]:
        raise AssertionError("not asked in this test")

    async def close(self) -> None:
        return None


def consolidator(clock: Clock, ledger: Path) -> Consolidator:
    return Consolidator(
        NoCaller(), interval=timedelta(hours=24), user_id="u", clock=clock, ledger=ledger
    )


def test_a_start_is_not_a_reason_to_consolidate_and_a_restart_keeps_the_schedule(
    tmp_path: Path,
) -> None:
    clock, ledger = Clock(), tmp_path / "llm-consolidation.json"
    assert not consolidator(clock, ledger).due("/p")  # first seen: the schedule starts now
    clock.now += timedelta(hours=23)
    assert not consolidator(clock, ledger).due("/p")  # restarted: still not due
    clock.now += timedelta(hours=2)
    assert consolidator(clock, ledger).due("/p")  # 25 h after it was first seen
