"""Rules always, a model adds: the rules' memories are written whatever the model does, and a
model's memory refines a rules memory (its earlier version in the history), never retires it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    StoredEvent,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
TEXTS = ["From now on always use pnpm instead of npm.", "switching to pnpm", "done"]


class ContradictingModel:
    """Restates each rules memory in its own words, on the same key."""

    name = "claude_cli"

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        found = await RulesExtractor().extract(episode, events)
        return [
            replace(c, content=f"Model says: {c.content}", written_by="claude_cli:small")
            for c in found
        ]


async def _delete_and_add(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    """A decider that retires whatever shares the candidate's anchor."""
    live = [m for m in existing if not m.deleted]
    if not live:
        return UpdateDecision(UpdateAction.ADD_NEW, candidate)
    return UpdateDecision(UpdateAction.DELETE_AND_ADD, candidate, live[0].id, reason="newer")


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    root = tmp_path / "proj"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    users = await SqliteUserStore.open(tmp_path / "home")
    events = [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            NOW - timedelta(days=1, minutes=-i),
            {"text": text},
            session_id="s1",
        )
        for i, text in enumerate(TEXTS)
    ]
    await store.append_events(store.project_id, "u", events, [])
    yield store, users
    await store.close()
    await users.close()


async def test_a_model_memory_refines_a_rules_memory_and_never_retires_it(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores

    async def open_stores() -> list[SqliteStore]:
        return [store]

    processor = Processor(
        open_stores,
        users,
        ContradictingModel(),
        _delete_and_add,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: NOW,
    )
    await processor.drain(store)
    items, _ = await store.list_memories(store.project_id, include_deleted=True, limit=100)
    assert items and not any(m.deleted for m in items)
    refined = [m for m in items if m.content.startswith("Model says:")]
    assert refined and all(m.source is MemorySource.LLM for m in refined)
    for memory in refined:
        versions = await store.history(memory.id)
        assert any(v.written_by == "rules" for v in versions)  # the rules' version is kept


async def test_rules_decide_the_rules_candidates_even_with_a_model(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    """The model's decider is asked about the model's candidates only."""
    store, users = stores
    asked: list[str] = []

    async def decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
        asked.append(candidate.written_by)
        return decide_update(candidate, existing)

    async def open_stores() -> list[SqliteStore]:
        return [store]

    processor = Processor(
        open_stores, users, ContradictingModel(), decide, user_id="u", clock=lambda: NOW
    )
    await processor.drain(store)
    assert asked and set(asked) == {"claude_cli:small"}
