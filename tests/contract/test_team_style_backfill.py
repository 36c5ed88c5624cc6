"""A style memory a team server wrote before style was owned (the project's, no owner) is
handed to the one teammate who delivered all of its evidence, merged into their own of the same
key when they have one; one from several users, from the install's own user or with evidence
the store no longer knows stays as it was. Once is enough: running it again changes nothing.
Through the processor, on every backend (a real Postgres)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.candidate_decisions import decide_by_rules
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import Store
from squirrel_memory.storage.values import HistoryAction
from squirrel_memory.user_memories.style_backfill import (
    MERGED_REASON,
    OWNED_REASON,
    own_unowned_styles,
    sole_contributor,
)
from squirrel_memory.user_memories.style_owner import PROJECT_ONLY_TAG
from squirrel_memory.user_memories.userstore import SqliteUserStore

NOW = datetime.now(UTC).replace(microsecond=0)
SERVER = "server"
"""The install's own user on the team server."""
HERE = "In this repo we never call Repo directly from controllers."
HERE_KEY = "pref:directly_controller"


@pytest.fixture
async def users(tmp_path: Path) -> AsyncIterator[SqliteUserStore]:
    store = await SqliteUserStore.open(tmp_path / "home")
    yield store
    await store.close()


def _processor(store: Store, users: SqliteUserStore, *, owned: bool) -> Processor:
    """A team server's processor: `owned`, as now; else as before style was owned (every
    finding the server's own, a project instruction the project's)."""

    async def stores() -> list[Store]:
        return [store]

    return Processor(
        stores,
        users,
        RulesExtractor(),
        decide_by_rules,
        user_id=SERVER,
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: NOW,
        per_user=owned,
    )


def _exchange(session: str, day: int, reply: str) -> list[Event]:
    start = NOW - timedelta(days=day)
    said = [
        (EventType.USER_MESSAGE, "Add the footer."),
        (EventType.ASSISTANT_RESPONSE, "Added the footer."),
        (EventType.USER_MESSAGE, reply),
    ]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            start + timedelta(minutes=n),
            {"text": t},
            session_id=session,
        )
        for n, (kind, t) in enumerate(said)
    ]


async def _say(
    store: Store, processor: Processor, user: str, session: str, day: int, reply: str = HERE
) -> None:
    await store.append_events(store.project_id, user, _exchange(session, day, reply), [])
    await processor.drain(store, force=True)


async def _styles(store: Store, *, deleted: bool = False) -> list[MemoryItem]:
    items, _ = await store.list_memories(
        store.project_id, types=[MemoryType.USER_STYLE], include_deleted=deleted
    )
    return items if deleted else [m for m in items if not m.deleted]


async def _old(store: Store, users: SqliteUserStore, *said_by: str) -> MemoryItem:
    """The ownerless style memory a server wrote before ownership, from `said_by`'s sessions."""
    before = _processor(store, users, owned=False)
    for n, user in enumerate(said_by):
        await _say(store, before, user, f"{user}{n}", 6 - n)
    (old,) = await _styles(store)
    assert (old.scope, old.user_id) == (Scope.PROJECT, None)
    return old


async def test_a_style_one_teammate_said_becomes_theirs(
    store: Store, users: SqliteUserStore
) -> None:
    old = await _old(store, users, "alice")

    assert await own_unowned_styles(store, SERVER) == 1

    (theirs,) = await _styles(store)
    assert (theirs.scope, theirs.user_id, theirs.key) == (Scope.USER, "alice", old.key)
    assert PROJECT_ONLY_TAG in theirs.tags
    assert (theirs.content, theirs.source_event_ids) == (old.content, old.source_event_ids)
    retired = await store.get_memory(old.id)
    assert retired.deleted and retired.superseded_by == theirs.id
    history = await store.history(old.id)
    assert history[-1].action == HistoryAction.SUPERSEDED  # its versions kept
    assert (await store.history(theirs.id))[0].reason == OWNED_REASON
    # Once is enough.
    assert await own_unowned_styles(store, SERVER) == 0
    assert [m.id for m in await _styles(store)] == [theirs.id]


async def test_it_merges_into_the_teammates_own_style_of_the_same_key(
    store: Store, users: SqliteUserStore
) -> None:
    old = await _old(store, users, "alice")
    await _say(store, _processor(store, users, owned=True), "alice", "a-now", 1)
    (own,) = [m for m in await _styles(store) if m.user_id == "alice"]
    assert own.key == old.key

    assert await own_unowned_styles(store, SERVER) == 1

    (merged,) = await _styles(store)
    assert merged.id == own.id and merged.version == own.version + 1
    assert merged.content == own.content and merged.scope is Scope.USER
    assert set(merged.source_event_ids) == set(old.source_event_ids) | set(own.source_event_ids)
    assert merged.importance == max(own.importance, old.importance)
    retired = await store.get_memory(old.id)
    assert retired.deleted and retired.superseded_by == own.id
    assert (await store.history(own.id))[-1].reason == MERGED_REASON
    assert await own_unowned_styles(store, SERVER) == 0
    assert len(await _styles(store)) == 1


async def test_a_style_several_teammates_said_stays_the_projects(
    store: Store, users: SqliteUserStore
) -> None:
    old = await _old(store, users, "alice", "bob")
    assert len(old.source_event_ids) == 2

    assert await own_unowned_styles(store, SERVER) == 0
    assert await _styles(store, deleted=True) == [old]


async def test_a_style_from_the_installs_own_sessions_stays_the_projects(
    store: Store, users: SqliteUserStore
) -> None:
    old = await _old(store, users, SERVER)

    assert await own_unowned_styles(store, SERVER) == 0
    assert await _styles(store, deleted=True) == [old]


async def test_a_laptops_style_stays_as_it_is(store: Store, users: SqliteUserStore) -> None:
    # A laptop: one user, its project instruction the project's.
    old = await _old(store, users, "me")

    assert await own_unowned_styles(store, "me") == 0
    assert await _styles(store, deleted=True) == [old]


async def test_a_manual_style_without_events_stays_the_projects(store: Store) -> None:
    old = await store.remember(
        store.project_id,
        type=MemoryType.USER_STYLE,
        key="pref:tabs",
        content="Use tabs.",
        tags=[],
        importance=0.8,
        scope=Scope.PROJECT,
        user_id=None,
    )

    assert await own_unowned_styles(store, SERVER) == 0
    assert await _styles(store) == [old]


async def test_a_hand_over_after_another_write_writes_nothing(
    store: Store, users: SqliteUserStore
) -> None:
    old = await _old(store, users, "alice")
    await store.correct(
        old.id, content="Never call Repo from controllers.", importance=None, reason="x"
    )
    from squirrel_memory.user_memories.style_backfill import owned_copy  # noqa: PLC0415

    assert not await store.hand_over(old, owned_copy(old, "alice"), OWNED_REASON)
    (still,) = await _styles(store)
    assert (still.id, still.user_id) == (old.id, None)


def test_the_sole_contributor_is_the_one_user_of_every_event() -> None:
    users = {"e1": "alice", "e2": "alice", "e3": "bob", "e4": SERVER}
    assert sole_contributor(["e1", "e2"], users, SERVER) == "alice"
    assert sole_contributor(["e1", "e3"], users, SERVER) is None  # several users
    assert sole_contributor(["e4"], users, SERVER) is None  # the install's own
    assert sole_contributor(["e1", "gone"], users, SERVER) is None  # evidence not known
    assert sole_contributor([], users, SERVER) is None  # no evidence
