"""Search, task context and views through the memory service's gRPC API, across restarts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from squirrel.v1 import memory_pb2, views_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.settings import Settings
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running, wait_for

FACTS = [
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
    (
        memory_pb2.MEMORY_TYPE_USER_STYLE,
        "pref:async",
        "Prefers async/await for every I/O-bound handler.",
    ),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "api"
    root.mkdir()
    return root.resolve()


async def _model_loaded(c: MemoryClient) -> None:
    async def loaded() -> bool:
        status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        return not status.embedder_loading

    await wait_for(loaded)


async def _seed(c: MemoryClient, project: Path) -> dict[str, str]:
    await _model_loaded(c)
    await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
    ids = {}
    for kind, key, content in FACTS:
        reply = await c.call(
            c.stub.Remember,
            pb.RememberRequest(project_id=str(project), type=kind, key=key, content=content),
        )
        ids[key] = reply.memory.memory_id
    return ids


async def _search(c: MemoryClient, project: Path, query: str) -> pb.SearchMemoryResponse:
    return await c.call(
        c.stub.SearchMemory, pb.SearchMemoryRequest(project_id=str(project), query=query, top_k=5)
    )


async def test_search_explains_and_forgetting_removes_at_once(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        ids = await _seed(c, project)
        found = await _search(c, project, "JWT login tests")
        assert found.results[0].memory_id == ids["pitfall:jwt"]
        assert found.results[0].reason and 0 < found.results[0].score <= 1
        assert found.total_count >= 1
        await c.call(
            c.stub.Forget, pb.ForgetRequest(project_id=str(project), memory_id=ids["pitfall:jwt"])
        )
        after = await _search(c, project, "JWT login tests")
        assert ids["pitfall:jwt"] not in {r.memory_id for r in after.results}
        pitfalls = await c.call(
            c.stub.GetPitfallsView, pb.GetPitfallsViewRequest(project_id=str(project))
        )
        assert not pitfalls.view.items and not pitfalls.view.has_relevant_pitfalls


async def test_task_context_selects_with_reasons_and_abstains_when_unrelated(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        ids = await _seed(c, project)
        context = await c.call(
            c.stub.GetTaskContext,
            pb.GetTaskContextRequest(
                project_id=str(project),
                task_description="Change the database schema with a new Alembic migration",
                context_budget_tokens=400,
            ),
        )
        chosen = {m.memory_id: m.reason for m in context.context.selected_memories}
        assert context.context.has_relevant_memory and ids["database"] in chosen
        assert all(chosen.values())
        assert context.context.token_estimate <= 400
        unrelated = await c.call(
            c.stub.GetTaskContext,
            pb.GetTaskContextRequest(
                project_id=str(project), task_description="Bake a sourdough loaf with rye flour"
            ),
        )
        assert not unrelated.context.has_relevant_memory
        assert list(unrelated.context.selected_memories) == []
        assert unrelated.context.markdown == "No relevant long-term memory found for this task."


async def test_views_and_search_answer_the_same_after_a_restart(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await _seed(c, project)
        before = await _search(c, project, "which database and migrations")
        brief = await c.call(
            c.stub.GetProjectBriefView, pb.GetProjectBriefViewRequest(project_id=str(project))
        )
        assert any("FastAPI" in fact for fact in brief.view.key_facts)
        style = await c.call(
            c.stub.GetUserStyleView,
            pb.GetUserStyleViewRequest(project_id=str(project), mode=views_pb2.VIEW_MODE_CORE),
        )
        assert [i.key for i in style.view.items] == ["pref:async"]
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        after = await _search(c, project, "which database and migrations")
        assert [r.memory_id for r in after.results] == [r.memory_id for r in before.results]
        reindexed = await c.call(c.stub.Reindex, pb.ReindexRequest(project_id=str(project)))
        assert reindexed.memories_indexed == len(FACTS)


async def test_hostile_queries_and_budgets_get_clear_errors(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    from squirrel_core.errors import InvalidArgumentError  # noqa: PLC0415

    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await _seed(c, project)
        for query in ['"', "NEAR(a b) OR *", "x" * 10_000, "../../etc/passwd", "δοκιμή 🐿️"]:
            await _search(c, project, query)
        with pytest.raises(InvalidArgumentError):
            await _search(c, project, "")
        with pytest.raises(InvalidArgumentError):
            await c.call(
                c.stub.GetUserStyleView,
                pb.GetUserStyleViewRequest(project_id=str(project), context_budget_tokens=-5),
            )


async def test_search_results_carry_each_field_of_the_memory_found(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await _seed(c, project)
        tagged = await c.call(
            c.stub.Remember,
            pb.RememberRequest(
                project_id=str(project),
                type=memory_pb2.MEMORY_TYPE_PITFALL,
                key="pitfall:upload-retry",
                content="The upload worker retries forever when the bucket is missing.",
                tags=["uploads", "retries"],
                importance=0.8,
                file_paths=["workers/upload.py", "workers/retry.py"],
            ),
        )
        found = await _search(c, project, "upload worker retries bucket")
        first = found.results[0]
        assert first.memory_id == tagged.memory.memory_id
        assert first.handle
        assert first.type == memory_pb2.MEMORY_TYPE_PITFALL
        assert first.key == "pitfall:upload-retry"
        assert first.content == tagged.memory.content
        assert list(first.tags) == ["uploads", "retries"]
        assert first.importance == pytest.approx(0.8)
        assert first.recency_days == 0
        assert 0 < first.score <= 1 and first.reason
        assert first.HasField("source")
        assert list(first.source.file_paths) == list(tagged.memory.file_paths)
        assert list(first.source.episode_ids) == [] and list(first.source.source_refs) == []
        assert not any(r.from_team for r in found.results)  # only the gateway marks team results
        others = [r for r in found.results[1:] if r.memory_id != first.memory_id]
        assert all(r.HasField("source") and r.handle for r in others)
        assert len({r.handle for r in found.results}) == len(found.results)
        assert found.query == "upload worker retries bucket"
        assert found.total_count >= len(found.results) >= 1
