"""Parked work's event ids live beside their dead letter on every backend: a long episode
parks with a short reference and recovers once; letters parked before the upgrade still retry."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from squirrel_core.errors import InvalidArgumentError, NotFoundError
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
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import Store
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.schema import MIGRATIONS, migrate
from squirrel_memory.storage.postgres.store import PostgresStore
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore

from .conftest import Opener
from .test_event_log import T0

LONG = 2000


class FlakyModel:
    """A model backend that fails until `fixed`."""

    name = "claude_cli"

    def __init__(self) -> None:
        self.fixed = False
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
                written_by="claude_cli:small",
            )
        ]


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


def _events(count: int) -> list[Event]:
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            T0 + timedelta(seconds=i),
            {"text": "From now on always use pnpm instead of npm." if i == 0 else f"step {i}"},
            session_id="s1",
        )
        for i in range(count)
    ]


@pytest.fixture
async def users(tmp_path: Path) -> AsyncIterator[SqliteUserStore]:
    opened = await SqliteUserStore.open(tmp_path / "home")
    yield opened
    await opened.close()


def _processor(store: Store, users: SqliteUserStore, model: FlakyModel) -> Processor:
    async def stores() -> list[Store]:
        return [store]

    return Processor(
        stores,
        users,
        model,
        _decide,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: T0 + timedelta(days=1),
    )


async def _model_memories(store: Store) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, limit=200)
    return [m for m in items if m.key == "recipe:model-check"]


async def test_parked_event_ids_are_kept_replaced_and_go_with_their_letter(
    opener: Opener, project: str, other_project: str
) -> None:
    store = await opener.open(project)
    other = await opener.open(other_project)
    ids = [f"evt_{n:05d}" for n in range(LONG)]
    letter = await store.record_dead_letter("model:claude_cli", "ep_1:#0123abcd", "Timeout")
    assert await store.parked_events(letter.id) is None
    await store.put_parked_events(letter.id, ids)
    assert await store.parked_events(letter.id) == ids
    await store.put_parked_events(letter.id, ids[:3])
    assert await store.parked_events(letter.id) == ids[:3]
    with pytest.raises(NotFoundError):
        await other.put_parked_events(letter.id + 10_000, ids)
    for bad in ([], ["evt_1", ""], "evt_1"):
        with pytest.raises(InvalidArgumentError):
            await store.put_parked_events(letter.id, bad)
    assert await store.parked_events(letter.id) == ids[:3]
    await store.resolve_dead_letter(letter.id)
    assert await store.parked_events(letter.id) is None
    with pytest.raises(NotFoundError):
        await store.put_parked_events(letter.id, ids)


async def test_another_projects_parked_ids_are_apart(
    opener: Opener, project: str, other_project: str
) -> None:
    store = await opener.open(project)
    other = await opener.open(other_project)
    letter = await store.record_dead_letter("extraction", "ep_1:#0123abcd", "ValueError")
    await store.put_parked_events(letter.id, ["evt_1"])
    assert await other.parked_events(letter.id) is None
    with pytest.raises(NotFoundError):
        await other.put_parked_events(letter.id, ["evt_2"])
    assert await store.parked_events(letter.id) == ["evt_1"]


async def test_a_long_episode_parks_and_a_healthy_model_writes_its_part_once(
    store: Store, users: SqliteUserStore
) -> None:
    appended = await store.append_events(store.project_id, "u", _events(LONG), [])
    model = FlakyModel()
    processor = _processor(store, users, model)
    first = await processor.drain(store)
    assert first.events_processed == LONG and first.dead_lettered == len(model.seen) >= 1
    letters = await store.list_dead_letters()
    assert len(letters) == first.dead_lettered
    assert all(len(d.payload_ref) < 100 for d in letters)
    kept = [i for d in letters for i in await store.parked_events(d.id) or []]
    assert sorted(kept) == sorted(appended.event_ids)
    assert (await store.counts())["events_unprocessed"] == 0
    assert (await store.writer_counts()).get("rules", 0) >= 1  # the rules' part is written
    model.fixed = True
    recovered = await processor.retry_parked(store, force=True)
    again = await processor.retry_parked(store, force=True)
    assert recovered.memories_added == 1 and again.memories_added == 0
    assert await store.list_dead_letters() == []
    assert [(m.written_by, m.source) for m in await _model_memories(store)] == [
        ("claude_cli:small", MemorySource.LLM)
    ]


async def test_postgres_letters_parked_before_the_upgrade_still_retry(
    postgres_dsn: str, tmp_path: Path, users: SqliteUserStore
) -> None:
    name = "sqrl_parked_upgrade"
    async with await psycopg.AsyncConnection.connect(postgres_dsn, autocommit=True) as admin:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
    dsn = make_conninfo(postgres_dsn, dbname=name)
    project = str(tmp_path / "proj")
    (tmp_path / "proj").mkdir()
    old_ref = "ep_old:evt_a,evt_b"
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        assert await migrate(conn, MIGRATIONS[:3]) == 3
        await conn.execute(
            "INSERT INTO dead_letters (project_id, kind, payload_ref, error, attempts, "
            "created_at, updated_at) VALUES (%s, 'model:claude_cli', %s, 'Timeout', 2, %s, %s)",
            (project, old_ref, T0, T0),
        )
    database = await PostgresDatabase.open(dsn, max_size=2)
    store = PostgresStore(project, database, store_dir=Path(project) / ".ctx")
    try:
        [old] = await store.list_dead_letters()
        assert (old.payload_ref, old.attempts) == (old_ref, 2)
        assert await store.parked_events(old.id) is None
        # A letter written as before the upgrade, naming stored events in its reference.
        appended = await store.append_events(project, "u", _events(4), [])
        await store.mark_processed(appended.event_ids)
        async with database.transaction() as conn:
            await conn.execute(
                "INSERT INTO dead_letters (project_id, kind, payload_ref, error, attempts, "
                "created_at, updated_at) VALUES (%s, 'model:claude_cli', %s, 'Timeout', 1, "
                "%s, %s)",
                (project, f"ep_new:{','.join(appended.event_ids)}", T0, T0),
            )
        model = FlakyModel()
        model.fixed = True
        report = await _processor(store, users, model).retry_parked(store, force=True)
        assert model.seen == [4]  # the first letter's events are gone: it is resolved
        assert report.memories_added == 1
        assert await store.list_dead_letters() == []
        assert [m.source for m in await _model_memories(store)] == [MemorySource.LLM]
    finally:
        await store.close()
        await database.close()
