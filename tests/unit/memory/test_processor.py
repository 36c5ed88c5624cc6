"""The processor: whole sessions per pass, active sessions held back, failures parked."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import load_settings
from squirrel_memory.candidate_decisions import merge_candidates
from squirrel_memory.extractors.base import PermanentExtractionError
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    StoredEvent,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


class FailingExtractor:
    name = "rules"

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        raise PermanentExtractionError("model output unusable")


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    root = tmp_path / "proj"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    users = await SqliteUserStore.open(tmp_path / "home")
    yield store, users
    await store.close()
    await users.close()


def _session(session: str, start: datetime, count: int) -> list[Event]:
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            start + timedelta(minutes=i),
            {"text": f"always use pytest fixtures, step {i} of {session}"},
            session_id=session,
        )
        for i in range(count)
    ]


def _processor(store: SqliteStore, users: SqliteUserStore, extractor: object = None) -> Processor:
    async def stores() -> list[SqliteStore]:
        return [store]

    return Processor(
        stores,
        users,
        extractor or RulesExtractor(),  # type: ignore[arg-type]
        _decide,
        user_id="u",
        settings=ProcessorSettings(batch_size=3, retry_delays=()),
        clock=lambda: NOW,
    )


async def test_a_pass_takes_whole_sessions_and_holds_back_active_ones(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    old = _session("old", NOW - timedelta(days=2), 8)
    active = _session("active", NOW - timedelta(minutes=5), 4)
    await store.append_events(store.project_id, "u", old + active, [])
    processor = _processor(store, users)
    first = await processor.process_once(store)
    assert first.events_processed == 8  # batch_size 3, but the whole session came along
    assert await processor.process_once(store) == type(first)()  # the active session waits
    forced = await processor.process_once(store, force=True)
    assert forced.events_processed == 4
    assert await store.count_unprocessed(store.project_id) == 0


async def test_an_extractor_failure_is_parked_and_its_events_are_not_lost(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    await store.append_events(store.project_id, "u", _session("s", NOW - timedelta(days=1), 5), [])
    report = await _processor(store, users, FailingExtractor()).process_once(store)
    assert report.dead_lettered == 1 and report.events_processed == 5
    [letter] = await store.list_dead_letters()
    assert letter.kind == "extraction"
    event_ids = await store.parked_events(letter.id)
    assert event_ids is not None and len(letter.payload_ref) < 100
    assert len(await store.get_events(event_ids)) == 5


def test_candidates_on_one_anchor_are_merged_with_pooled_evidence() -> None:
    def cand(content: str, importance: float, events: tuple[str, ...]) -> MemoryCandidate:
        return MemoryCandidate(
            MemoryType.RECIPE, "recipe:test", content, ("tests",), importance, (), None, events
        )

    [merged] = merge_candidates(
        [cand("Run `pytest`.", 0.5, ("e1",)), cand("Run `uv run pytest`.", 0.7, ("e2",))]
    )
    assert merged.content == "Run `uv run pytest`."
    assert merged.source_event_ids == ("e2", "e1")


async def test_a_session_idle_for_a_few_minutes_is_processed_without_the_episode_gap(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    # Finished: its last event is 4 minutes old, with a 25-minute gap inside (two episodes).
    done = _session("done", NOW - timedelta(minutes=40), 4) + _session(
        "done", NOW - timedelta(minutes=7), 4
    )
    live = _session("live", NOW - timedelta(minutes=3), 3)  # last event 1 minute ago
    await store.append_events(store.project_id, "u", done + live, [])
    processor = _processor(store, users)
    expected = NOW - timedelta(minutes=1) + timedelta(minutes=3) + timedelta(seconds=30)
    assert await processor.readiness.next_processing_at(store) == NOW + timedelta(seconds=30)
    report = await processor.process_once(store)
    assert report.events_processed == 8 and report.episodes_created == 2
    assert await store.count_unprocessed(store.project_id) == 3
    assert await processor.readiness.next_processing_at(store) == expected
    assert await processor.process_once(store) == type(report)()


async def test_nothing_waiting_has_no_processing_time(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    assert await _processor(store, users).readiness.next_processing_at(store) is None


def test_settings_come_from_the_processor_section(tmp_path: Path) -> None:
    settings = load_settings(
        {
            "SQRL_HOME": str(tmp_path),
            "SQRL_PROCESSOR_INTERVAL_SECONDS": "5",
            "SQRL_PROCESSOR_MIN_EVENTS": "3",
            "SQRL_PROCESSOR_BATCH_SIZE": "40",
            "SQRL_PROCESSOR_SESSION_IDLE_SECONDS": "60",
        }
    )
    assert ProcessorSettings.from_settings(settings) == ProcessorSettings(
        interval_seconds=5.0, min_events=3, batch_size=40, session_idle_seconds=60.0
    )


class MovingClock:
    """This machine's clock, moved by the test."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def _moving_processor(
    store: SqliteStore, users: SqliteUserStore, clock: MovingClock, *, team: bool = False
) -> Processor:
    """A processor on `clock`; `team`: a team server's (events stamped by laptops' clocks)."""

    async def stores() -> list[SqliteStore]:
        return [store]

    return Processor(
        stores,
        users,
        RulesExtractor(),
        _decide,
        user_id="u",
        settings=ProcessorSettings(batch_size=50, retry_delays=(), session_idle_seconds=180.0),
        clock=clock,
        per_user=team,
    )


