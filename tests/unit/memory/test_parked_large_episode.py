"""A long episode parks like a short one: its letter's reference stays short (the event ids are
kept beside it), the rules' part is written, and a later retry writes the model's part once,
as the model's. Letters parked before the ids were kept apart still retry after the upgrade."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.base import PermanentExtractionError
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    StoredEvent,
    UpdateDecision,
)
from squirrel_memory.parking.letters import model_letter, parked_ids
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore, Store
from squirrel_memory.storage.sqlite.connection import connect
from squirrel_memory.storage.sqlite.migrator import current_version, migrate
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
LONG = 2000
BATCH = 1000


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class FlakyModel:
    """A model backend that fails until `fixed`; its candidate names no writer when `unsigned`
    (the batch it is written in then decides its source)."""

    name = "claude_cli"

    def __init__(self, *, unsigned: bool = False) -> None:
        self.fixed = False
        self.unsigned = unsigned
        self.seen: list[int] = []

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        self.seen.append(len(events))
        if not self.fixed:
            raise PermanentExtractionError("claude is not installed")
        return [
            MemoryCandidate(
                type=MemoryType.RECIPE,
                key="recipe:model-check",
                content="Run `make check` before every commit.",
                tags=("testing",),
                importance=0.8,
                source_episode_id=episode.id,
                source_event_ids=tuple(e.id for e in events[:5]),
                written_by="" if self.unsigned else f"{self.name}:small",
            )
        ]


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


def _events(count: int) -> list[Event]:
    texts = ["From now on always use pnpm instead of npm.", "switching to pnpm"]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            START - timedelta(days=1) + timedelta(seconds=i),
            {"text": texts[i] if i < len(texts) else f"step {i}: ran the build again"},
            session_id="s1",
        )
        for i in range(count)
    ]


def _processor(
    store: SqliteStore, users: SqliteUserStore, model: FlakyModel, clock: Clock
) -> Processor:
    async def stores() -> list[Store]:
        return [store]

    return Processor(
        stores,
        users,
        model,
        _decide,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=clock,
    )


@pytest.fixture
async def users(tmp_path: Path) -> AsyncIterator[SqliteUserStore]:
    opened = await SqliteUserStore.open(tmp_path / "home")
    yield opened
    await opened.close()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    return folder.resolve()


async def _memories(store: SqliteStore) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, limit=200)
    return items


async def test_a_long_episode_parks_with_a_short_reference_and_recovers_once(
    root: Path, users: SqliteUserStore
) -> None:
    clock = Clock()
    store = await SqliteStore.open(str(root), clock=clock)
    try:
        appended = await store.append_events(store.project_id, "u", _events(LONG), [])
        model = FlakyModel()
        processor = _processor(store, users, model, clock)
        first = await processor.drain(store)  # a pass reads 1,000 events: two episodes
        assert first.dead_lettered == 2 and first.events_processed == LONG
        assert model.seen == [BATCH, BATCH]
        letters = await store.list_dead_letters()
        assert [d.kind for d in letters] == [model_letter("claude_cli")] * 2
        assert all(len(d.payload_ref) < 100 for d in letters)
        kept = [await store.parked_events(d.id) for d in letters]
        assert sorted(i for ids in kept for i in ids or []) == sorted(appended.event_ids)
        assert (await store.counts())["events_unprocessed"] == 0
        rules = {m.key for m in await _memories(store) if m.written_by == "rules"}
        assert rules  # the rules' part is written while the model fails
        # Failing again keeps the same letters (their own references), attempts unchanged.
        again = await processor.retry_parked(store, force=True)
        assert again.dead_lettered == 2
        assert [(d.id, d.payload_ref, d.attempts) for d in await store.list_dead_letters()] == [
            (d.id, d.payload_ref, 1) for d in letters
        ]
        model.fixed = True
        recovered = await processor.retry_parked(store, force=True)
        after = await processor.retry_parked(store, force=True)
        assert recovered.memories_added == 1 and after.memories_added == 0
        assert model.seen == [BATCH] * 6
        assert await store.list_dead_letters() == []
        assert [await store.parked_events(d.id) for d in letters] == [None, None]
        written = [m for m in await _memories(store) if m.key == "recipe:model-check"]
        assert [(m.written_by, m.source) for m in written] == [
            ("claude_cli:small", MemorySource.LLM)
        ]
        assert rules <= {m.key for m in await _memories(store) if m.written_by == "rules"}
    finally:
        await store.close()


@pytest.mark.parametrize("parked", [False, True])
async def test_the_models_part_is_the_models_on_a_retry_as_in_a_pass(
    root: Path, users: SqliteUserStore, parked: bool
) -> None:
    clock = Clock()
    store = await SqliteStore.open(str(root), clock=clock)
    try:
        await store.append_events(store.project_id, "u", _events(5), [])
        model = FlakyModel(unsigned=True)
        model.fixed = not parked
        processor = _processor(store, users, model, clock)
        await processor.drain(store)
        if parked:
            assert len(await store.list_dead_letters()) == 1
            model.fixed = True
            assert (await processor.retry_parked(store, force=True)).memories_added == 1
        [written] = [m for m in await _memories(store) if m.key == "recipe:model-check"]
        assert written.source is MemorySource.LLM
    finally:
        await store.close()


def _old_store(root: Path, event_ids: list[str]) -> None:
    """A data.db at version 9 holding a model letter with its event ids in its reference."""
    ctx = root / ".ctx"
    ctx.mkdir()
    conn = connect(ctx / "data.db")
    try:
        assert migrate(conn, DATA_MIGRATIONS, target=9) == 9
        for n, event_id in enumerate(event_ids):
            text = "From now on always use pnpm instead of npm." if n == 0 else f"step {n}"
            conn.execute(
                "INSERT INTO events (id, project_id, user_id, source_tool, session_id, timestamp,"
                " event_type, content_json, file_paths, hash, origin, processed_at) VALUES "
                "(?, ?, 'u', 'claude_code', 's1', ?, 'user_message', ?, '[]', ?, 'typed', ?)",
                (
                    event_id,
                    str(root),
                    f"2026-10-31T12:00:0{n}Z",
                    f'{{"text": "{text}"}}',
                    f"h{n}",
                    "2026-10-31T13:00:00Z",
                ),
            )
        conn.execute(
            "INSERT INTO dead_letters (kind, payload_ref, error, attempts, created_at, "
            "updated_at) VALUES ('model:claude_cli', ?, 'PermanentExtractionError', 3, "
            "'2026-10-31T13:00:00Z', '2026-10-31T13:00:00Z')",
            (f"ep_old:{','.join(event_ids)}",),
        )
    finally:
        conn.close()


@pytest.mark.parametrize("recovers", [True, False])
async def test_a_letter_parked_before_the_upgrade_retries_from_its_reference(
    root: Path, users: SqliteUserStore, recovers: bool
) -> None:
    ids = [f"evt_old{n}" for n in range(4)]
    _old_store(root, ids)
    clock = Clock()
    store = await SqliteStore.open(str(root), clock=clock)
    try:
        conn = sqlite3.connect(root / ".ctx" / "data.db")
        try:
            assert current_version(conn) == DATA_MIGRATIONS[-1].version
        finally:
            conn.close()
        [old] = await store.list_dead_letters()
        assert await store.parked_events(old.id) is None
        assert parked_ids(old.payload_ref, None) == ("ep_old", ids)
        model = FlakyModel()
        model.fixed = recovers
        report = await _processor(store, users, model, clock).retry_parked(store, force=True)
        assert model.seen == [4]
        letters = await store.list_dead_letters()
        if recovers:
            assert report.memories_added == 1 and letters == []
            [written] = [m for m in await _memories(store) if m.key == "recipe:model-check"]
            assert written.source is MemorySource.LLM
        else:  # parked again as the same letter, its ids now kept beside it
            assert [(d.id, d.payload_ref, d.attempts) for d in letters] == [
                (old.id, old.payload_ref, 3)
            ]
            assert await store.parked_events(old.id) == ids
    finally:
        await store.close()
