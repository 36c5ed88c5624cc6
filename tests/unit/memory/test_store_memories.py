"""Memory updates keep every version; manual memories are never overwritten by extraction."""

from __future__ import annotations

import dataclasses

import pytest

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.host_files import LOADED_TAG, WRITTEN_TAG
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import MemoryChange, SqliteStore

USER = "alice"


def candidate(
    content: str = "Tests run with pytest -q",
    *,
    key: str = "test_runner",
    tags: tuple[str, ...] = ("testing",),
    events: tuple[str, ...] = ("evt_1",),
    importance: float = 0.5,
    scope: Scope = Scope.PROJECT,
) -> MemoryCandidate:
    return MemoryCandidate(
        type=MemoryType.RECIPE,
        key=key,
        content=content,
        tags=tags,
        importance=importance,
        source_event_ids=events,
        scope=scope,
    )


def decide(
    action: UpdateAction, cand: MemoryCandidate, target: str | None = None, **kw: str
) -> UpdateDecision:
    return UpdateDecision(action=action, candidate=cand, target_id=target, **kw)  # type: ignore[arg-type]


async def add(store: SqliteStore, cand: MemoryCandidate | None = None) -> MemoryItem:
    item = await store.apply_decision(
        decide(UpdateAction.ADD_NEW, cand or candidate()), user_id=USER
    )
    assert item is not None
    return item


async def test_add_new_creates_version_one_with_history(store: SqliteStore) -> None:
    item = await add(store)
    assert item.id.startswith("mem_") and item.version == 1
    assert (item.source, item.user_id, item.deleted) == (MemorySource.RULES, None, False)
    assert await store.get_memory(item.id) == item
    (v1,) = await store.history(item.id)
    assert (v1.version, v1.action, v1.content, v1.source_event_ids) == (
        1,
        "created",
        item.content,
        ("evt_1",),
    )


async def test_update_keeps_the_previous_version_in_history(store: SqliteStore) -> None:
    old = await add(store)
    new = await store.apply_decision(
        decide(
            UpdateAction.UPDATE_EXISTING,
            candidate("Tests run with pytest -q -x", tags=("pytest",), events=("evt_2",)),
            old.id,
            merged_content="Tests run with pytest -q -x (stop on first failure)",
            reason="more precise",
        ),
        user_id=USER,
        source=MemorySource.LLM,
    )
    assert new is not None and new.id == old.id
    assert new.version == 2 and new.source == MemorySource.LLM
    assert new.content == "Tests run with pytest -q -x (stop on first failure)"
    assert new.tags == ("testing", "pytest")
    assert new.source_event_ids == ("evt_1", "evt_2")
    history = await store.history(old.id)
    assert [(v.version, v.action, v.content) for v in history] == [
        (1, "created", old.content),
        (2, "updated", new.content),
    ]
    assert history[1].reason == "more precise"


async def test_a_session_that_confirms_a_memory_read_from_a_loaded_file_ends_its_tag(
    store: SqliteStore,
) -> None:
    loaded = await add(store, candidate(tags=("testing", LOADED_TAG)))
    again = candidate(tags=("testing", LOADED_TAG), events=("evt_2",))
    kept = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, again, loaded.id), user_id=USER
    )
    assert kept is not None and LOADED_TAG in kept.tags  # the file loaded again: still only it
    confirmed = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, candidate(events=("evt_3",)), loaded.id),
        user_id=USER,
    )
    assert confirmed is not None and confirmed.tags == ("testing",)
    assert confirmed.source_event_ids == ("evt_1", "evt_2", "evt_3")


async def test_a_session_that_confirms_a_memory_read_from_a_file_ends_its_tag(
    store: SqliteStore,
) -> None:
    read = await add(store, candidate(tags=("testing", WRITTEN_TAG)))
    confirmed = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, candidate(events=("evt_2",)), read.id),
        user_id=USER,
    )
    assert confirmed is not None and confirmed.tags == ("testing",)


