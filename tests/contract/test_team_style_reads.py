"""On a team server a user's style is read as theirs in the query: however many style memories
other users have, the caller's own fill their style view and their task context's standing
style, and another user's never shows. On every backend (a real Postgres)."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_core.caller import serving_team_user
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.retrieval import Retriever
from squirrel_memory.storage import Store
from squirrel_memory.user_memories.privacy import visible
from squirrel_memory.views import Views, builder

OTHERS = 6
"""Bob's style memories, all newer than Alice's one: more than the views read (patched)."""
READ = 3


async def _style(store: Store, user: str | None, key: str, scope: Scope = Scope.USER) -> MemoryItem:
    return await store.remember(
        store.project_id,
        type=MemoryType.USER_STYLE,
        key=key,
        content=f"Style rule {key}.",
        tags=[],
        importance=0.9,
        scope=scope,
        user_id=user,
    )


async def _crowded(store: Store) -> MemoryItem:
    """Alice's one style memory, then `OTHERS` of Bob's."""
    alice = await _style(store, "alice", "alice:rule")
    for n in range(OTHERS):
        await _style(store, "bob", f"bob:rule{n}")
    return alice


async def _view_keys(
    store: Store, user: str | None, where: Path, mode: str, named: str | None = None
) -> list[str]:
    """The keys of the style view `user` is shown (None: the install's own caller, asking for
    `named`)."""
    views = Views(store, views_dir=where)
    try:
        with serving_team_user(user):
            view = await views.user_style(store.project_id, user_id=user or named, mode=mode)
    finally:
        views.close()
    return [i.key for i in view.items]


@pytest.mark.parametrize("mode", ["core", "full"])
async def test_a_users_style_view_holds_their_style_among_many_of_others(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    monkeypatch.setattr(builder, "_LIST_LIMIT", READ)
    await _crowded(store)

    assert await _view_keys(store, "alice", tmp_path / "a", mode) == ["alice:rule"]
    bobs = await _view_keys(store, "bob", tmp_path / "b", mode)
    assert bobs and all(k.startswith("bob:") for k in bobs)  # never Alice's


async def test_another_users_style_never_shows_and_a_cached_view_is_not_shared(
    store: Store, tmp_path: Path
) -> None:
    await _crowded(store)
    where = tmp_path / "views"  # one cache for every caller
    # The install's own caller sees every style (the server machine's own).
    everyone = await _view_keys(store, None, where, "full")
    assert "alice:rule" in everyone and any(k.startswith("bob:") for k in everyone)
    assert await _view_keys(store, None, where, "full", named="alice") == ["alice:rule"]
    # A teammate asking right after is never served another caller's view.
    assert await _view_keys(store, "alice", where, "full") == ["alice:rule"]
    assert await _view_keys(store, "carol", where, "full") == []


async def test_a_brief_built_for_the_install_is_not_served_to_a_teammate(
    store: Store, tmp_path: Path
) -> None:
    for user, scope in (("bob", Scope.USER), (None, Scope.PROJECT)):
        await store.remember(
            store.project_id,
            type=MemoryType.PROJECT_FACT,
            key=f"fact:{user}",
            content=f"Build with target {user}.",
            tags=[],
            importance=0.9,
            scope=scope,
            user_id=user,
        )
    views = Views(store, views_dir=tmp_path / "views")
    try:
        everyone = await views.project_brief(store.project_id, mode="full")
        with serving_team_user("alice"):
            alices = await views.project_brief(store.project_id, mode="full")
    finally:
        views.close()
    assert len(everyone.key_facts) == 2
    assert [f for f in alices.key_facts if "bob" in f] == [] and len(alices.key_facts) == 1


async def test_task_context_styles_are_the_callers_among_many_of_others(store: Store) -> None:
    alice = await _crowded(store)
    retriever = Retriever(store)
    with serving_team_user("alice"):
        assert [m.id for m in await retriever.style_memories(store.project_id, limit=READ)] == [
            alice.id
        ]
    with serving_team_user("bob"):
        found = await retriever.style_memories(store.project_id, limit=READ)
        assert len(found) == READ and {m.user_id for m in found} == {"bob"}
    # Must not fire on a local caller: every style, most important first.
    assert len(await retriever.style_memories(store.project_id, limit=50)) == OTHERS + 1


async def test_the_query_keeps_what_the_privacy_rule_keeps(store: Store) -> None:
    made = [
        await _style(store, "alice", "s:alice"),
        await _style(store, "bob", "s:bob"),
        await _style(store, None, "s:old", Scope.PROJECT),  # the project's, from before
        await _style(store, "alice", "s:alice-here", Scope.PROJECT),
    ]
    for user, scope in (("alice", Scope.USER), ("bob", Scope.USER), (None, Scope.PROJECT)):
        made.append(
            await store.remember(
                store.project_id,
                type=MemoryType.PROJECT_FACT,
                key=f"f:{user}:{scope}",
                content=f"Fact of {user}.",
                tags=[],
                importance=0.5,
                scope=scope,
                user_id=user,
            )
        )
    for viewer in ("alice", "bob", "carol", None):
        with serving_team_user(viewer):
            expected = {m.id for m in made if visible(m)}
        found = {
            m.id
            for kind in (MemoryType.USER_STYLE, MemoryType.PROJECT_FACT)
            for m in await store.visible_memories(store.project_id, kind, viewer, limit=50)
        }
        assert found == expected, viewer
    assert len({m.id for m in made}) == 7
