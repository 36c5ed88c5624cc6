"""MemoryBook contract: update decisions, history, manual memory, listeners, lookups."""

from __future__ import annotations

import asyncio
import threading
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import MemoryChange, Store
from tests.conftest import PATIENCE_SECONDS

from .conftest import Opener
from .test_event_log import T0, ev

USER = "alice"


def candidate(
    content: str = "Tests run with pytest -q",
    *,
    key: str = "test_runner",
    tags: tuple[str, ...] = ("testing",),
    events: tuple[str, ...] = ("evt_1",),
    importance: float = 0.5,
    scope: Scope = Scope.PROJECT,
    type: MemoryType = MemoryType.RECIPE,
    files: tuple[str, ...] = (),
) -> MemoryCandidate:
    return MemoryCandidate(
        type=type,
        key=key,
        content=content,
        tags=tags,
        importance=importance,
        source_event_ids=events,
        scope=scope,
        file_paths=files,
    )


def decide(
    action: UpdateAction, cand: MemoryCandidate, target: str | None = None
) -> UpdateDecision:
    return UpdateDecision(action=action, candidate=cand, target_id=target)


async def add(store: Store, cand: MemoryCandidate | None = None) -> MemoryItem:
    item = await store.apply_decision(
        decide(UpdateAction.ADD_NEW, cand or candidate()), user_id=USER
    )
    assert item is not None
    return item


async def test_add_update_noop_delete_and_add_with_history(store: Store) -> None:
    first = await add(store)
    assert first.version == 1 and first.written_by == "rules" and not first.deleted
    updated = await store.apply_decision(
        decide(
            UpdateAction.UPDATE_EXISTING,
            candidate("Tests run with pytest -q -x", tags=("ci",), events=("evt_2",)),
            first.id,
        ),
        user_id=USER,
    )
    assert updated is not None and updated.id == first.id and updated.version == 2
    assert updated.tags == ("testing", "ci") and updated.source_event_ids == ("evt_1", "evt_2")
    assert await store.apply_decision(decide(UpdateAction.NOOP, candidate()), user_id=USER) is None
    replacement = await store.apply_decision(
        decide(UpdateAction.DELETE_AND_ADD, candidate("Tests run with tox"), first.id),
        user_id=USER,
    )
    assert replacement is not None and replacement.id != first.id
    retired = await store.get_memory(first.id)
    assert retired.deleted and retired.superseded_by == replacement.id and retired.version == 3
    versions = await store.history(first.id)
    assert [(v.version, v.action) for v in versions] == [
        (1, "created"),
        (2, "updated"),
        (3, "superseded"),
    ]
    assert versions[0].content == "Tests run with pytest -q"
    assert versions[-1].superseded_by == replacement.id


async def test_missing_or_deleted_target_becomes_an_add(store: Store) -> None:
    item = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, candidate(), "mem_missing"), user_id=USER
    )
    assert item is not None and item.version == 1


async def test_extraction_never_changes_a_manual_memory(store: Store, project: str) -> None:
    manual = await store.remember(
        project,
        type=MemoryType.RECIPE,
        key="test_runner",
        content="Run make test",
        tags=["testing"],
        importance=0.9,
        scope=Scope.PROJECT,
        user_id=None,
    )
    kept = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, candidate(), manual.id), user_id=USER
    )
    assert kept is None
    beside = await store.apply_decision(
        decide(UpdateAction.DELETE_AND_ADD, candidate(), manual.id), user_id=USER
    )
    assert beside is not None and beside.id != manual.id
    assert (await store.get_memory(manual.id)).content == "Run make test"


async def test_remember_updates_the_manual_memory_on_the_same_anchor(
    store: Store, project: str
) -> None:
    async def remember(content: str) -> MemoryItem:
        return await store.remember(
            project,
            type=MemoryType.PROJECT_FACT,
            key="db",
            content=content,
            tags=["db"],
            importance=0.7,
            scope=Scope.PROJECT,
            user_id=None,
        )

    one = await remember("Postgres 16")
    same = await remember("Postgres 16")
    two = await remember("Postgres 17")
    assert one.id == same.id == two.id and (same.version, two.version) == (1, 2)
    anchored = await store.find_anchor(project, MemoryType.PROJECT_FACT, "db", Scope.PROJECT, None)
    assert [m.content for m in anchored] == ["Postgres 17"]