async def test_source_refs_are_stored_and_kept_per_version(store: SqliteStore) -> None:
    first = dataclasses.replace(
        candidate(), source_refs=("mix.exs:3", "mix.lock:9", "commit:abc123")
    )
    old = await add(store, first)
    assert old.source_refs == ("mix.exs:3", "mix.lock:9", "commit:abc123")
    moved = dataclasses.replace(
        candidate("Tests run with mix test --cover"), source_refs=("mix.exs:5", "commit:def456")
    )
    new = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, moved, old.id), user_id=USER
    )
    assert new is not None
    # A new reading replaces the old lines (mix.lock no longer says it); commits accumulate.
    assert new.source_refs == ("mix.exs:5", "commit:def456", "commit:abc123")
    assert (await store.get_memory(old.id)).source_refs == new.source_refs
    history = await store.history(old.id)
    assert [v.source_refs for v in history] == [
        ("mix.exs:3", "mix.lock:9", "commit:abc123"),
        ("mix.exs:5", "commit:def456", "commit:abc123"),
    ]


async def test_source_refs_must_be_strings(store: SqliteStore) -> None:
    bad = dataclasses.replace(candidate(), source_refs="mix.exs:3")
    with pytest.raises(InvalidArgumentError):
        await add(store, bad)
    assert (await store.list_memories(store.project_id))[1] == 0


async def test_delete_and_add_supersedes_the_old_memory(store: SqliteStore, project: str) -> None:
    old = await add(store)
    new = await store.apply_decision(
        decide(UpdateAction.DELETE_AND_ADD, candidate("Tests run with tox"), old.id),
        user_id=USER,
    )
    assert new is not None and new.id != old.id
    retired = await store.get_memory(old.id)
    assert retired.deleted and retired.superseded_by == new.id and retired.version == 2
    last = (await store.history(old.id))[-1]
    assert (last.action, last.superseded_by) == ("superseded", new.id)
    live = await store.find_anchor(project, MemoryType.RECIPE, "test_runner", Scope.PROJECT, None)
    assert [m.id for m in live] == [new.id]


async def test_noop_changes_nothing(store: SqliteStore) -> None:
    old = await add(store)
    result = await store.apply_decision(
        decide(UpdateAction.NOOP, candidate("whatever"), old.id), user_id=USER
    )
    assert result is None
    assert await store.get_memory(old.id) == old


async def test_update_of_a_missing_or_deleted_target_becomes_an_add(store: SqliteStore) -> None:
    item = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, candidate(), "mem_gone"), user_id=USER
    )
    assert item is not None and item.version == 1
    await store.forget(item.id, "wrong")
    again = await store.apply_decision(
        decide(UpdateAction.DELETE_AND_ADD, candidate(), item.id), user_id=USER
    )
    assert again is not None and again.id != item.id and not again.deleted


async def test_extraction_never_overwrites_a_manual_memory(
    store: SqliteStore, project: str
) -> None:
    manual = await store.remember(
        project,
        type=MemoryType.RECIPE,
        key="test_runner",
        content="Run tests with make test",
        tags=["testing"],
        importance=0.9,
        scope=Scope.PROJECT,
        user_id=None,
    )
    update = await store.apply_decision(
        decide(UpdateAction.UPDATE_EXISTING, candidate("pytest -q"), manual.id), user_id=USER
    )
    assert update is None
    replacement = await store.apply_decision(
        decide(UpdateAction.DELETE_AND_ADD, candidate("pytest -q"), manual.id), user_id=USER
    )
    assert replacement is not None and replacement.id != manual.id
    assert await store.get_memory(manual.id) == manual
    live = await store.find_anchor(project, MemoryType.RECIPE, "test_runner", Scope.PROJECT, None)
    assert {m.id for m in live} == {manual.id, replacement.id}


