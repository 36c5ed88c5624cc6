"""Claude writes task-context packs, views and search reasons (real SDK, local fake Messages API)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anthropic
import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.settings import Settings
from squirrel_core.tokens import estimate_tokens
from squirrel_memory import server as memory_server
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.llm.anthropic_caller import AnthropicCaller
from squirrel_memory.llm.read_prompts import (
    SEARCH_REASONS_TOOL_NAME,
    TASK_CONTEXT_TOOL_NAME,
    VIEW_TOOL_NAME,
    WrittenBy,
)
from squirrel_memory.llm.read_writer import LlmWriter
from squirrel_memory.llm.spending import LlmBudget
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.retrieval import RetrievalSettings, Retriever, embedding_text
from squirrel_memory.servicer import MemoryServicer
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import ABSTAIN_MARKDOWN, HEADER, TaskContextBuilder
from squirrel_memory.views import Views
from tests.integration.conftest import memory_client, running, wait_for
from tests.integration.fake_anthropic import (
    CannedReply,
    FakeAnthropicServer,
    error_reply,
    text_reply,
    tool_use_reply,
)

TASK = "Add a delete endpoint for inventory items"
ACTIVE = ["src/routes/inventory.py"]
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
]


@dataclass
class World:
    root: Path
    store: SqliteStore
    items: dict[str, MemoryItem]
    embedder: FakeEmbedder
    index: FaissIndex
    retriever: Retriever
    budget: LlmBudget
    writer: LlmWriter

    def builder(self, *, llm: bool = True) -> TaskContextBuilder:
        retriever = self.retriever if llm else self.plain_retriever()
        return TaskContextBuilder(retriever, writer=self.writer if llm else None)

    def plain_retriever(self) -> Retriever:
        return Retriever(self.store, embedder=self.embedder, index=self.index, settings=SETTINGS)

    def views(self) -> Views:
        return Views(self.store, retriever=self.retriever, writer=self.writer)


async def _add(
    store: SqliteStore,
    kind: MemoryType,
    key: str,
    content: str,
    tags: Sequence[str],
    importance: float,
    paths: Sequence[str],
) -> MemoryItem:
    candidate = MemoryCandidate(kind, key, content, tuple(tags), importance, tuple(paths))
    item = await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id="u")
    assert item is not None
    return item


@pytest.fixture
def fake() -> Iterator[FakeAnthropicServer]:
    server = FakeAnthropicServer()
    server.start()
    yield server
    server.stop()


def _writer(base_url: str, budget: LlmBudget, timeout: float = 5.0) -> LlmWriter:
    client = anthropic.AsyncAnthropic(api_key="test-key", base_url=base_url, max_retries=0)
    return LlmWriter(
        AnthropicCaller(client, model="claude-test", budget=budget), timeout_seconds=timeout
    )


async def _world(root: Path, base_url: str, budget: LlmBudget) -> World:
    store = await SqliteStore.open(str(root))
    embedder = FakeEmbedder(dim=128)
    index = FaissIndex(embedder.dim, embedder.model_id)
    items = {m[1]: await _add(store, *m) for m in MEMORIES}
    vectors = embedder.embed_now([embedding_text(i) for i in items.values()])
    index.upsert(zip([i.id for i in items.values()], vectors, strict=True))
    writer = _writer(base_url, budget)
    retriever = Retriever(store, embedder=embedder, index=index, settings=SETTINGS, writer=writer)
    return World(root, store, items, embedder, index, retriever, budget, writer)


@pytest.fixture
async def world(tmp_path: Path, fake: FakeAnthropicServer) -> AsyncIterator[World]:
    budget = LlmBudget(calls_per_hour=100, tokens_per_day=10_000_000, clock=lambda: 1000.0)
    built = await _world(tmp_path, fake.base_url, budget)
    yield built
    await built.writer.close()
    await built.store.close()


def _pack(selected: list[dict[str, Any]], markdown: str) -> CannedReply:
    return tool_use_reply(
        TASK_CONTEXT_TOOL_NAME, {"selected_memories": selected, "markdown": markdown}
    )


async def _build(world: World, *, llm: bool = True, budget: int = 400) -> Any:
    return await world.builder(llm=llm).build(
        str(world.root), TASK, active_file_paths=ACTIVE, context_budget_tokens=budget
    )


# -- task context -------------------------------------------------------------------------------


async def test_pack_uses_the_models_selection_reasons_and_markdown(
    world: World, fake: FakeAnthropicServer
) -> None:
    endpoint, pitfall = world.items["endpoint:inventory"], world.items["soft_delete"]
    markdown = (
        f"{HEADER}\n\n- Put the route in the inventory router.\n- Soft-delete: set deleted_at."
    )
    fake.queue(
        _pack(
            [
                {"ref": pitfall.id, "reason": "A delete must not remove rows."},
                {"ref": endpoint.id, "reason": "The new route goes in this router."},
            ],
            markdown,
        )
    )

    context = await _build(world)

    assert context.written_by is WrittenBy.LLM
    by_id = {m.memory_id: m for m in context.selected_memories}
    assert set(by_id) == {endpoint.id, pitfall.id}
    assert by_id[pitfall.id].reason == "A delete must not remove rows."
    assert by_id[endpoint.id].reason == "The new route goes in this router."
    assert by_id[pitfall.id].content == pitfall.content
    assert context.markdown == markdown
    assert context.token_estimate == estimate_tokens(markdown)
    assert context.has_relevant_memory
    (request,) = fake.requests
    body = request["body"]
    assert body["tool_choice"] == {"type": "tool", "name": TASK_CONTEXT_TOOL_NAME}
    assert body["system"].startswith("You are building a memory pack for a coding assistant.")
    turn = body["messages"][0]["content"]
    assert f"Task: {TASK}" in turn
    assert "context_budget_tokens: 400" in turn
    assert pitfall.content in turn


async def test_ids_not_among_the_candidates_are_ignored(
    world: World, fake: FakeAnthropicServer
) -> None:
    endpoint = world.items["endpoint:inventory"]
    fake.queue(
        _pack(
            [
                {"ref": "mem_invented", "reason": "Made up."},
                {"ref": "m99", "reason": "No such ref."},
                {"ref": endpoint.id, "reason": "The route goes here."},
            ],
            f"{HEADER}\n\n- Route in the inventory router.",
        )
    )

    context = await _build(world)

    assert context.written_by is WrittenBy.LLM
    assert [m.memory_id for m in context.selected_memories] == [endpoint.id]


async def test_a_reply_naming_only_invented_ids_keeps_the_rules_pack(
    world: World, fake: FakeAnthropicServer
) -> None:
    fake.queue(_pack([{"ref": "mem_invented", "reason": "Made up."}], "## Pack"))

    context = await _build(world)
    rules = await _build(world, llm=False)

    assert context.written_by is WrittenBy.RULES
    assert context.selected_memories == rules.selected_memories


async def test_model_selecting_nothing_abstains_with_the_spec_text(
    world: World, fake: FakeAnthropicServer
) -> None:
    fake.queue(_pack([], "Nothing here."))

    context = await _build(world)

    assert context.written_by is WrittenBy.LLM
    assert not context.has_relevant_memory
    assert context.selected_memories == ()
    assert context.markdown == ABSTAIN_MARKDOWN


async def test_over_budget_markdown_falls_back_to_rendering_the_models_selection(
    world: World, fake: FakeAnthropicServer
) -> None:
    endpoint, pitfall = world.items["endpoint:inventory"], world.items["soft_delete"]
    fake.queue(
        _pack(
            [
                {"ref": endpoint.id, "reason": "Route goes here."},
                {"ref": pitfall.id, "reason": "Never delete rows."},
            ],
            "- padding " * 400,
        )
    )

    context = await _build(world, budget=120)

    assert context.written_by is WrittenBy.LLM
    assert context.token_estimate <= 120
    assert context.markdown.startswith(HEADER)
    assert "padding" not in context.markdown
    for memory in context.selected_memories:
        assert memory.content in context.markdown
        assert f"why: {memory.reason}" in context.markdown
    assert {m.reason for m in context.selected_memories} <= {
        "Route goes here.",
        "Never delete rows.",
    }


@pytest.mark.parametrize(
    "reply",
    [
        error_reply(500, "api_error"),
        error_reply(429, "rate_limit_error", {"retry-after": "30"}),
        error_reply(400, "invalid_request_error"),
        text_reply("I would rather not call tools."),
        tool_use_reply(TASK_CONTEXT_TOOL_NAME, {"selected_memories": "all of them"}),
        tool_use_reply("some_other_tool", {"selected_memories": []}),
    ],
    ids=["500", "429", "400", "no-tool-call", "malformed-input", "wrong-tool"],
)
async def test_any_failure_keeps_the_deterministic_pack(
    world: World, fake: FakeAnthropicServer, reply: CannedReply
) -> None:
    fake.queue(reply)

    context = await _build(world)
    rules = await _build(world, llm=False)

    assert len(fake.requests) == 1
    assert context.written_by is WrittenBy.RULES
    assert context.selected_memories == rules.selected_memories
    assert context.markdown == rules.markdown


async def test_a_silent_api_times_out_into_the_deterministic_pack(
    world: World, tmp_path: Path
) -> None:
    accepted = asyncio.Event()

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set()
        await reader.read(-1)
        writer.close()

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    writer = _writer(f"http://127.0.0.1:{port}", world.budget, timeout=0.3)
    try:
        builder = TaskContextBuilder(world.plain_retriever(), writer=writer)
        context = await builder.build(str(world.root), TASK, active_file_paths=ACTIVE)
    finally:
        await writer.close()
        server.close()
    rules = await _build(world, llm=False)

    assert accepted.is_set()
    assert context.written_by is WrittenBy.RULES
    assert context.selected_memories == rules.selected_memories


async def test_the_call_cap_stops_calls_before_they_reach_the_api(
    tmp_path: Path, fake: FakeAnthropicServer
) -> None:
    budget = LlmBudget(calls_per_hour=1, tokens_per_day=10_000_000, clock=lambda: 1000.0)
    world = await _world(tmp_path, fake.base_url, budget)
    endpoint = world.items["endpoint:inventory"]
    fake.queue(
        _pack([{"ref": endpoint.id, "reason": "Here."}], "## Pack\n\n- here"),
        _pack([{"ref": endpoint.id, "reason": "Here again."}], "## Pack\n\n- again"),
    )
    try:
        first = await _build(world)
        second = await _build(world)
    finally:
        await world.writer.close()
        await world.store.close()

    assert first.written_by is WrittenBy.LLM
    assert second.written_by is WrittenBy.RULES
    assert len(fake.requests) == 1
    assert budget.calls_in_last_hour() == 1


async def test_off_topic_task_abstains_without_calling_the_model(
    world: World, fake: FakeAnthropicServer
) -> None:
    context = await world.builder().build(str(world.root), "Translate the site into French")

    assert not context.has_relevant_memory
    assert context.markdown == ABSTAIN_MARKDOWN
    assert fake.requests == []


# -- views --------------------------------------------------------------------------------------


def _view(items: list[dict[str, str]], markdown: str) -> CannedReply:
    return tool_use_reply(VIEW_TOOL_NAME, {"items": items, "markdown": markdown})


async def test_user_style_view_calls_the_model_once_then_serves_the_cache(
    world: World, fake: FakeAnthropicServer
) -> None:
    markdown = "## User Coding Style\n\n- Async/await for all I/O."
    fake.queue(_view([{"ref": "m1", "summary": "Uses async/await for all I/O."}], markdown))
    views = world.views()
    try:
        first = await views.user_style(str(world.root))
        second = await views.user_style(str(world.root))
    finally:
        views.close()

    assert len(fake.requests) == 1
    assert fake.requests[0]["body"]["tool_choice"]["name"] == VIEW_TOOL_NAME
    for view in (first, second):
        assert view.written_by is WrittenBy.LLM
        assert view.markdown == markdown
        assert [i.summary for i in view.items] == ["Uses async/await for all I/O."]
        assert view.items[0].source_memory_ids == (world.items["async_preference"].id,)


async def test_project_brief_uses_normalised_facts_and_packs_them_when_its_markdown_is_too_long(
    world: World, fake: FakeAnthropicServer
) -> None:
    fake.queue(
        _view(
            [{"ref": "m1", "summary": "Framework: FastAPI"}, {"ref": "m2", "summary": "Inventory"}],
            "x " * 2000,
        )
    )
    views = world.views()
    try:
        brief = await views.project_brief(str(world.root), context_budget_tokens=200)
    finally:
        views.close()

    assert brief.written_by is WrittenBy.LLM
    assert brief.key_facts[0] == "Framework: FastAPI"
    assert brief.markdown.startswith("## Project Overview\n\n- Framework: FastAPI")
    assert brief.token_estimate <= 200


async def test_pitfalls_keep_their_stored_content_and_failures_keep_the_rules_view(
    world: World, fake: FakeAnthropicServer
) -> None:
    fake.queue(error_reply(500, "api_error"))
    views = world.views()
    try:
        failed = await views.pitfalls(str(world.root))
        await views.invalidate()
        fake.queue(
            _view([{"ref": "m1", "summary": "Never hard-delete items."}], "## Known Pitfalls")
        )
        written = await views.pitfalls(str(world.root))
    finally:
        views.close()

    assert failed.written_by is WrittenBy.RULES
    assert written.written_by is WrittenBy.LLM
    assert written.markdown == "## Known Pitfalls"
    assert [i.content for i in written.items] == [i.content for i in failed.items]
    assert len(fake.requests) == 2


# -- search reasons -----------------------------------------------------------------------------


async def test_search_reasons_come_from_one_call_per_page(
    world: World, fake: FakeAnthropicServer
) -> None:
    pitfall = world.items["soft_delete"]
    fake.queue(
        tool_use_reply(
            SEARCH_REASONS_TOOL_NAME,
            {
                "results": [
                    {"ref": pitfall.id, "reason": "Says how inventory deletes must work."},
                    {"ref": "mem_invented", "reason": "Ignored."},
                ]
            },
        )
    )

    page = await world.retriever.search(str(world.root), "inventory delete", top_k=3)
    plain = await world.plain_retriever().search(str(world.root), "inventory delete", top_k=3)

    assert len(fake.requests) == 1
    assert page.written_by is WrittenBy.LLM
    reasons = {r.memory_id: r.reason for r in page.results}
    assert reasons[pitfall.id] == "Says how inventory deletes must work."
    others = {r.memory_id: r.reason for r in plain.results if r.memory_id != pitfall.id}
    assert {k: reasons[k] for k in others} == others
    assert [r.memory_id for r in page.results] == [r.memory_id for r in plain.results]


async def test_search_keeps_deterministic_reasons_when_the_api_fails(
    world: World, fake: FakeAnthropicServer
) -> None:
    fake.queue(error_reply(529, "overloaded_error"))

    page = await world.retriever.search(str(world.root), "inventory delete", top_k=3)
    plain = await world.plain_retriever().search(str(world.root), "inventory delete", top_k=3)

    assert page.written_by is WrittenBy.RULES
    assert page.results == plain.results


# -- through the service ------------------------------------------------------------------------

SERVICE_FACTS = [
    (
        memory_pb2.MEMORY_TYPE_PROJECT_FACT,
        "framework",
        "The API is built with FastAPI and async SQLAlchemy.",
    ),
    (
        memory_pb2.MEMORY_TYPE_PROJECT_FACT,
        "database",
        "PostgreSQL 16 is the database; migrations use Alembic.",
    ),
    (
        memory_pb2.MEMORY_TYPE_PITFALL,
        "pitfall:jwt",
        "JWT tokens expire after one hour; the login tests must refresh them.",
    ),
    (memory_pb2.MEMORY_TYPE_RECIPE, "recipe:test", "Run the tests with `uv run pytest -q`."),
]


async def test_get_task_context_reasons_are_written_by_the_model(
    make_settings: Callable[..., Settings], tmp_path: Path, fake: FakeAnthropicServer
) -> None:
    project = (tmp_path / "api").resolve()
    project.mkdir()
    settings = make_settings(
        anthropic_api_key="sk-ant-test",
        anthropic_base_url=fake.base_url,
        extractor_backend="anthropic",
    )
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):

        async def loaded() -> bool:
            status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
            return not status.embedder_loading

        await wait_for(loaded)
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        ids = {}
        for kind, key, content in SERVICE_FACTS:
            reply = await c.call(
                c.stub.Remember,
                pb.RememberRequest(project_id=str(project), type=kind, key=key, content=content),
            )
            ids[key] = reply.memory.memory_id
        memory_id = ids["database"]
        markdown = f"{HEADER}\n\n- Write the migration with Alembic against PostgreSQL 16."
        fake.queue(_pack([{"ref": memory_id, "reason": "The task changes this schema."}], markdown))
        context = await c.call(
            c.stub.GetTaskContext,
            pb.GetTaskContextRequest(
                project_id=str(project),
                task_description="Change the database schema with a new Alembic migration",
            ),
        )

    chosen = {m.memory_id: m.reason for m in context.context.selected_memories}
    assert chosen == {memory_id: "The task changes this schema."}
    assert context.context.markdown == markdown
    assert [r["body"]["tool_choice"]["name"] for r in fake.requests] == [TASK_CONTEXT_TOOL_NAME]


@pytest.mark.parametrize(
    ("env", "wired"),
    [
        ({"anthropic_api_key": "sk-ant-test"}, False),
        ({"anthropic_api_key": "sk-ant-test", "processor_extractor": "anthropic"}, True),
        ({"anthropic_api_key": "sk-ant-test", "processor_extractor": "rules"}, False),
        ({}, False),
    ],
    ids=["auto-with-key", "anthropic", "rules-with-key", "no-key"],
)
async def test_the_service_writes_with_claude_only_when_it_extracts_with_claude(
    make_settings: Callable[..., Settings],
    fake: FakeAnthropicServer,
    env: dict[str, str],
    wired: bool,
) -> None:
    servicer = MemoryServicer(make_settings(anthropic_base_url=fake.base_url, **env))
    await servicer.start()
    try:
        writer = servicer.reads.writer
        shared = writer is not None and writer.budget is servicer.engine.llm_budget
    finally:
        await servicer.close()

    assert (writer is not None) is wired
    assert shared is wired
