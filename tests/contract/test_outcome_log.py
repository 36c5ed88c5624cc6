"""Outcome log contract: served memories and their outcomes, append-only, on every backend."""

from __future__ import annotations

from datetime import timedelta

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.storage import Store
from squirrel_memory.storage.outcome_log import OutcomeCounts, OutcomeEvent, ServedRecord

from .conftest import Opener
from .test_event_log import T0


def served(session: str, memory: str, minutes: int = 0, channel: str = "prompt") -> ServedRecord:
    return ServedRecord(session, memory, T0 + timedelta(minutes=minutes), channel)


def judged(session: str, memory: str, outcome: str, version: int = 1) -> OutcomeEvent:
    return OutcomeEvent(memory, session, outcome, version, T0, T0 + timedelta(hours=1))


async def test_a_memory_served_twice_to_a_session_is_recorded_once(store: Store) -> None:
    assert await store.record_served([served("s1", "m1", 1), served("s1", "m2", 2)]) == 2
    assert await store.record_served([served("s1", "m1", 5, "session_start")]) == 0
    pending = await store.pending_served(["s1"])
    assert [(r.memory_id, r.served_at, r.channel) for r in pending] == [
        ("m1", T0 + timedelta(minutes=1), "prompt"),
        ("m2", T0 + timedelta(minutes=2), "prompt"),
    ]
    assert await store.pending_served(["other"]) == []


async def test_an_outcome_is_appended_once_and_never_replaced(store: Store) -> None:
    await store.record_served([served("s1", "m1"), served("s1", "m2")])
    assert await store.append_outcomes([judged("s1", "m1", "used")]) == 1
    assert await store.append_outcomes([judged("s1", "m1", "contradicted")]) == 0
    assert [r.memory_id for r in await store.pending_served(["s1"])] == ["m2"]
    await store.append_outcomes([judged("s2", "m1", "contradicted", version=2)])
    history = await store.outcome_events(["m1"])
    assert [(e.session_id, e.outcome, e.version) for e in history] == [
        ("s1", "used", 1),
        ("s2", "contradicted", 2),
    ]
    # Each outcome with the channel of its served record ("" where none was recorded).
    assert [e.channel for e in history] == ["prompt", ""]
    assert [e.session_id for e in await store.outcome_events(["m1"], limit=1)] == ["s2"]
    assert await store.outcome_events(["m2"]) == []
    assert len(await store.outcome_events()) == 2


async def test_counts_cover_the_last_sessions_served(store: Store) -> None:
    await store.record_served([served("old", "m1", 0), served("old", "m2", 0)])
    await store.record_served([served("new", "m1", 60), served("new", "m3", 61)])
    await store.append_outcomes(
        [judged("old", "m1", "used"), judged("old", "m2", "missed"), judged("new", "m1", "unused")]
    )
    assert await store.outcome_counts(1) == OutcomeCounts(sessions=1, served=2, unused=1)
    both = await store.outcome_counts(5)
    assert both == OutcomeCounts(sessions=2, served=4, used=1, missed=1, unused=1)
    assert both.pending == 1


async def test_outcomes_of_one_project_stay_out_of_another(
    opener: Opener, project: str, other_project: str
) -> None:
    one, two = await opener.open(project), await opener.open(other_project)
    await one.record_served([served("s1", "m1")])
    await one.append_outcomes([judged("s1", "m1", "used")])
    assert await two.pending_served(["s1"]) == []
    assert await two.outcome_events() == []
    assert await two.outcome_counts(10) == OutcomeCounts()
    # The same session and memory served in the other project through another channel: each
    # outcome reads its own project's served record.
    await two.record_served([served("s1", "m1", channel="session_start")])
    await two.append_outcomes([judged("s1", "m1", "unused")])
    assert [e.channel for e in await one.outcome_events()] == ["prompt"]
    assert [e.channel for e in await two.outcome_events()] == ["session_start"]


async def test_bad_served_records_and_outcomes_are_refused(store: Store) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.record_served([served("s1", "m1", channel="email")])
    with pytest.raises(InvalidArgumentError):
        await store.record_served([served("", "m1")])
    with pytest.raises(InvalidArgumentError):
        await store.append_outcomes([judged("s1", "m1", "liked")])
    assert await store.pending_served(["s1"]) == []