async def test_supersede_forget_and_correct_keep_history(store: Store) -> None:
    old = await add(store)
    new = await add(store, candidate("Tests run with tox", key="tox"))
    superseded = await store.supersede(old.id, new.id, "replaced")
    assert superseded.deleted and superseded.superseded_by == new.id
    forgotten = await store.forget(new.id, "")
    assert forgotten.deleted and (await store.forget(new.id, "again")).version == forgotten.version
    corrected, changed = await store.correct(
        new.id, content="Tests run with tox -p", importance=None, reason="fixed"
    )
    assert changed and not corrected.deleted and corrected.source is MemorySource.MANUAL
    again, changed_again = await store.correct(
        new.id, content="Tests run with tox -p", importance=None, reason="same"
    )
    assert not changed_again and again.version == corrected.version
    assert [v.action for v in await store.history(new.id)] == ["created", "forgotten", "updated"]
    with pytest.raises(NotFoundError):
        await store.forget("mem_missing", "x")
    live = await add(store, candidate(key="live"))
    with pytest.raises(NotFoundError):
        await store.supersede(live.id, "mem_missing", "x")
    assert (await store.supersede(corrected.id, live.id, "manual stays")).version == 3
    with pytest.raises(NotFoundError):
        await store.history("mem_missing")


async def test_listeners_hear_every_committed_change(store: Store) -> None:
    heard: list[MemoryChange] = []
    store.add_listener(heard.append)
    item = await add(store)
    await store.forget(item.id, "gone")
    store.remove_listener(heard.append)
    await add(store, candidate(key="other"))
    assert heard == [MemoryChange(added=(item.id,)), MemoryChange(deleted=(item.id,))]


async def test_processing_result_is_one_transaction(store: Store, project: str) -> None:
    appended = await store.append_events(project, USER, [ev("a"), ev("b")], [])
    ep = Episode(
        id=f"ep_{uuid.uuid4().hex}",  # unique across the projects one Postgres server holds
        project_id=project,
        user_id=USER,
        session_id="s1",
        start_ts=T0,
        end_ts=T0,
        event_count=2,
        summary="s",
        importance=0.3,
        created_at=T0,
        event_ids=appended.event_ids,
    )
    result = await store.apply_processing_result(
        [ep], [decide(UpdateAction.ADD_NEW, candidate())], appended.event_ids, user_id=USER
    )
    assert result.processed == 2 and result.episode_ids == (ep.id,)
    assert len(result.memories) == 1 and result.change.added == (result.memories[0].id,)
    bad = UpdateDecision(action=UpdateAction.UPDATE_EXISTING, candidate=candidate())
    more = await store.append_events(project, USER, [ev("c")], [])
    with pytest.raises(InvalidArgumentError):
        await store.apply_processing_result([], [bad], more.event_ids, user_id=USER)
    assert await store.count_unprocessed(project) == 1


async def test_concurrent_updates_of_one_memory_lose_nothing(store: Store) -> None:
    item = await add(store)
    await asyncio.gather(
        *(
            store.apply_decision(
                decide(
                    UpdateAction.UPDATE_EXISTING,
                    candidate(events=(f"evt_{n}",)),
                    item.id,
                ),
                user_id=USER,
            )
            for n in range(2, 8)
        )
    )
    final = await store.get_memory(item.id)
    assert final.version == 7
    assert set(final.source_event_ids) == {f"evt_{n}" for n in range(1, 8)}


async def test_found_memories_runs_the_search_off_the_loop_then_reads_its_hits(
    store: Store,
) -> None:
    a = await add(store, candidate(key="a"))
    b = await add(store, candidate(key="b"))
    loop_thread = threading.get_ident()
    threads: list[int] = []

    def find() -> list[tuple[str, float]]:
        threads.append(threading.get_ident())
        return [(b.id, 0.9), ("mem_unknown", 0.5), (a.id, 0.2)]

    hits, items = await store.found_memories(find)
    assert threads and threads[0] != loop_thread
    assert hits == [(b.id, 0.9), ("mem_unknown", 0.5), (a.id, 0.2)]
    assert [m.id for m in items] == [b.id, a.id]
    assert await store.found_memories(list) == ([], [])

    def failing() -> list[tuple[str, float]]:
        raise LookupError("the search failed")

    with pytest.raises(LookupError):
        await store.found_memories(failing)


