"""A memory from the team's memory says so wherever it is shown: on a joined laptop the team's
answer and local memory's are merged, and the team's memories carry the "(team)" mark in the
MCP tools' markdown, in a hook's task context and in `sqrl search`'s rows, while the laptop's
own read as before. The mark is part of each line, so a budget counts its tokens: an answer is
never over its budget for it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from squirrel.v1 import gateway_service_pb2, memory_pb2, memory_service_pb2, views_pb2
from squirrel_core.read_shapes import search_output
from squirrel_core.tokens import estimate_tokens
from squirrel_gateway import messages, responses
from squirrel_gateway.hook_context import prompt_context, session_start
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.team_backend import TeamMemoryBackend

FACT = memory_pb2.MemoryType.Value("MEMORY_TYPE_PROJECT_FACT")
PITFALL = memory_pb2.MemoryType.Value("MEMORY_TYPE_PITFALL")


class _Memory:
    """A memory client stand-in answering searches, task contexts and pitfalls views with one
    memory of its own (the team server's or local memory's)."""

    def __init__(self, key: str, content: str) -> None:
        self.key, self.content = key, content
        self.stub = SimpleNamespace(
            SearchMemory="SearchMemory",
            GetTaskContext="GetTaskContext",
            GetPitfallsView="GetPitfallsView",
            GetProjectBriefView="GetProjectBriefView",
            GetUserStyleView="GetUserStyleView",
        )

    async def call(self, method: str, request: Any, **_: Any) -> Any:
        mid = f"mem-{self.key}"
        if method == "GetProjectBriefView":
            return memory_service_pb2.GetProjectBriefViewResponse()
        if method == "GetUserStyleView":
            return memory_service_pb2.GetUserStyleViewResponse()
        if method == "SearchMemory":
            return memory_service_pb2.SearchMemoryResponse(
                query=request.query,
                results=[
                    views_pb2.SearchResult(
                        memory_id=mid,
                        type=request.types[0] if request.types else FACT,
                        key=self.key,
                        content=self.content,
                        score=0.9,
                        reason="matched",
                        importance=0.8,
                    )
                ],
                total_count=1,
            )
        if method == "GetTaskContext":
            selected = views_pb2.SelectedMemory(
                memory_id=mid,
                type=FACT,
                key=self.key,
                content=self.content,
                importance=0.8,
                reason="names the task",
            )
            return memory_service_pb2.GetTaskContextResponse(
                context=views_pb2.TaskContext(
                    project_id=request.project_id,
                    has_relevant_memory=True,
                    selected_memories=[selected],
                )
            )
        return memory_service_pb2.GetPitfallsViewResponse(
            view=views_pb2.PitfallsView(
                project_id=request.project_id,
                has_relevant_pitfalls=True,
                items=[
                    views_pb2.PitfallItem(
                        key=self.key, content=self.content, importance=0.8, memory_id=mid
                    )
                ],
            )
        )


TEAMMATE = "Releases are cut from the release branch, never from main."
MINE = "The test database is seeded by scripts/seed.sh before the suite."


def _backend(root: str) -> TeamMemoryBackend:
    local = GrpcMemoryBackend(lambda: _Memory("seed", MINE), lambda: [root])  # type: ignore[arg-type, return-value]
    team = GrpcMemoryBackend(lambda: _Memory("release", TEAMMATE), lambda: [])  # type: ignore[arg-type, return-value]
    return TeamMemoryBackend(local, team, lambda _: "team/project", server="team.example:7443")


def _line_of(markdown: str, text: str) -> str:
    (line,) = [line for line in markdown.splitlines() if text[:30] in line]
    return line


@pytest.fixture
def root(tmp_path: Path) -> str:
    project = tmp_path / "shop"
    project.mkdir()
    return str(project.resolve())


async def test_mcp_search_marks_the_teams_memory_and_not_the_users_own(root: str) -> None:
    answer = await responses.search(
        _backend(root),
        project_root=root,
        query="release branch seed",
        top_k=5,
        types=None,
        scope_paths=None,
        cursor=None,
        budget=2000,
    )
    markdown = answer.output.markdown
    assert "(team) Releases are cut" in _line_of(markdown, TEAMMATE)
    assert "(team)" not in _line_of(markdown, MINE)
    by_key = {r.key: r.from_team for r in answer.output.results}
    assert by_key == {"release": True, "seed": False}  # the structured answer says it too


async def test_mcp_pitfalls_mark_the_teams_memory(root: str) -> None:
    answer = await responses.pitfalls_view(
        _backend(root),
        project_root=root,
        task_description="cut a release",
        scope_paths=None,
        budget=2000,
    )
    markdown = answer.output.markdown
    assert _line_of(markdown, TEAMMATE).startswith("- (team) Releases are cut")
    assert "(team)" not in _line_of(markdown, MINE)


async def test_a_hooks_task_context_marks_the_teams_memory(root: str) -> None:
    injection = await prompt_context(
        _backend(root),
        project_id=root,
        prompt="how do we cut a release and seed the test database?",
        user_id=None,
        budget=2000,
    )
    assert "[project_fact] (team) Releases are cut" in _line_of(injection.text, TEAMMATE)
    assert "(team)" not in _line_of(injection.text, MINE)


async def test_a_session_starts_lines_mark_the_teams_memory(root: str) -> None:
    # The everyday commands (recipes, from searches) and the pitfalls, as a session start
    # shows them.
    injection = await session_start(_backend(root), project_id=root, user_id=None, budget=2000)
    theirs = [line for line in injection.text.splitlines() if "Releases are cut" in line]
    mine = [line for line in injection.text.splitlines() if "seeded by" in line]
    assert theirs and all(line.startswith("- (team) Releases") for line in theirs), injection
    assert mine and not any("(team)" in line for line in mine), injection


async def test_sqrl_search_rows_mark_the_teams_memory(root: str) -> None:
    answer = await responses.search(
        _backend(root),
        project_root=root,
        query="release",
        top_k=5,
        types=None,
        scope_paths=None,
        cursor=None,
        budget=2000,
    )
    # As the gateway's servicer answers `sqrl search`, and as the CLI prints it.
    reply = gateway_service_pb2.GatewaySearchMemoryResponse(
        search=memory_service_pb2.SearchMemoryResponse(
            query=answer.output.query,
            results=messages.search_result_messages(answer.output.results),
        )
    )
    rows = {row[2]: row[3] for row in search_output(reply, as_json=False)["rows"]}
    assert rows == {"mem-release": f"(team) {TEAMMATE}", "mem-seed": MINE}
    listed = search_output(reply, as_json=True)["json"]["search"]["results"]
    assert [r["from_team"] for r in listed] == [True, False]


@pytest.mark.parametrize("budget", [60, 80, 100, 120, 160, 240, 400])
async def test_the_mark_is_within_every_budget(root: str, budget: int) -> None:
    answer = await responses.search(
        _backend(root),
        project_root=root,
        query="release",
        top_k=5,
        types=None,
        scope_paths=None,
        cursor=None,
        budget=budget,
    )
    markdown = answer.output.markdown
    assert estimate_tokens(markdown) <= answer.output.token_estimate <= budget
    # A line cut short keeps its start: any of the teammate's words shown comes after the mark.
    for line in markdown.splitlines():
        if "Releases" in line:
            assert "(team) Releases" in line
        elif "seed" in line:
            assert "(team)" not in line
    assert any("Releases" in line for line in markdown.splitlines()) or budget < 120
