"""Retention: old processed events lose their content on schedule, memories stay, vacuum runs."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import load_settings
from squirrel_memory.housekeeping.retention import Retention, RetentionSettings
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.storage import SqliteStore

USER = "alice"
NOW = datetime(2026, 6, 30, tzinfo=UTC)


def ev(text: str, at: datetime) -> Event:
    return Event(SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, at, {"text": text}, "s1")


class Ticker:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def retention_for(
    stores: list[SqliteStore], settings: RetentionSettings, ticker: Ticker | None = None
) -> Retention:
    async def all_stores() -> list[SqliteStore]:
        return list(stores)

    return Retention(all_stores, settings, clock=lambda: NOW, monotonic=ticker or Ticker())


async def seed(store: SqliteStore) -> tuple[list[str], str]:
    """Two old processed events (one cited by a memory), one recent processed, one waiting."""
    project = store.project_id
    events = [
        ev("old a", NOW - timedelta(days=40)),
        ev("old b", NOW - timedelta(days=39)),
        ev("recent", NOW - timedelta(days=2)),
    ]
    appended = await store.append_events(project, USER, events, [])
    await store.mark_processed(appended.event_ids)
    await store.append_events(project, USER, [ev("waiting", NOW - timedelta(days=50))], [])
    cited = appended.event_ids[0]
    cand = MemoryCandidate(
        MemoryType.PROJECT_FACT, "k", "a fact", (), 0.5, source_event_ids=(cited,)
    )
    await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, cand), user_id=USER)
    return list(appended.event_ids), cited


async def test_a_pass_prunes_old_processed_events_and_keeps_memories(store: SqliteStore) -> None:
    ids, cited = await seed(store)
    retention = retention_for([store], RetentionSettings(event_days=30, vacuum_seconds=0))

    report = await retention.run_once()

    assert (report.projects, report.events_pruned, report.vacuumed) == (1, 1, 0)
    by_id = {e.id: e.content for e in await store.get_events(ids)}
    assert by_id[cited] == {"text": "old a"}
    assert by_id[ids[1]] == {"pruned": True}
    assert by_id[ids[2]] == {"text": "recent"}
    assert [e.content for e in await store.fetch_unprocessed(store.project_id)] == [
        {"text": "waiting"}
    ]
    memories, total = await store.list_memories(store.project_id)
    assert total == 1 and memories[0].content == "a fact"


async def test_zero_days_keeps_every_event(store: SqliteStore) -> None:
    ids, _ = await seed(store)
    report = await retention_for([store], RetentionSettings(event_days=0)).run_once()
    assert report.events_pruned == 0
    assert {"pruned": True} not in [e.content for e in await store.get_events(ids)]


async def test_vacuum_runs_only_once_its_interval_has_passed(store: SqliteStore) -> None:
    ticker = Ticker()
    retention = retention_for([store], RetentionSettings(vacuum_seconds=100), ticker)
    assert (await retention.run_once()).vacuumed == 0
    ticker.now = 100.0
    assert (await retention.run_once()).vacuumed == 1
    ticker.now = 150.0
    assert (await retention.run_once()).vacuumed == 0
    ticker.now = 200.0
    assert (await retention.run_once()).vacuumed == 1


async def test_a_failing_project_does_not_stop_the_others(tmp_path: Path) -> None:
    roots = [tmp_path / "broken", tmp_path / "fine"]
    stores = []
    for root in roots:
        root.mkdir()
        stores.append(await SqliteStore.open(str(root)))
    await stores[0].close()
    try:
        await seed(stores[1])
        report = await retention_for(stores, RetentionSettings(event_days=30)).run_once()
        assert (report.projects, report.failed, report.events_pruned) == (2, 1, 1)
    finally:
        await stores[1].close()


async def test_the_schedule_runs_a_pass_at_start_and_stops_cleanly(store: SqliteStore) -> None:
    ids, _ = await seed(store)
    retention = retention_for([store], RetentionSettings(event_days=30, check_seconds=3600))
    retention.start()
    try:
        async with asyncio.timeout(10):
            while {"pruned": True} not in [e.content for e in await store.get_events(ids)]:
                await asyncio.sleep(0.01)
    finally:
        async with asyncio.timeout(10):
            await retention.stop()


def test_settings_come_from_the_retention_section(tmp_path: Path) -> None:
    settings = load_settings(
        {
            "SQRL_HOME": str(tmp_path),
            "SQRL_RETENTION_EVENT_DAYS": "14",
            "SQRL_RETENTION_CHECK_HOURS": "0.5",
            "SQRL_RETENTION_VACUUM_HOURS": "0",
        }
    )
    assert RetentionSettings.from_settings(settings) == RetentionSettings(
        event_days=14, check_seconds=1800.0, vacuum_seconds=0.0
    )
