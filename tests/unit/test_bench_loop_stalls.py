"""`bench.loop_stalls`: the loop keeps waking while the rules extract a project's episodes."""

from __future__ import annotations

import asyncio

import pytest

from bench.loop_stalls import main, measure, project_events


def test_the_loop_wakes_during_extraction() -> None:
    events = project_events("caffeine-lang")
    wall, cpu, waits = asyncio.run(measure(events))
    assert events and wall > 0 and cpu > 0
    # The extraction runs in a worker thread: the ticker on the loop wakes more than once.
    assert len(waits) > 1


def test_a_repeat_is_its_own_sessions() -> None:
    once = project_events("caffeine-lang")
    twice = project_events("caffeine-lang", repeat=2)
    assert len(twice) == 2 * len(once)
    assert {e.session_id for e in twice} > {e.session_id for e in once}


def test_the_table_names_each_project(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", "caffeine-lang"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("| project |")
    assert lines[3].startswith("| caffeine-lang | ")