async def test_a_session_stamped_by_a_clock_hours_ahead_is_taken_once_quiet_here(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    # A teammate's laptop runs six hours ahead: its events say they are in this clock's future.
    store, users = stores
    clock = MovingClock(NOW)
    ahead = NOW + timedelta(hours=6)
    await store.append_events(store.project_id, "u", _session("ahead", ahead, 4), [])
    processor = _moving_processor(store, users, clock)
    assert (await processor.process_once(store)).events_processed == 0  # just arrived
    waiting = await processor.readiness.next_processing_at(store)
    assert waiting is not None and waiting <= NOW + timedelta(minutes=4)
    clock.now = NOW + timedelta(minutes=2)
    assert (await processor.process_once(store)).events_processed == 0  # quiet 2 of 3 minutes
    clock.now = NOW + timedelta(minutes=4)
    assert (await processor.process_once(store)).events_processed == 4
    assert await store.count_unprocessed(store.project_id) == 0


async def test_a_session_ahead_that_keeps_growing_waits_until_quiet_or_held_two_hours(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    clock = MovingClock(NOW)
    ahead = NOW + timedelta(hours=6)
    processor = _moving_processor(store, users, clock)
    for minute in range(0, 121, 2):  # a new event every two minutes of this clock
        clock.now = NOW + timedelta(minutes=minute)
        event = Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            ahead + timedelta(minutes=minute),
            {"text": f"always use pytest fixtures, minute {minute}"},
            session_id="busy",
        )
        await store.append_events(store.project_id, "u", [event], [])
        report = await processor.process_once(store)
        if minute < 120:
            assert report.events_processed == 0, minute  # still active: held back
    assert report.events_processed == 61  # held two hours: taken, as any session would be


async def test_on_a_laptop_a_session_stamped_a_day_back_is_judged_by_its_own_times(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    # A laptop's events carry its own clock's times (an old transcript read late): their
    # timestamps say the session is long idle, so it is taken at once.
    store, users = stores
    clock = MovingClock(NOW)
    behind = NOW - timedelta(days=1)
    await store.append_events(store.project_id, "u", _session("behind", behind, 3), [])
    report = await _moving_processor(store, users, clock).process_once(store)
    assert report.events_processed == 3


@pytest.mark.parametrize("offset", [timedelta(hours=-6), timedelta(hours=6)], ids=["slow", "fast"])
async def test_on_a_team_server_a_laptops_session_is_taken_once_quiet_by_the_servers_clock(
    stores: tuple[SqliteStore, SqliteUserStore], offset: timedelta
) -> None:
    # A teammate's clock six hours behind or ahead: either way the session waits the idle time
    # on the server's clock from when it arrived, no less and no more.
    store, users = stores
    clock = MovingClock(NOW)
    await store.append_events(store.project_id, "u", _session("laptop", NOW + offset, 4), [])
    processor = _moving_processor(store, users, clock, team=True)
    assert (await processor.process_once(store)).events_processed == 0  # just arrived
    waiting = await processor.readiness.next_processing_at(store)
    assert waiting is not None
    assert NOW + timedelta(minutes=3) <= waiting <= NOW + timedelta(minutes=4)
    clock.now = NOW + timedelta(minutes=2)
    assert (await processor.process_once(store)).events_processed == 0  # quiet 2 of 3 minutes
    clock.now = NOW + timedelta(minutes=4)
    assert (await processor.process_once(store)).events_processed == 4


async def test_on_a_team_server_a_growing_session_from_a_slow_clock_is_not_taken_in_pieces(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    # The laptop's clock runs an hour slow: each event looks an hour old on arrival, yet the
    # session grows every two minutes here; it is held until held two hours, then taken whole.
    store, users = stores
    clock = MovingClock(NOW)
    behind = NOW - timedelta(hours=1)
    processor = _moving_processor(store, users, clock, team=True)
    for minute in range(0, 121, 2):
        clock.now = NOW + timedelta(minutes=minute)
        event = Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            behind + timedelta(minutes=minute),
            {"text": f"always use pytest fixtures, minute {minute}"},
            session_id="busy",
        )
        await store.append_events(store.project_id, "u", [event], [])
        report = await processor.process_once(store)
        if minute < 120:
            assert report.events_processed == 0, minute  # still active: held back
    assert report.events_processed == 61
