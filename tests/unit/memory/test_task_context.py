"""Task context (spec §5.5): selection with reasons, budgets and abstention, on a real store."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.tokens import estimate_tokens
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import (
    ABSTAIN_MARKDOWN,
    HEADER,
    STYLE_REASON,
    SelectedMemory,
    TaskContext,
    TaskContextBuilder,
    TaskContextSettings,
)

USER = "alice"
SETTINGS = RetrievalSettings(vector_floor=0.1)
MEMORIES: list[tuple[MemoryType, str, str, tuple[str, ...], float, tuple[str, ...]]] = [
    (
        MemoryType.USER_STYLE,
        "async_preference",
        "Prefers async/await for I/O-bound handlers.",
        ("python", "async"),
        0.9,
        (),
    ),
    (
        MemoryType.USER_STYLE,
        "testing_framework",
        "Uses pytest with fixtures for test setup.",
        ("testing",),
        0.8,
        (),
    ),
    (
        MemoryType.USER_STYLE,
        "naming",
        "Names booleans with an is_ or has_ prefix.",
        ("naming",),
        0.4,
        (),
    ),
    (
        MemoryType.PROJECT_FACT,
        "framework",
        "Project uses FastAPI with async SQLAlchemy.",
        ("framework", "fastapi"),
        0.9,
        (),
    ),
    (
        MemoryType.PROJECT_FACT,
        "endpoint:inventory",
        "Inventory endpoints live in the inventory router.",
        ("inventory", "endpoint"),
        0.7,
        ("src/routes/inventory.py",),
    ),
    (
        MemoryType.PITFALL,
        "soft_delete",
        "Inventory items are soft-deleted; set deleted_at, never DELETE rows.",
        ("inventory", "database"),
        0.8,
        ("src/models/inventory.py",),
    ),
    (
        MemoryType.PITFALL,
        "ci_cache",
        "The CI cache key must include uv.lock or stale wheels are used.",
        ("ci",),
        0.6,
        (".github/workflows/ci.yml",),
    ),
    (
        MemoryType.RECIPE,
        "migration",
        "Create a migration with `alembic revision --autogenerate`.",
        ("database", "alembic"),
        0.6,
        ("migrations/env.py",),
    ),
]


@dataclass
class World:
    root: Path
    store: SqliteStore
    builder: TaskContextBuilder
    items: dict[str, MemoryItem]


async def add_memory(
    store: SqliteStore,
    kind: MemoryType,
    key: str,
    content: str,
    tags: Sequence[str],
    importance: float,
    paths: Sequence[str],
) -> MemoryItem:
    candidate = MemoryCandidate(kind, key, content, tuple(tags), importance, tuple(paths))
    item = await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER)
    assert item is not None
    return item


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    store = await SqliteStore.open(str(tmp_path))
    embedder = FakeEmbedder(dim=128)
    index = FaissIndex(embedder.dim, embedder.model_id)
    items = {m[1]: await add_memory(store, *m) for m in MEMORIES}
    vectors = embedder.embed_now([embedding_text(i) for i in items.values()])
    index.upsert(zip([i.id for i in items.values()], vectors, strict=True))
    retriever = Retriever(store, embedder=embedder, index=index, settings=SETTINGS)
    yield World(tmp_path, store, TaskContextBuilder(retriever), items)
    await store.close()


async def test_relevant_memories_are_selected_with_reasons(world: World) -> None:
    context = await world.builder.build(
        str(world.root),
        "Add a delete endpoint for inventory items",
        user_id=USER,
        active_file_paths=["src/routes/inventory.py"],
    )

    ids = [m.memory_id for m in context.selected_memories]
    assert context.has_relevant_memory
    assert world.items["endpoint:inventory"].id in ids
    assert world.items["soft_delete"].id in ids
    assert world.items["ci_cache"].id not in ids
    endpoint = next(m for m in context.selected_memories if m.key == "endpoint:inventory")
    assert endpoint.reason == (
        "Matches 'endpoint', 'inventory'; touches src/routes/inventory.py; a project fact."
    )
    assert context.markdown.startswith(HEADER + "\n\n- [")
    assert context.token_estimate == estimate_tokens(context.markdown)
    assert context.user_id == USER


async def test_standing_style_preferences_join_a_relevant_selection(world: World) -> None:
    context = await world.builder.build(
        str(world.root), "Add a delete endpoint for inventory items"
    )

    style = [m for m in context.selected_memories if m.reason == STYLE_REASON]
    assert [m.key for m in style] == ["async_preference", "testing_framework"]
    assert context.selected_memories[-1].reason == STYLE_REASON


async def test_off_topic_task_abstains(world: World) -> None:
    context = await world.builder.build(str(world.root), "Translate the marketing site into French")

    assert not context.has_relevant_memory
    assert context.selected_memories == ()
    assert context.markdown == ABSTAIN_MARKDOWN


async def test_empty_project_abstains(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        builder = TaskContextBuilder(Retriever(store))
        context = await builder.build(str(tmp_path), "Refactor the auth flow")
    finally:
        await store.close()

    assert not context.has_relevant_memory
    assert context.markdown == ABSTAIN_MARKDOWN


async def test_a_file_being_edited_selects_its_pitfall_even_without_shared_words(
    world: World,
) -> None:
    context = await world.builder.build(
        str(world.root), "Tidy up naming", active_file_paths=["src/models/inventory.py"]
    )

    pitfall = next(m for m in context.selected_memories if m.key == "soft_delete")
    assert "ouches src/models/inventory.py" in pitfall.reason


async def test_preferred_types_limit_the_selection(world: World) -> None:
    context = await world.builder.build(
        str(world.root),
        "Add a delete endpoint for inventory items",
        preferred_memory_types=[MemoryType.PITFALL],
    )

    assert {m.type for m in context.selected_memories} == {MemoryType.PITFALL}


async def test_budget_keeps_whole_memories_in_score_order(world: World) -> None:
    full = await world.builder.build(str(world.root), "Add a delete endpoint for inventory items")
    small = await world.builder.build(
        str(world.root), "Add a delete endpoint for inventory items", context_budget_tokens=110
    )

    assert small.token_estimate <= 110
    assert 0 < len(small.selected_memories) < len(full.selected_memories)
    assert small.selected_memories == full.selected_memories[: len(small.selected_memories)]
    assert small.capped
    for memory in small.selected_memories:
        assert memory.content in small.markdown


async def test_deleted_memory_is_never_selected(world: World) -> None:
    await world.store.forget(world.items["soft_delete"].id, "no longer true")

    context = await world.builder.build(
        str(world.root),
        "Add a delete endpoint for inventory items",
        active_file_paths=["src/models/inventory.py"],
    )

    assert world.items["soft_delete"].id not in {m.memory_id for m in context.selected_memories}


async def test_memory_not_yet_in_the_vector_index_can_still_be_selected(world: World) -> None:
    fresh = await add_memory(
        world.store,
        MemoryType.PITFALL,
        "stripe_webhooks",
        "Stripe webhook signatures must be verified against the raw request body.",
        ("stripe", "webhooks"),
        0.7,
        (),
    )

    context = await world.builder.build(str(world.root), "raw body of the incoming request")

    assert [m.memory_id for m in context.selected_memories][:1] == [fresh.id]


async def test_lexical_only_while_the_model_loads_still_selects_and_abstains(
    tmp_path: Path,
) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        for m in MEMORIES:
            await add_memory(store, *m)
        loading = FakeEmbedder(dim=64, loaded=False)
        builder = TaskContextBuilder(
            Retriever(store, embedder=loading, index=FaissIndex(64, loading.model_id))
        )
        relevant = await builder.build(str(tmp_path), "alembic migration for inventory")
        off_topic = await builder.build(str(tmp_path), "Translate the marketing site into French")
    finally:
        await store.close()

    assert relevant.has_relevant_memory
    assert "migration" in {m.key for m in relevant.selected_memories}
    assert not off_topic.has_relevant_memory


async def test_threshold_decides_abstention(world: World) -> None:
    strict = TaskContextBuilder(
        Retriever(world.store, settings=SETTINGS),
        settings=TaskContextSettings(min_relevance=1.0, min_relevance_lexical=1.0),
    )

    # Names no memory's subject (no key word), so only the threshold could select.
    context = await strict.build(str(world.root), "Remove stock rows of discontinued items")

    assert not context.has_relevant_memory
    assert context.markdown == ABSTAIN_MARKDOWN
    named = await strict.build(str(world.root), "Add a delete endpoint for inventory items")
    assert "endpoint:inventory" in {m.key for m in named.selected_memories}


@pytest.mark.parametrize("task", ["", "   ", None, 42])
async def test_missing_task_is_invalid(world: World, task: object) -> None:
    with pytest.raises(InvalidArgumentError):
        await world.builder.build(str(world.root), task)  # type: ignore[arg-type]


@pytest.mark.parametrize("budget", [0, -5, 10, 10**9, True])
async def test_bad_budget_is_invalid(world: World, budget: int) -> None:
    with pytest.raises(InvalidArgumentError):
        await world.builder.build(str(world.root), "inventory", context_budget_tokens=budget)


@pytest.mark.parametrize(
    "task", ["?!?", "NEAR(a b)", "inventory " * 2000, "\x00\ud800", '"inventory" OR *']
)
async def test_hostile_task_descriptions_do_not_crash(world: World, task: str) -> None:
    context = await world.builder.build(str(world.root), task)

    assert context.token_estimate <= 400


async def test_memories_naming_an_active_file_are_found_exactly(tmp_path: Path) -> None:
    from squirrel_memory.models import MemoryCandidate, UpdateAction, UpdateDecision  # noqa: PLC0415
    from squirrel_memory.storage import SqliteStore  # noqa: PLC0415

    root = tmp_path / "p"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()))
    paths = {
        "a": ("src/a_b.py",),
        "b": ("src/aXb.py",),
        "c": ("src/100%.py",),
        "d": ("SRC/A_B.PY",),
    }
    decisions = [
        UpdateDecision(
            UpdateAction.ADD_NEW,
            MemoryCandidate(MemoryType.PITFALL, f"pitfall:{k}", f"pitfall {k}", (), 0.5, v),
        )
        for k, v in paths.items()
    ]
    await store.apply_processing_result([], decisions, [], user_id="u")
    found = await store.memories_with_paths(store.project_id, ["src/a_b.py", "src/100%.py"])
    assert sorted(m.key for m in found) == ["pitfall:a", "pitfall:c"]
    assert await store.memories_with_paths(store.project_id, []) == []
    await store.close()


async def test_a_memory_whose_key_the_task_names_survives_the_match_floor(world: World) -> None:
    # Its wording may match too little to count as a search hit at all (vectors far apart):
    # naming its subject still keeps it as a candidate.
    strict = TaskContextBuilder(
        Retriever(world.store, settings=RetrievalSettings(vector_floor=0.1, min_similarity=0.99))
    )
    named = await strict.build(str(world.root), "Add a delete endpoint for inventory items")
    assert "endpoint:inventory" in {m.key for m in named.selected_memories}
    unnamed = await strict.build(str(world.root), "Remove stock rows of discontinued items")
    assert not unnamed.has_relevant_memory


RULE_KEY = "repo:rule:add-opentelemetry-spans-to-every-new-handler"


async def _with_rule(world: World) -> MemoryItem:
    return await add_memory(
        world.store,
        MemoryType.PROJECT_FACT,
        RULE_KEY,
        "Project instruction (AGENTS.md): Add OpenTelemetry spans to every new handler.",
        ("instruction", "convention"),
        0.7,
        (),
    )


async def test_generic_words_alone_never_select_a_memory(world: World) -> None:
    rule = await _with_rule(world)

    context = await world.builder.build(
        str(world.root), "add a new column to the sessions table and a migration"
    )

    assert rule.id not in {m.memory_id for m in context.selected_memories}
    assert not any("'add'" in m.reason or "'new'" in m.reason for m in context.selected_memories)


async def test_generic_words_alone_never_select_a_memory_lexical_only(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        await add_memory(
            store,
            MemoryType.PROJECT_FACT,
            RULE_KEY,
            "Project instruction (AGENTS.md): Add OpenTelemetry spans to every new handler.",
            ("instruction",),
            0.7,
            (),
        )
        builder = TaskContextBuilder(Retriever(store))
        context = await builder.build(str(tmp_path), "Please add a new column and fix it")
    finally:
        await store.close()

    assert not context.has_relevant_memory


async def test_a_memory_sharing_a_meaningful_word_is_selected_and_the_reason_names_it(
    world: World,
) -> None:
    rule = await _with_rule(world)

    context = await world.builder.build(str(world.root), "add a new handler with OpenTelemetry")

    chosen = next(m for m in context.selected_memories if m.memory_id == rule.id)
    # the word only this memory holds first, then the one other memories share
    assert chosen.reason.startswith("Matches 'opentelemetry'")
    assert "'handler'" in chosen.reason
    assert "'add'" not in chosen.reason and "'new'" not in chosen.reason


async def test_task_context_never_selects_what_the_asking_host_loads_itself(
    world: World,
) -> None:
    candidate = MemoryCandidate(
        MemoryType.PROJECT_FACT,
        "repo:rule:inventory_soft_delete",
        "Project instruction (CLAUDE.md): Inventory rows are soft-deleted, never removed.",
        ("instruction",),
        0.7,
        source_refs=("CLAUDE.md:7",),
    )
    item = await world.store.apply_decision(
        UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER
    )
    assert item is not None
    task = "soft-delete inventory rows"

    claude = await world.builder.build(str(world.root), task, omit_sources_in=["CLAUDE.md"])
    gemini = await world.builder.build(str(world.root), task, omit_sources_in=["GEMINI.md"])

    assert item.id not in {m.memory_id for m in claude.selected_memories}
    assert claude.has_relevant_memory  # the other memories still answer
    assert item.id in {m.memory_id for m in gemini.selected_memories}


async def test_a_key_subject_meets_the_other_forms_of_its_word(world: World) -> None:
    recipe = await add_memory(
        world.store,
        MemoryType.RECIPE,
        "repo:recipe:migrate",
        "Run the database migrations with `mix ecto.migrate` (mix.exs:40).",
        ("migrate",),
        0.7,
        (),
    )
    await _with_rule(world)

    context = await world.builder.build(
        str(world.root), "add a new column to the sessions table and a migration"
    )

    keys = [m.key for m in context.selected_memories]
    assert recipe.key in keys
    assert RULE_KEY not in keys


def test_subject_stems() -> None:
    from squirrel_memory.task_context import subject_stem  # noqa: PLC0415

    assert subject_stem("migration") == subject_stem("migrate") == subject_stem("migrations")
    assert subject_stem("tests") == subject_stem("testing") == "test"
    assert subject_stem("generation") != subject_stem("general")
    assert subject_stem("repo") == "repo"


async def _alone_with(
    tmp_path: Path, task: str, kind: MemoryType, key: str, content: str, tag: str
) -> tuple[TaskContext, list[SelectedMemory]]:
    """The task context of `task` in a project holding one memory, and that memory if chosen."""
    store = await SqliteStore.open(str(tmp_path))
    try:
        memory = await add_memory(store, kind, key, content, (tag,), 0.6, ())
        context = await TaskContextBuilder(Retriever(store)).build(str(tmp_path), task)
    finally:
        await store.close()
    return context, [m for m in context.selected_memories if m.memory_id == memory.id]


@pytest.mark.parametrize(
    ("task", "picked", "named"),
    [
        # stop words and the verbs every request uses, nothing else in common: abstain
        ("make it work for the other one", False, ()),
        ("can you fix this and then add the rest?", False, ()),
        ("please update that, make it simpler and do the same for the next one", False, ()),
        ("Create a new thing and use it everywhere", False, ()),
        # nothing but stop words: they are searched (nothing else is left), never a reason
        ("what is it for, and where is this?", False, ()),
        ("is it before or after you set it?", False, ()),
        # a word that says what the task is about: picked, and the reason names it
        ("make the release build reproducible", True, ("'release'", "'reproducible'")),
    ],
)
async def test_stop_words_and_generic_verbs_alone_never_pick_a_memory(
    tmp_path: Path, task: str, picked: bool, named: tuple[str, ...]
) -> None:
    context, chosen = await _alone_with(
        tmp_path,
        task,
        MemoryType.RECIPE,
        "recipe:release",
        "To make the release build reproducible, set SOURCE_DATE_EPOCH before you run it.",
        "release",
    )
    assert bool(chosen) is picked and context.has_relevant_memory is picked
    for m in chosen:
        assert all(word in m.reason for word in named)
        assert not any(
            f"'{w}'" in m.reason for w in ("make", "the", "it", "for", "to", "before", "you")
        )


@pytest.mark.parametrize(
    ("task", "picked"),
    [
        # the words of reporting that something went wrong, nothing else in common: abstain
        ("please fix these errors", False),
        ("it is broken again and failing, what is the problem?", False),
        # what failed is a subject: picked
        ("the migration keeps failing with an error", True),
    ],
)
async def test_words_of_a_failure_report_alone_never_pick_a_pitfall(
    tmp_path: Path, task: str, picked: bool
) -> None:
    _, chosen = await _alone_with(
        tmp_path,
        task,
        MemoryType.PITFALL,
        "pitfall:migration-lock",
        "`alembic upgrade head` failed with errors: the migration lock was held; a failing"
        " run leaves it broken until `alembic stamp` clears the problem.",
        "migration",
    )
    assert bool(chosen) is picked
    for m in chosen:
        assert "'migration'" in m.reason and "'error'" not in m.reason


@pytest.mark.parametrize(
    ("task", "picked"),
    [
        ("now do phase 2 and then option 1", False),  # short numbers alone: abstain
        ("the 2 workers of the release build", True),  # what they count is a subject
    ],
)
async def test_short_numbers_alone_never_pick_a_memory(
    tmp_path: Path, task: str, picked: bool
) -> None:
    _, chosen = await _alone_with(
        tmp_path,
        task,
        MemoryType.RECIPE,
        "recipe:release",
        "To build the release: `make release JOBS=2`, 1 retry; it takes 2 workers.",
        "release",
    )
    assert bool(chosen) is picked
    for m in chosen:
        assert "'release'" in m.reason and "'2'" not in m.reason


@pytest.mark.parametrize(
    ("task", "picked"),
    [
        ("what is it for and where is it?", False),  # stop words alone: abstain
        ("what is the release for and where is it?", True),  # a subject: picked on it alone
    ],
)
async def test_a_memory_sharing_only_stop_words_is_neither_picked_nor_explained_by_them(
    tmp_path: Path, task: str, picked: bool
) -> None:
    """A task of stop words alone searches them (nothing else is left); a memory that holds
    them all is still not picked on them, and no reason names one."""
    context, chosen = await _alone_with(
        tmp_path,
        task,
        MemoryType.PROJECT_FACT,
        "release",
        "What it is for and where it is: the release build is made in `dist/` for the store.",
        "release",
    )
    assert bool(chosen) is picked and context.has_relevant_memory is picked
    for m in chosen:
        assert m.reason.startswith("Matches 'release';"), m.reason
