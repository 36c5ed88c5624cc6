"""`ChangeMarks`: the home's change mark after memories change, real files in a temporary run
folder: the first change is marked at once, a burst by one more rewrite, and a change still
unmarked when the service stops is written by `close`."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from squirrel_core.start_texts import change_mark
from squirrel_memory.views import change_marks
from squirrel_memory.views.change_marks import ChangeMarks
from tests.conftest import PATIENCE_SECONDS


async def _written(marks: ChangeMarks, count: int) -> None:
    async with asyncio.timeout(PATIENCE_SECONDS):
        while marks.writes < count:
            await asyncio.sleep(0.01)


async def test_a_burst_is_marked_at_once_then_once_more_and_close_writes_what_is_owed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(change_marks, "MARK_INTERVAL_SECONDS", PATIENCE_SECONDS)
    marks = ChangeMarks(tmp_path)
    marks.changed()
    await _written(marks, 1)
    first = change_mark(tmp_path)
    assert first
    for _ in range(50):
        marks.changed()  # within the interval: owed, not written yet
    assert marks.writes == 1 and change_mark(tmp_path) == first
    await marks.close()
    assert marks.writes == 2 and change_mark(tmp_path) not in ("", first)


async def test_nothing_changed_writes_nothing(tmp_path: Path) -> None:
    """Must not fire: no change, no mark (a kept text stays valid)."""
    marks = ChangeMarks(tmp_path)
    await marks.close()
    assert marks.writes == 0 and change_mark(tmp_path) == ""


def test_without_an_event_loop_a_change_is_marked_at_once(tmp_path: Path) -> None:
    marks = ChangeMarks(tmp_path)
    marks.changed()
    assert marks.writes == 1 and change_mark(tmp_path)