async def test_remember_twice_on_one_anchor_updates_with_history(
    store: SqliteStore, project: str
) -> None:
    fields = {
        "type": MemoryType.PROJECT_FACT,
        "key": "package_manager",
        "tags": ["tooling"],
        "importance": 0.8,
        "scope": Scope.PROJECT,
        "user_id": None,
    }
    first = await store.remember(project, content="Uses pip", **fields)  # type: ignore[arg-type]
    second = await store.remember(project, content="Uses uv", **fields)  # type: ignore[arg-type]
    same = await store.remember(project, content="Uses uv", **fields)  # type: ignore[arg-type]
    assert first.source == MemorySource.MANUAL
    assert second.id == first.id and second.version == 2
    assert same == second
    assert [v.content for v in await store.history(first.id)] == ["Uses pip", "Uses uv"]


async def test_user_scoped_memory_needs_a_user(store: SqliteStore, project: str) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.remember(
            project,
            type=MemoryType.USER_STYLE,
            key="async",
            content="Prefers asyncio",
            tags=[],
            importance=0.5,
            scope=Scope.USER,
            user_id=None,
        )
    item = await store.apply_decision(
        decide(UpdateAction.ADD_NEW, candidate(scope=Scope.USER)), user_id=USER
    )
    assert item is not None and item.user_id == USER
    mine = await store.find_anchor(project, MemoryType.RECIPE, "test_runner", Scope.USER, USER)
    theirs = await store.find_anchor(project, MemoryType.RECIPE, "test_runner", Scope.USER, "bob")
    assert [m.id for m in mine] == [item.id] and theirs == []


@pytest.mark.parametrize(
    "bad",
    [
        {"content": ""},
        {"content": "x" * 20_000},
        {"key": "   "},
        {"importance": 1.5},
        {"importance": float("nan")},
        {"tags": "not-a-list"},
        {"type": "gossip"},
        {"scope": "galaxy"},
    ],
)
async def test_remember_rejects_bad_fields(
    store: SqliteStore, project: str, bad: dict[str, object]
) -> None:
    fields: dict[str, object] = {
        "type": MemoryType.PROJECT_FACT,
        "key": "k",
        "content": "c",
        "tags": [],
        "importance": 0.5,
        "scope": Scope.PROJECT,
        "user_id": None,
    }
    fields.update(bad)
    with pytest.raises(InvalidArgumentError):
        await store.remember(project, **fields)  # type: ignore[arg-type]
    assert (await store.list_memories(project))[1] == 0


async def test_decision_without_target_or_with_bad_candidate_is_refused(
    store: SqliteStore,
) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.apply_decision(decide(UpdateAction.UPDATE_EXISTING, candidate()), user_id=USER)
    with pytest.raises(InvalidArgumentError):
        await store.apply_decision(
            decide(UpdateAction.ADD_NEW, candidate(importance=-0.1)), user_id=USER
        )


async def test_forget_soft_deletes_and_records_why(store: SqliteStore, project: str) -> None:
    item = await add(store)
    forgotten = await store.forget(item.id, "outdated")
    assert forgotten.deleted and forgotten.version == 2
    assert await store.forget(item.id, "again") == forgotten
    last = (await store.history(item.id))[-1]
    assert (last.action, last.reason) == ("forgotten", "outdated")
    assert (await store.list_memories(project))[1] == 0
    assert (await store.list_memories(project, include_deleted=True))[1] == 1


async def test_unknown_memory_is_not_found(store: SqliteStore) -> None:
    for call in (
        store.forget("mem_nope", "x"),
        store.get_memory("mem_nope"),
        store.history("mem_nope"),
    ):
        with pytest.raises(NotFoundError):
            await call