async def test_found_with_lexical_runs_both_sides_at_once_and_gives_what_each_gives(
    store: Store, project: str
) -> None:
    a = await add(store, candidate(key="alpha_notes", content="alpha beta gamma"))
    b = await add(store, candidate(key="beta_notes", content="beta delta"))
    told: list[list[str]] = []
    lexical_seen = threading.Event()

    def on_lexical(found: list[tuple[MemoryItem, float]]) -> None:
        told.append([m.id for m, _ in found])
        lexical_seen.set()

    def find() -> list[tuple[str, float]]:
        # The lexical side is read while this one runs: it is not waiting for it.
        assert lexical_seen.wait(PATIENCE_SECONDS)
        return [(b.id, 0.9), ("mem_unknown", 0.5), (a.id, 0.2)]

    hits, items, found = await store.found_with_lexical(
        find, project, "alpha beta", types=None, limit=10, on_lexical=on_lexical
    )
    assert hits == [(b.id, 0.9), ("mem_unknown", 0.5), (a.id, 0.2)]
    assert [m.id for m in items] == [b.id, a.id]
    expected = await store.search_fts_memories(project, "alpha beta", None, 10)
    assert [(m.id, s) for m, s in found] == [(m.id, s) for m, s in expected]
    assert told == [[m.id for m, _ in expected]] and {a.id, b.id} == set(told[0])

    def failing() -> list[tuple[str, float]]:
        raise LookupError("the search failed")

    with pytest.raises(LookupError):
        await store.found_with_lexical(
            failing, project, "alpha", types=None, limit=10, on_lexical=lambda _: None
        )


async def test_lookups_by_id_prefix_path_type_and_page(store: Store, project: str) -> None:
    a = await add(store, candidate(key="a", importance=0.2, files=("src/app.py",)))
    b = await add(store, candidate(key="b", importance=0.9, files=("src/app.py", "README.md")))
    c = await add(store, candidate(key="c", type=MemoryType.PITFALL, files=("src/app.pyc",)))
    assert [m.id for m in await store.get_memories([c.id, "mem_x", a.id])] == [c.id, a.id]
    assert a.id in await store.memory_ids_with_prefix(a.id[:10], limit=10)
    assert await store.memory_ids_with_prefix("mem_%", limit=10) == []
    with_path = await store.memories_with_paths(project, ["src/app.py"])
    assert [m.id for m in with_path] == [b.id, a.id]
    assert await store.memories_with_paths(project, ["src/app.py"], [MemoryType.PITFALL]) == []
    assert [m.id for m in await store.most_important(project, MemoryType.RECIPE)] == [b.id, a.id]
    assert await store.live_memory_ids() == {a.id, b.id, c.id}
    await store.forget(a.id, "x")
    assert await store.live_memory_ids() == {b.id, c.id}
    page, total = await store.list_memories(project, limit=1)
    assert total == 2 and page[0].id == c.id
    everything, total_all = await store.list_memories(project, include_deleted=True)
    assert total_all == 3 and {m.id for m in everything} == {a.id, b.id, c.id}
    pitfalls, _ = await store.list_memories(project, [MemoryType.PITFALL])
    assert [m.id for m in pitfalls] == [c.id]


async def test_memories_from_a_source_tool(store: Store, project: str) -> None:
    appended = await store.append_events(project, USER, [ev("a")], [])
    item = await add(store, candidate(events=appended.event_ids))
    assert await store.memory_ids_from_tool("claude_code") == {item.id}
    assert await store.memory_ids_from_tool("codex") == set()


async def test_user_scoped_memory_belongs_to_its_user(store: Store, project: str) -> None:
    own = await add(store, candidate(scope=Scope.USER, key="style"))
    assert own.user_id == USER and own.scope is Scope.USER
    assert await store.find_anchor(project, MemoryType.RECIPE, "style", Scope.USER, "bob") == []


async def test_projects_do_not_see_each_other(
    opener: Opener, project: str, other_project: str
) -> None:
    mine = await opener.open(project)
    theirs = await opener.open(other_project)
    item = await add(mine)
    with pytest.raises(NotFoundError):
        await theirs.get_memory(item.id)
    assert await theirs.get_memories([item.id]) == []
    assert await theirs.search_fts(other_project, "pytest") == []
    assert (await theirs.list_memories(other_project))[1] == 0


async def test_times_round_trip_in_utc(store: Store, project: str) -> None:
    item = await add(store)
    stored = await store.get_memory(item.id)
    assert stored.created_at == item.created_at and stored.created_at.tzinfo is not None
    assert stored.created_at.utcoffset() == timedelta(0)
    assert abs(stored.created_at - datetime.now(UTC)) < timedelta(minutes=5)


async def test_a_nul_character_is_stored_or_refused_cleanly(opener: Opener, project: str) -> None:
    store = await opener.open(project)
    remember = store.remember(
        project,
        type=MemoryType.PROJECT_FACT,
        key="nul",
        content="before\x00after",
        tags=[],
        importance=0.5,
        scope=Scope.PROJECT,
        user_id=None,
    )
    if opener.backend == "postgres":  # Postgres text cannot hold NUL
        with pytest.raises(InvalidArgumentError):
            await remember
        assert (await store.list_memories(project))[1] == 0
    else:
        assert (await remember).content == "before\x00after"
