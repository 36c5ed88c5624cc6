"""The spec's views over a real store and user.db: content, merging, caching and staleness."""

from __future__ import annotations

import json
import stat
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.host_files import WRITTEN_TAG
from squirrel_core.tokens import estimate_tokens
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views import STALE_RULES, ViewName, Views

USER = "alice"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class Clock:
    """A clock tests move by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class World:
    root: Path
    home: Path
    clock: Clock
    store: SqliteStore
    users: SqliteUserStore
    views: Views


async def add_memory(
    store: SqliteStore,
    kind: MemoryType,
    key: str,
    content: str,
    *,
    importance: float = 0.5,
    tags: Sequence[str] = (),
    paths: Sequence[str] = (),
    scope: Scope = Scope.PROJECT,
) -> MemoryItem:
    candidate = MemoryCandidate(
        kind, key, content, tuple(tags), importance, tuple(paths), scope=scope
    )
    item = await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER)
    assert item is not None
    return item


async def append_events(store: SqliteStore, count: int, clock: Clock) -> None:
    start = await store.count_events(store.project_id)
    events = [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            clock.now - timedelta(minutes=1),
            {"text": f"message {start + n}"},
            session_id="s1",
        )
        for n in range(count)
    ]
    result = await store.append_events(store.project_id, USER, events, [])
    assert result.accepted == count


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    root = tmp_path / "repo"
    root.mkdir()
    home = tmp_path / "home"
    clock = Clock()
    store = await SqliteStore.open(str(root), clock=clock)
    users = await SqliteUserStore.open(home, clock=clock)
    views = Views(store, user_store=users, clock=clock)
    world = World(root, home, clock, store, users, views)
    yield world
    world.views.close()
    await world.users.close()
    await world.store.close()


async def fill_style(world: World, count: int) -> list[MemoryItem]:
    items = []
    for n in range(count):
        items.append(
            await add_memory(
                world.store,
                MemoryType.USER_STYLE,
                f"style_{n:02d}",
                f"Style rule number {n}.",
                importance=round(0.3 + 0.03 * n, 2),
                scope=Scope.USER,
            )
        )
    return items


# -- user style ----------------------------------------------------------------------------


async def test_core_user_style_holds_the_top_five_by_importance(world: World) -> None:
    await fill_style(world, 8)

    view = await world.views.user_style(str(world.root), user_id=USER)

    assert [i.key for i in view.items] == [
        "style_07",
        "style_06",
        "style_05",
        "style_04",
        "style_03",
    ]
    assert view.mode == "core"
    assert view.type == "user_style_view"
    assert view.markdown.startswith("## User Coding Style\n\n- Style rule number 7.")
    assert view.token_estimate == estimate_tokens(view.markdown) <= 256
    assert view.budget.items_total == 8
    assert view.budget.capped


async def test_core_user_style_leaves_out_one_off_instructions_full_keeps_them(
    world: World,
) -> None:
    await add_memory(
        world.store,
        MemoryType.USER_STYLE,
        "pref:types",
        "Always use type hints on public functions.",
        importance=0.7,
        tags=("instruction", "standing"),
        scope=Scope.USER,
    )
    await add_memory(
        world.store,
        MemoryType.USER_STYLE,
        "pref:notes",
        "Don't add notes.",
        importance=0.25,
        tags=("instruction", "tentative"),
        scope=Scope.USER,
    )

    core = await world.views.user_style(str(world.root), user_id=USER)
    full = await world.views.user_style(str(world.root), user_id=USER, mode="full")

    assert [i.key for i in core.items] == ["pref:types"]
    assert [i.key for i in full.items] == ["pref:types", "pref:notes"]


async def test_full_user_style_is_richer_than_core(world: World) -> None:
    await fill_style(world, 8)

    core = await world.views.user_style(str(world.root), user_id=USER, mode="core")
    full = await world.views.user_style(
        str(world.root), user_id=USER, mode="full", context_budget_tokens=2000
    )

    assert len(full.items) == 8 > len(core.items)


async def test_project_style_refines_the_global_one_on_the_same_key(world: World) -> None:
    glob = await world.users.merge_user_style(
        USER,
        key="testing_framework",
        content="Uses pytest.",
        tags=["testing"],
        importance=0.6,
        source=MemorySource.MANUAL,
    )
    only_global = await world.users.merge_user_style(
        USER,
        key="quotes",
        content="Prefers double quotes.",
        tags=["style"],
        importance=0.5,
        source=MemorySource.MANUAL,
    )
    local = await add_memory(
        world.store,
        MemoryType.USER_STYLE,
        "testing_framework",
        "Uses pytest with fixtures in conftest.py here.",
        importance=0.8,
        tags=["pytest"],
    )

    view = await world.views.user_style(str(world.root), user_id=USER)

    by_key = {i.key: i for i in view.items}
    assert by_key["testing_framework"].summary == "Uses pytest with fixtures in conftest.py here."
    assert by_key["testing_framework"].source_memory_ids == (local.id, glob.id)
    assert set(by_key["testing_framework"].tags) == {"pytest", "testing"}
    assert by_key["quotes"].source_memory_ids == (only_global.id,)
    assert [i.key for i in view.items] == ["testing_framework", "quotes"]


async def test_empty_user_style_says_so(world: World) -> None:
    view = await world.views.user_style(str(world.root), user_id=USER)

    assert view.items == ()
    assert "No coding-style preferences are recorded yet." in view.markdown


# -- caching and staleness -----------------------------------------------------------------


async def test_fresh_view_is_served_from_the_private_cache_file(world: World) -> None:
    await fill_style(world, 3)
    first = await world.views.user_style(str(world.root), user_id=USER)
    world.clock.advance(60)

    second = await world.views.user_style(str(world.root), user_id=USER)

    assert second == first
    cache = world.root / ".ctx" / "views" / "user_style.json"
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    meta = await world.store.get_view_meta("user_style")
    assert meta is not None
    assert meta.ttl_seconds == STALE_RULES[ViewName.USER_STYLE].ttl_seconds
    assert meta.last_generated == first.generated_at


@pytest.mark.parametrize(
    ("name", "ttl"), [("user_style", 3600), ("project_brief", 600), ("pitfalls", 600)]
)
async def test_view_is_rebuilt_after_its_ttl(world: World, name: str, ttl: int) -> None:
    async def build() -> datetime:
        if name == "user_style":
            return (await world.views.user_style(str(world.root))).generated_at
        if name == "project_brief":
            return (await world.views.project_brief(str(world.root))).generated_at
        return (await world.views.pitfalls(str(world.root))).generated_at

    first = await build()
    world.clock.advance(ttl - 1)
    assert await build() == first
    world.clock.advance(1)
    assert await build() > first


@pytest.mark.parametrize(
    ("name", "delta"), [("user_style", 200), ("project_brief", 100), ("pitfalls", 50)]
)
async def test_view_is_rebuilt_after_enough_new_events(world: World, name: str, delta: int) -> None:
    async def build() -> datetime:
        if name == "user_style":
            return (await world.views.user_style(str(world.root))).generated_at
        if name == "project_brief":
            return (await world.views.project_brief(str(world.root))).generated_at
        return (await world.views.pitfalls(str(world.root))).generated_at

    first = await build()
    world.clock.advance(1)
    await append_events(world.store, delta - 1, world.clock)
    assert await build() == first
    await append_events(world.store, 1, world.clock)
    assert await build() > first


async def test_cached_view_too_big_for_a_smaller_budget_is_rebuilt_within_it(
    world: World,
) -> None:
    await fill_style(world, 5)
    big = await world.views.user_style(str(world.root), user_id=USER, context_budget_tokens=2000)
    world.clock.advance(1)

    small = await world.views.user_style(str(world.root), user_id=USER, context_budget_tokens=48)

    assert small.token_estimate <= 48 < big.token_estimate
    assert len(small.items) < len(big.items)
    assert small.items == big.items[: len(small.items)]


async def test_a_capped_view_is_not_reused_for_a_bigger_budget(world: World) -> None:
    await fill_style(world, 5)
    small = await world.views.user_style(str(world.root), user_id=USER, context_budget_tokens=48)
    world.clock.advance(1)

    big = await world.views.user_style(str(world.root), user_id=USER, context_budget_tokens=2000)

    assert len(big.items) == 5 > len(small.items)


async def test_new_memory_shows_in_the_view_at_once(world: World) -> None:
    await fill_style(world, 2)
    await world.views.user_style(str(world.root), user_id=USER)

    added = await add_memory(
        world.store, MemoryType.USER_STYLE, "async", "Prefers async/await.", importance=0.95
    )
    view = await world.views.user_style(str(world.root), user_id=USER)

    assert view.items[0].source_memory_ids == (added.id,)


async def test_deleted_memory_leaves_every_view_at_once(world: World) -> None:
    style = await add_memory(world.store, MemoryType.USER_STYLE, "tabs", "Indents with tabs.")
    fact = await add_memory(world.store, MemoryType.PROJECT_FACT, "framework", "Built with Flask.")
    trap = await add_memory(
        world.store, MemoryType.PITFALL, "port", "Port 8000 is taken.", paths=["app.py"]
    )
    root = str(world.root)
    assert (await world.views.user_style(root)).items
    assert (await world.views.project_brief(root)).key_facts
    assert (await world.views.pitfalls(root, scope_paths=["app.py"])).items

    for item in (style, fact, trap):
        await world.store.forget(item.id, "wrong")

    assert (await world.views.user_style(root)).items == ()
    assert (await world.views.project_brief(root)).key_facts == ()
    pitfalls = await world.views.pitfalls(root, scope_paths=["app.py"])
    assert pitfalls.items == ()
    assert not pitfalls.has_relevant_pitfalls


async def test_superseded_memory_is_replaced_in_the_view(world: World) -> None:
    old = await add_memory(world.store, MemoryType.PROJECT_FACT, "framework", "Built with Flask.")
    await world.views.project_brief(str(world.root))
    candidate = MemoryCandidate(
        MemoryType.PROJECT_FACT, "framework", "Built with FastAPI.", (), 0.7
    )
    await world.store.apply_decision(
        UpdateDecision(UpdateAction.DELETE_AND_ADD, candidate, target_id=old.id), user_id=USER
    )

    view = await world.views.project_brief(str(world.root))

    assert view.key_facts == ("Framework: Built with FastAPI.",)


async def test_change_made_while_nobody_listened_is_still_never_served_stale(
    world: World,
) -> None:
    item = await add_memory(world.store, MemoryType.USER_STYLE, "tabs", "Indents with tabs.")
    await world.views.user_style(str(world.root))
    world.views.close()  # e.g. the change comes from another writer

    await world.store.forget(item.id, "wrong")
    view = await world.views.user_style(str(world.root))

    assert view.items == ()


async def test_views_answer_the_same_after_a_restart(world: World) -> None:
    await fill_style(world, 4)
    await add_memory(world.store, MemoryType.PROJECT_FACT, "framework", "Built with FastAPI.")
    style = await world.views.user_style(str(world.root), user_id=USER)
    brief = await world.views.project_brief(str(world.root))
    world.views.close()
    await world.users.close()
    await world.store.close()
    world.clock.advance(30)

    world.store = await SqliteStore.open(str(world.root), clock=world.clock)
    world.users = await SqliteUserStore.open(world.home, clock=world.clock)
    world.views = Views(world.store, user_store=world.users, clock=world.clock)

    assert await world.views.user_style(str(world.root), user_id=USER) == style
    assert await world.views.project_brief(str(world.root)) == brief


async def test_damaged_cache_file_is_rebuilt(world: World) -> None:
    await fill_style(world, 2)
    first = await world.views.user_style(str(world.root), user_id=USER)
    cache = world.root / ".ctx" / "views" / "user_style.json"
    data = json.loads(cache.read_text())
    del data["view"]["items"]
    cache.write_text(json.dumps(data))
    world.clock.advance(5)

    again = await world.views.user_style(str(world.root), user_id=USER)
    cache.write_text("{not json")
    world.clock.advance(5)
    third = await world.views.user_style(str(world.root), user_id=USER)

    assert again.items == first.items
    assert again.generated_at > first.generated_at
    assert third.items == first.items


async def test_markdown_is_deterministic(world: World) -> None:
    await fill_style(world, 4)
    await add_memory(world.store, MemoryType.PROJECT_FACT, "framework", "Built with FastAPI.")
    first = await world.views.project_brief(str(world.root), mode="full")
    await world.views.invalidate()

    second = await world.views.project_brief(str(world.root), mode="full")

    assert second.markdown == first.markdown
    assert second.key_facts == first.key_facts


# -- project brief -------------------------------------------------------------------------


async def test_brief_lists_key_facts_and_modules(world: World) -> None:
    await add_memory(
        world.store, MemoryType.PROJECT_FACT, "framework", "Built with FastAPI.", importance=0.9
    )
    await add_memory(
        world.store, MemoryType.PROJECT_FACT, "database", "Data layer: PostgreSQL.", importance=0.8
    )
    await add_memory(
        world.store,
        MemoryType.PROJECT_FACT,
        "module:auth",
        "Module `auth`: Sign-in, JWT issuing and refresh.",
        importance=0.6,
        paths=["src/auth/jwt.py", "src/auth/login.py"],
    )
    await add_memory(
        world.store,
        MemoryType.PROJECT_FACT,
        "module:cart",
        "Module `cart`: src/cart/a.py, src/cart/b.py and 2 more.",  # an older file list
        importance=0.6,
        paths=["src/cart/a.py", "src/cart/b.py"],
    )
    await add_memory(
        world.store,
        MemoryType.PROJECT_FACT,
        "entry_point",
        "The app starts with `uvicorn billing.main:app`.",
        importance=0.5,
        paths=["src/billing/main.py"],
    )

    view = await world.views.project_brief(str(world.root))

    assert view.key_facts == (
        "Framework: Built with FastAPI.",
        "Database: Data layer: PostgreSQL.",
        "Entry point: The app starts with `uvicorn billing.main:app`.",
    )
    # Modules say what they do; a list of files (cart) or files other facts name (billing,
    # from the entry point) says nothing and is left out.
    assert [m.name for m in view.modules] == ["auth"]
    assert view.modules[0].paths == ("src/auth/jwt.py", "src/auth/login.py")
    assert view.markdown.startswith("## Project Overview\n\n- Framework: Built with FastAPI.")
    assert "- Module **auth** (`src/auth/jwt.py`, `src/auth/login.py`)" in view.markdown


async def test_empty_brief_says_so(world: World) -> None:
    view = await world.views.project_brief(str(world.root))

    assert view.key_facts == ()
    assert view.modules == ()
    assert "No project facts are recorded yet." in view.markdown


# -- pitfalls ------------------------------------------------------------------------------


async def test_pitfalls_are_filtered_by_scope_paths_and_tags(world: World) -> None:
    jwt = await add_memory(
        world.store,
        MemoryType.PITFALL,
        "jwt_expiry",
        "JWT tokens expire after an hour.",
        tags=["auth", "jwt"],
        paths=["src/auth.py"],
        importance=0.8,
    )
    tagged = await add_memory(
        world.store,
        MemoryType.PITFALL,
        "billing_rounding",
        "Round money with Decimal, never float.",
        tags=["billing"],
        importance=0.7,
    )
    await add_memory(
        world.store,
        MemoryType.PITFALL,
        "ci_cache",
        "CI cache key must include uv.lock.",
        paths=[".github/workflows/ci.yml"],
    )

    auth = await world.views.pitfalls(str(world.root), scope_paths=["src/auth.py"])
    billing = await world.views.pitfalls(str(world.root), scope_paths=["src/billing/"])
    nothing = await world.views.pitfalls(str(world.root), scope_paths=["docs/index.md"])

    assert [i.memory_id for i in auth.items] == [jwt.id]
    assert auth.has_relevant_pitfalls
    assert auth.items[0].file_paths == ("src/auth.py",)
    assert [i.memory_id for i in billing.items] == [tagged.id]
    assert not nothing.has_relevant_pitfalls
    assert nothing.items == ()
    assert "No relevant pitfalls found." in nothing.markdown


async def test_pitfalls_without_scope_list_all_by_importance(world: World) -> None:
    low = await add_memory(world.store, MemoryType.PITFALL, "a", "Minor trap.", importance=0.3)
    high = await add_memory(world.store, MemoryType.PITFALL, "b", "Major trap.", importance=0.9)

    view = await world.views.pitfalls(str(world.root))

    assert [i.memory_id for i in view.items] == [high.id, low.id]
    assert view.has_relevant_pitfalls


async def test_pitfalls_relevant_to_the_task_are_chosen(world: World) -> None:
    refresh = await add_memory(
        world.store,
        MemoryType.PITFALL,
        "token_refresh",
        "Token refresh races when two tabs refresh at once.",
        tags=["auth"],
    )
    await add_memory(
        world.store, MemoryType.PITFALL, "ci_cache", "CI cache key must include uv.lock."
    )
    embedder = FakeEmbedder(dim=64)
    index = FaissIndex(64, embedder.model_id)
    items, _ = await world.store.list_memories(str(world.root))
    index.upsert(
        zip(
            [i.id for i in items],
            embedder.embed_now([embedding_text(i) for i in items]),
            strict=True,
        )
    )
    retriever = Retriever(
        world.store, embedder=embedder, index=index, settings=RetrievalSettings(vector_floor=0.1)
    )
    views = Views(world.store, retriever=retriever, clock=world.clock)
    try:
        view = await views.pitfalls(str(world.root), task_description="Fix token refresh in auth")
    finally:
        views.close()

    assert [i.memory_id for i in view.items] == [refresh.id]


# -- arguments -----------------------------------------------------------------------------


async def test_bad_arguments_are_invalid(world: World) -> None:
    root = str(world.root)
    with pytest.raises(InvalidArgumentError):
        await world.views.user_style(root, mode="huge")
    with pytest.raises(InvalidArgumentError):
        await world.views.project_brief(root, context_budget_tokens=0)
    with pytest.raises(InvalidArgumentError):
        await world.views.pitfalls(root, scope_paths="src/auth.py")
    with pytest.raises(InvalidArgumentError):
        await world.views.pitfalls(root, scope_paths=["a\x00b"])
    with pytest.raises(InvalidArgumentError):
        await world.views.user_style("/somewhere/else")


async def test_hostile_scope_and_task_do_not_crash(world: World) -> None:
    await add_memory(world.store, MemoryType.PITFALL, "x", "A trap.", paths=["src/x.py"])
    retriever = Retriever(world.store)
    views = Views(world.store, retriever=retriever, clock=world.clock)
    try:
        for task in ("", "!!!", "NEAR(a, b)", "x" * 10_000, "\ud800"):
            view = await views.pitfalls(
                str(world.root), scope_paths=["*", "../..", "src/[x"], task_description=task
            )
            assert view.token_estimate <= 256
    finally:
        views.close()


# -- order ---------------------------------------------------------------------------------


async def test_brief_leads_with_the_stack_before_more_important_facts(world: World) -> None:
    await add_memory(
        world.store, MemoryType.PROJECT_FACT, "naming", "Files use snake_case.", importance=0.9
    )
    await add_memory(
        world.store, MemoryType.PROJECT_FACT, "ci", "CI runs on GitHub Actions.", importance=0.8
    )
    await add_memory(
        world.store,
        MemoryType.PROJECT_FACT,
        "language",
        "Elixir project (mix.exs).",
        importance=0.5,
    )
    await add_memory(
        world.store, MemoryType.PROJECT_FACT, "framework", "Built with Phoenix.", importance=0.6
    )

    view = await world.views.project_brief(str(world.root))

    assert view.key_facts == (
        "Language: Elixir project (mix.exs).",
        "Framework: Built with Phoenix.",
        "Ci: CI runs on GitHub Actions.",
        "Naming: Files use snake_case.",
    )


async def test_pitfalls_and_style_of_equal_importance_show_the_best_backed_first(
    world: World,
) -> None:
    async def backed(kind: MemoryType, key: str, refs: int) -> MemoryItem:
        candidate = MemoryCandidate(
            kind,
            key,
            f"Remember {key}.",
            (),
            0.6,
            source_refs=tuple(f"lib/app.ex:{n}" for n in range(1, refs + 1)),
        )
        added = await world.store.apply_decision(
            UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER
        )
        assert added is not None
        return added

    once = await backed(MemoryType.PITFALL, "seen_once", 1)
    often = await backed(MemoryType.PITFALL, "seen_often", 9)
    await backed(MemoryType.USER_STYLE, "style_once", 1)
    await backed(MemoryType.USER_STYLE, "style_often", 9)

    pitfalls = await world.views.pitfalls(str(world.root))
    style = await world.views.user_style(str(world.root), user_id=USER)

    assert [i.memory_id for i in pitfalls.items] == [often.id, once.id]
    assert [i.key for i in style.items] == ["style_often", "style_once"]


async def _sourced(world: World, key: str, content: str, *refs: str) -> MemoryItem:
    candidate = MemoryCandidate(
        MemoryType.PROJECT_FACT, key, content, ("instruction",), 0.7, source_refs=refs
    )
    added = await world.store.apply_decision(
        UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER
    )
    assert added is not None
    return added


async def test_the_brief_leaves_out_what_the_asking_host_loads_itself(world: World) -> None:
    await _sourced(
        world,
        "repo:rule:always_run_the_checks",
        "Project instruction (CLAUDE.md): Always run the checks before committing.",
        "CLAUDE.md:4",
    )
    await _sourced(
        world,
        "repo:rule:prefer_small_commits",
        "Project instruction (AGENTS.md): Prefer small commits.",
        "AGENTS.md:2",
    )
    await _sourced(
        world, "repo:stack", "Birds is an Elixir/Phoenix app.", "mix.exs:8", "CLAUDE.md:1"
    )

    claude = await world.views.project_brief(str(world.root), omit_sources_in=["CLAUDE.md"])
    codex = await world.views.project_brief(str(world.root), omit_sources_in=["AGENTS.md"])
    anyone = await world.views.project_brief(str(world.root))

    claude_text = " ".join(claude.key_facts)
    assert "Always run the checks" not in claude_text
    assert "Prefer small commits" in claude_text
    assert "Elixir/Phoenix" in claude_text  # read from the manifest too: kept
    codex_text = " ".join(codex.key_facts)
    assert "Always run the checks" in codex_text and "Prefer small commits" not in codex_text
    assert "Always run the checks" in " ".join(anyone.key_facts)


async def test_the_style_view_leaves_out_rules_only_from_a_file_the_host_loads(
    world: World,
) -> None:
    # A rule read only from AGENTS.md in a session (tagged `written`): with nothing else on
    # record the core view would fall back to it, but not for a host that loads AGENTS.md
    # itself (Codex, or Claude Code through CLAUDE.md's `@AGENTS.md`).
    candidate = MemoryCandidate(
        MemoryType.USER_STYLE,
        "repo:rule:no_branches",
        "Do not create branches; commit directly to `main` (AGENTS.md).",
        ("instruction", WRITTEN_TAG),
        0.7,
        source_refs=("AGENTS.md:12",),
        source_event_ids=("e1",),
    )
    added = await world.store.apply_decision(
        UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER
    )
    assert added is not None

    loads_it = await world.views.user_style(
        str(world.root), user_id=USER, omit_sources_in=["CLAUDE.md", "AGENTS.md"]
    )
    does_not = await world.views.user_style(
        str(world.root), user_id=USER, omit_sources_in=["GEMINI.md"]
    )
    full = await world.views.user_style(
        str(world.root), user_id=USER, mode="full", omit_sources_in=["AGENTS.md"]
    )

    assert [i.key for i in loads_it.items] == []
    assert [i.key for i in does_not.items] == ["repo:rule:no_branches"]
    assert [i.key for i in full.items] == []


def test_a_memory_the_sessions_added_to_is_not_only_the_host_file() -> None:
    from squirrel_memory.loaded_sources import only_from  # noqa: PLC0415
    from squirrel_memory.models import MemorySource, Scope  # noqa: PLC0415

    now = datetime(2026, 1, 1, tzinfo=UTC)
    item = MemoryItem(
        "m1", "/p", None, Scope.PROJECT, MemoryType.RECIPE, "repo:recipe:test",
        "Run the tests with `mix test` (CLAUDE.md:8).", (), 0.7, now, now,
        MemorySource.RULES, source_refs=("CLAUDE.md:8",),
    )  # fmt: skip

    assert only_from(item, ["CLAUDE.md"])
    assert not only_from(item, ["AGENTS.md"])
    assert not only_from(item, [])
    assert not only_from(replace(item, source_event_ids=("ev1",)), ["CLAUDE.md"])
    assert not only_from(replace(item, source_refs=()), ["CLAUDE.md"])


async def test_core_user_style_ranks_a_rule_said_in_several_sessions_first(world: World) -> None:
    await add_memory(
        world.store,
        MemoryType.USER_STYLE,
        "pref:types",
        "Always use type hints on public functions.",
        importance=0.7,
        tags=("preference", "standing"),
        scope=Scope.USER,
    )
    await add_memory(
        world.store,
        MemoryType.USER_STYLE,
        "pref:keep_going",
        "Keep going until every task of the batch is done.",
        importance=0.8,
        tags=("preference", "recurring"),
        scope=Scope.USER,
    )

    core = await world.views.user_style(str(world.root), user_id=USER)

    assert [i.key for i in core.items] == ["pref:keep_going", "pref:types"]


async def test_core_user_style_adds_a_stressed_instruction_said_once_as_such(
    world: World,
) -> None:
    await add_memory(
        world.store,
        MemoryType.USER_STYLE,
        "pref:commit_until_final",
        "Don't commit changes until the final step.",
        importance=0.35,
        tags=("preference", "tentative", "emphasis"),
        scope=Scope.USER,
    )
    await add_memory(
        world.store,
        MemoryType.USER_STYLE,
        "pref:notes",
        "Don't add notes.",
        importance=0.25,
        tags=("preference", "tentative"),
        scope=Scope.USER,
    )

    core = await world.views.user_style(str(world.root), user_id=USER)

    assert [i.summary for i in core.items] == [
        "Noted once so far: Don't commit changes until the final step."
    ]
