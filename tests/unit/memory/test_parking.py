"""Parked extraction is never lost: automatic retries stop at their cap, forced retries always
try and do not use up that budget, and a recovered model writes its memories once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
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
from squirrel_memory.parking.letters import MAX_PARKED_ATTEMPTS, loggable_reason
from squirrel_memory.pass_report import PassReport
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TEXTS = ["From now on always use pnpm instead of npm.", "switching to pnpm", "done"]


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class RecoveringModel:
    """A model backend that fails until `fixed`, counting its calls."""

    name = "claude_cli"

    def __init__(self, name: str = "claude_cli") -> None:
        self.name = name
        self.fixed = False
        self.calls = 0

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        self.calls += 1
        if not self.fixed:
            raise PermanentExtractionError("claude is not logged in")
        return [
            MemoryCandidate(
                type=MemoryType.RECIPE,
                key="recipe:model-check",
                content="Run `make check` before every commit.",
                tags=("testing",),
                importance=0.8,
                source_episode_id=episode.id,
                source_event_ids=tuple(e.id for e in events),
                written_by=f"{self.name}:small",
            )
        ]


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


@pytest.fixture
async def world(
    tmp_path: Path,
) -> AsyncIterator[tuple[SqliteStore, Processor, RecoveringModel, Clock]]:
    root = tmp_path / "proj"
    root.mkdir()
    clock = Clock()
    store = await SqliteStore.open(str(root.resolve()), clock=clock)
    users = await SqliteUserStore.open(tmp_path / "home")
    model = RecoveringModel()

    async def stores() -> list[SqliteStore]:
        return [store]

    processor = Processor(
        stores,
        users,
        model,
        _decide,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=clock,
    )
    events = [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            START - timedelta(days=1, minutes=-i),
            {"text": text},
            session_id="s1",
        )
        for i, text in enumerate(TEXTS)
    ]
    await store.append_events(store.project_id, "u", events, [])
    yield store, processor, model, clock
    await store.close()
    await users.close()


def _processor(
    store: SqliteStore, users: SqliteUserStore, extractor: object, clock: Clock
) -> Processor:
    async def stores() -> list[SqliteStore]:
        return [store]

    return Processor(
        stores,
        users,
        extractor,  # type: ignore[arg-type]
        _decide,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=clock,
    )


async def _memories(store: SqliteStore) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, limit=100)
    return items


async def _model_memories(store: SqliteStore) -> list[MemoryItem]:
    return [m for m in await _memories(store) if m.written_by.endswith(":small")]


@pytest.mark.parametrize("forced_failures", [1, 10])
async def test_a_model_failing_past_every_cap_recovers_once_on_a_forced_retry(
    world: tuple[SqliteStore, Processor, RecoveringModel, Clock], forced_failures: int
) -> None:
    store, processor, model, clock = world
    first = await processor.drain(store)
    assert first.dead_lettered == 1
    rules_written = {m.key for m in await _memories(store) if m.written_by == "rules"}
    assert rules_written  # the rules' part is written while the model fails
    # Automatic retries, each after its back-off, until the cap: then the letter waits.
    for _ in range(3 * MAX_PARKED_ATTEMPTS):
        clock.now += timedelta(hours=7)
        await processor.retry_parked(store)
    [letter] = await store.list_dead_letters()
    assert letter.attempts == MAX_PARKED_ATTEMPTS
    calls = model.calls
    assert calls == MAX_PARKED_ATTEMPTS  # the first try, then MAX - 1 automatic retries
    # Forced retries always try, and never use up the automatic budget.
    for _ in range(forced_failures):
        report = await processor.retry_parked(store, force=True)
        assert report.dead_lettered == 1
    assert model.calls == calls + forced_failures
    [letter] = await store.list_dead_letters()
    assert letter.attempts == MAX_PARKED_ATTEMPTS
    # The exhausted letter is not dropped and not retried automatically any more …
    clock.now += timedelta(days=2)
    await processor.retry_parked(store)
    assert model.calls == calls + forced_failures
    assert await _model_memories(store) == []
    # … and once the model works, one forced retry writes its memories, once.
    model.fixed = True
    recovered = await processor.retry_parked(store, force=True)
    again = await processor.retry_parked(store, force=True)
    assert recovered.memories_added == 1 and again.memories_added == 0
    assert await store.list_dead_letters() == []
    assert [m.key for m in await _model_memories(store)] == ["recipe:model-check"]
    assert rules_written <= {m.key for m in await _memories(store) if m.written_by == "rules"}


async def test_a_forced_retry_that_fails_keeps_the_automatic_budget(
    world: tuple[SqliteStore, Processor, RecoveringModel, Clock],
) -> None:
    store, processor, _model, clock = world
    await processor.drain(store)
    for _ in range(5):
        await processor.retry_parked(store, force=True)
    [letter] = await store.list_dead_letters()
    assert letter.attempts == 1
    clock.now += timedelta(hours=7)
    await processor.retry_parked(store)
    [letter] = await store.list_dead_letters()
    assert letter.attempts == 2


async def test_another_model_backend_retries_an_exhausted_letter_at_once(
    world: tuple[SqliteStore, Processor, RecoveringModel, Clock], tmp_path: Path
) -> None:
    store, processor, _model, clock = world
    await processor.drain(store)
    for _ in range(3 * MAX_PARKED_ATTEMPTS):
        clock.now += timedelta(hours=7)
        await processor.retry_parked(store)
    [letter] = await store.list_dead_letters()
    assert letter.kind == "model:claude_cli" and letter.attempts == MAX_PARKED_ATTEMPTS
    users = await SqliteUserStore.open(tmp_path / "home2")
    try:
        codex = RecoveringModel("codex_cli")
        codex.fixed = True
        report = await _processor(store, users, codex, clock).retry_parked(store)  # not forced
    finally:
        await users.close()
    assert report.memories_added == 1 and codex.calls == 1
    assert await store.list_dead_letters() == []
    assert [m.written_by for m in await _model_memories(store)] == ["codex_cli:small"]


async def test_a_letter_for_the_model_waits_while_the_rules_alone_run(
    world: tuple[SqliteStore, Processor, RecoveringModel, Clock], tmp_path: Path
) -> None:
    store, processor, _model, clock = world
    await processor.drain(store)
    users = await SqliteUserStore.open(tmp_path / "home2")
    try:
        rules_only = _processor(store, users, RulesExtractor(), clock)
        clock.now += timedelta(days=1)
        await rules_only.retry_parked(store)
        report = await rules_only.retry_parked(store, force=True)
    finally:
        await users.close()
    assert report == PassReport()
    [letter] = await store.list_dead_letters()
    assert letter.kind == "model:claude_cli" and letter.attempts == 1


def test_the_log_carries_our_reason_but_never_a_backends_output() -> None:
    login = PermanentExtractionError("claude is not logged in; run `claude` once and log in")
    echoed = PermanentExtractionError("claude failed: my secret session text", quotes_output=True)
    assert loggable_reason(login) == str(login)
    assert "session text" not in loggable_reason(echoed)
    assert "session" not in loggable_reason(ValueError("session text in a bug"))
