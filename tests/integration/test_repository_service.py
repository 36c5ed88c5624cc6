"""The memory service reads a registered repository: facts and recipes with `path:line`
sources on the wire, in history and in search, refreshed when commits arrive."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel.v1 import memory_pb2, views_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from squirrel_memory import server as memory_server
from tests.conftest import PATIENCE_SECONDS
from tests.integration.conftest import memory_client, running
from tests.unit.memory.repository.conftest import ELIXIR, commit, git

DEADLINE_S = PATIENCE_SECONDS


async def _memories(c: MemoryClient, project: Path) -> dict[str, memory_pb2.MemoryItem]:
    listed = await c.call(
        c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project), page_size=500)
    )
    return {m.key: m for m in listed.memories}


async def _until(
    c: MemoryClient, project: Path, ready: Callable[[dict[str, memory_pb2.MemoryItem]], bool]
) -> dict[str, memory_pb2.MemoryItem]:
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        found = await _memories(c, project)
        if ready(found):
            return found
        await asyncio.sleep(0.1)
    pytest.fail("the repository's memories did not arrive in time")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = (tmp_path / "heron").resolve()
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, ELIXIR, message="initial")
    return root


async def test_registration_reads_the_repository_and_commits_refresh_it(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        found = await _until(c, project, lambda m: "repo:recipe:test" in m)
        stack = found["repo:stack"]
        assert stack.content.startswith("Heron is an Elixir/Phoenix app")
        assert "mix.exs:8" in stack.source_refs
        history = await c.call(
            c.stub.GetMemoryHistory,
            pb.GetMemoryHistoryRequest(project_id=str(project), memory_id=stack.memory_id),
        )
        assert list(history.versions[0].source_refs) == list(stack.source_refs)

        # A new commit arrives as an event: the stack memory is updated in place.
        mix = str(ELIXIR["mix.exs"]).replace('elixir: "~> 1.17"', 'elixir: "~> 1.18"')
        sha = commit(project, {"mix.exs": mix}, message="Require Elixir 1.18")
        event = Event(
            source_tool=SourceTool.GIT,
            event_type=EventType.COMMIT,
            timestamp=datetime.now(UTC),
            content={"sha": sha, "message": "Require Elixir 1.18", "author": "Dev"},
            cwd=str(project),
            file_paths=("mix.exs",),
        )
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(project_id=str(project), events=[event_to_pb(event)]),
        )
        found = await _until(c, project, lambda m: "1.18" in m["repo:stack"].content)
        assert found["repo:stack"].memory_id == stack.memory_id
        assert found["repo:stack"].version == 2
        history = await c.call(
            c.stub.GetMemoryHistory,
            pb.GetMemoryHistoryRequest(project_id=str(project), memory_id=stack.memory_id),
        )
        assert [v.version for v in history.versions] == [1, 2]

        # ProcessNow reads first, so a moved HEAD is seen even without a commit event.
        commit(project, {}, remove=("CLAUDE.md",), message="Drop CLAUDE.md")
        report = await c.call(
            c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(project), drain=True)
        )
        assert report.memories_deleted >= 2  # the two rules CLAUDE.md gave
        found = await _memories(c, project)
        assert not any(k.startswith("repo:rule:") for k in found)


async def test_search_results_carry_the_repository_lines(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await _until(c, project, lambda m: "repo:recipe:test" in m)
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            reply = await c.call(
                c.stub.SearchMemory,
                pb.SearchMemoryRequest(
                    project_id=str(project), query="how do I run the tests", top_k=5
                ),
            )
            hits = {r.key: r for r in reply.results}
            if "repo:recipe:test" in hits:
                break
            await asyncio.sleep(0.2)
        else:
            pytest.fail("the test recipe was never found")
        assert any(
            ref.startswith("mix.exs:") for ref in hits["repo:recipe:test"].source.source_refs
        )
        context = await c.call(
            c.stub.GetTaskContext,
            pb.GetTaskContextRequest(
                project_id=str(project),
                task_description="Run the tests after changing the test alias in mix.exs",
                active_file_paths=["mix.exs"],
            ),
        )
        chosen = {m.key: m for m in context.context.selected_memories}
        assert "repo:recipe:test" in chosen
        assert list(chosen["repo:recipe:test"].source_refs) == list(
            hits["repo:recipe:test"].source.source_refs
        )


async def test_the_brief_for_a_host_leaves_out_the_instruction_file_it_loads(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await _until(c, project, lambda m: any(k.startswith("repo:rule:") for k in m))

        async def facts(*files: str) -> str:
            reply = await c.call(
                c.stub.GetProjectBriefView,
                pb.GetProjectBriefViewRequest(
                    project_id=str(project),
                    mode=views_pb2.VIEW_MODE_FULL,
                    context_budget_tokens=4000,
                    omit_sources_in=list(files),
                ),
            )
            return " ".join(reply.view.key_facts)

        assert "Project instruction (CLAUDE.md)" in await facts()
        assert "Project instruction (CLAUDE.md)" in await facts("AGENTS.md")
        claude = await facts("CLAUDE.md")
        assert "Project instruction (CLAUDE.md)" not in claude
        assert "Elixir/Phoenix" in claude