async def test_list_pages_newest_first_with_total_and_type_filter(
    store: SqliteStore, project: str
) -> None:
    items = [await add(store, candidate(f"fact {i}", key=f"k{i}")) for i in range(5)]
    page, total = await store.list_memories(project, limit=2, offset=1)
    assert total == 5 and [m.id for m in page] == [items[3].id, items[2].id]
    none, total = await store.list_memories(project, types=[MemoryType.PITFALL])
    assert (none, total) == ([], 0)
    with pytest.raises(InvalidArgumentError):
        await store.list_memories(project, offset=-1)


async def test_get_memories_keeps_the_order_asked(store: SqliteStore) -> None:
    a = await add(store, candidate("a", key="a"))
    b = await add(store, candidate("b", key="b"))
    found = await store.get_memories([b.id, "mem_missing", a.id])
    assert [m.id for m in found] == [b.id, a.id]


async def test_listeners_hear_each_committed_change(store: SqliteStore, project: str) -> None:
    heard: list[MemoryChange] = []
    awaited: list[MemoryChange] = []

    async def async_listener(change: MemoryChange) -> None:
        awaited.append(change)

    def broken(change: MemoryChange) -> None:
        raise RuntimeError("listener bug")

    store.add_listener(broken)
    store.add_listener(heard.append)
    store.add_listener(async_listener)
    old = await add(store)
    await store.apply_decision(
        decide(UpdateAction.DELETE_AND_ADD, candidate("tox"), old.id), user_id=USER
    )
    await store.apply_decision(decide(UpdateAction.NOOP, candidate(), old.id), user_id=USER)
    assert heard == awaited
    assert heard[0] == MemoryChange(added=(old.id,))
    assert heard[1].deleted == (old.id,) and len(heard[1].added) == 1
    assert len(heard) == 2
    store.remove_listener(heard.append)
    await store.forget(heard[1].added[0], "done")
    assert len(heard) == 2 and len(awaited) == 3


async def test_a_correction_is_a_manual_version_that_extraction_leaves_alone(
    store: SqliteStore,
) -> None:
    extracted = await add(store)
    fixed, changed = await store.correct(
        extracted.id, content="Tests run with `make test`", importance=None, reason="wrong runner"
    )
    assert changed and fixed.id == extracted.id and fixed.version == 2
    assert (fixed.source, fixed.written_by, fixed.importance) == (
        MemorySource.MANUAL,
        "manual",
        extracted.importance,
    )
    for action in (UpdateAction.UPDATE_EXISTING, UpdateAction.DELETE_AND_ADD):
        await store.apply_decision(
            decide(action, candidate("Tests run with pytest -q -x"), extracted.id), user_id=USER
        )
        assert (await store.get_memory(extracted.id)).content == "Tests run with `make test`"
    history = await store.history(extracted.id)
    assert [(v.version, v.content, v.reason) for v in history][:2] == [
        (1, extracted.content, history[0].reason),
        (2, "Tests run with `make test`", "wrong runner"),
    ]


async def test_a_correction_restores_a_forgotten_memory_and_refuses_bad_input(
    store: SqliteStore,
) -> None:
    item = await add(store)
    await store.forget(item.id, "no longer true")
    pinned, changed = await store.correct(item.id, content=None, importance=1.0, reason="")
    assert changed and not pinned.deleted and pinned.importance == 1.0
    assert pinned.content == item.content and pinned.version == 3
    again, changed = await store.correct(item.id, content=item.content, importance=1.0, reason="")
    assert not changed and again.version == 3
    assert (await store.history(item.id))[-1].reason == "corrected by the user"
    with pytest.raises(NotFoundError):
        await store.correct("mem_missing", content="x", importance=None, reason="")
    with pytest.raises(InvalidArgumentError):
        await store.correct(item.id, content="x" * 100_000, importance=None, reason="")
    with pytest.raises(InvalidArgumentError):
        await store.correct(item.id, content=None, importance=1.5, reason="")
    with pytest.raises(InvalidArgumentError):
        await store.correct(item.id, content="   ", importance=None, reason="")
