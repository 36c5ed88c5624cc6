"""A teammate's memory names who contributed it, wherever it is shown, inside the budget; and the
project brief's key facts from the team are marked as the team's.

The team server names, beside each memory it answers a team token with, the team user who
contributed it (`contributor`: the name the token was issued to). A joined laptop's lines then
read `(team: alice) …` in the MCP tools' markdown, a hook's context and `sqrl search`'s rows; a
brief's key fact that only the team gave reads `- (team: alice) …` (it was a plain line). The
laptop's own lines are unchanged, and a team memory whose contributor is not known keeps
`(team)`. A name is shown as one line without marks of its own, at most 40 characters."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from squirrel.v1 import gateway_service_pb2, memory_pb2, memory_service_pb2, views_pb2
from squirrel_core.read_shapes import contributor_name, search_output, team_mark_text
from squirrel_core.tokens import estimate_tokens
from squirrel_gateway import messages, responses
from squirrel_gateway.hook_context import prompt_context, session_start
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.team_backend import TeamMemoryBackend

FACT = memory_pb2.MemoryType.Value("MEMORY_TYPE_PROJECT_FACT")

TEAMMATE = "Releases are cut from the release branch, never from main."
MINE = "The test database is seeded by scripts/seed.sh before the suite."
TEAM_FACT = "Deploys go through the staging cluster first, then production."
MY_FACT = "The service reads its settings from config/app.toml at start."


class _Memory:
    """One side's memory: one memory in every answer, and one key fact in its brief; the team
    side names a contributor for both (as a team server does for a team token)."""

    def __init__(self, key: str, content: str, fact: str, contributor: str) -> None:
        self.key, self.content, self.fact, self.contributor = key, content, fact, contributor
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
            return memory_service_pb2.GetProjectBriefViewResponse(
                view=views_pb2.ProjectBriefView(
                    project_id=request.project_id,
                    key_facts=[self.fact],
                    key_fact_memory_ids=[f"fact-{self.key}"],
                    key_fact_contributors=[self.contributor] if self.contributor else [],
                )
            )
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
                        contributor=self.contributor,
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
                contributor=self.contributor,
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
                        key=self.key,
                        content=self.content,
                        importance=0.8,
                        memory_id=mid,
                        contributor=self.contributor,
                    )
                ],
            )
        )


def _backend(root: str, contributor: str = "alice") -> TeamMemoryBackend:
    mine = _Memory("seed", MINE, MY_FACT, "")
    theirs = _Memory("release", TEAMMATE, TEAM_FACT, contributor)
    local = GrpcMemoryBackend(lambda: mine, lambda: [root])  # type: ignore[arg-type, return-value]
    team = GrpcMemoryBackend(lambda: theirs, lambda: [])  # type: ignore[arg-type, return-value]
    return TeamMemoryBackend(local, team, lambda _: "team/project", server="team.example:7443")


def _line_of(markdown: str, text: str) -> str:
    (line,) = [line for line in markdown.splitlines() if text[:30] in line]
    return line


@pytest.fixture
def root(tmp_path: Path) -> str:
    project = tmp_path / "shop"
    project.mkdir()
    return str(project.resolve())


async def _search(backend: TeamMemoryBackend, root: str, budget: int = 2000) -> Any:
    return await responses.search(
        backend,
        project_root=root,
        query="release branch seed",
        top_k=5,
        types=None,
        scope_paths=None,
        cursor=None,
        budget=budget,
    )


async def test_mcp_search_names_the_teammate(root: str) -> None:
    answer = await _search(_backend(root), root)
    markdown = answer.output.markdown
    assert "] (team: alice) Releases are cut" in _line_of(markdown, TEAMMATE)
    assert "(team" not in _line_of(markdown, MINE)
    by_key = {r.key: r.contributor for r in answer.output.results}
    assert by_key == {"release": "alice", "seed": ""}


async def test_pitfalls_and_a_hooks_task_context_name_the_teammate(root: str) -> None:
    pitfalls = await responses.pitfalls_view(
        _backend(root), project_root=root, task_description="cut", scope_paths=None, budget=2000
    )
    assert _line_of(pitfalls.output.markdown, TEAMMATE).startswith("- (team: alice) Releases")
    injection = await prompt_context(
        _backend(root), project_id=root, prompt="cut a release", user_id=None, budget=2000
    )
    assert "[project_fact] (team: alice) Releases" in _line_of(injection.text, TEAMMATE)
    assert "(team" not in _line_of(injection.text, MINE)


async def test_the_briefs_team_facts_are_marked_and_the_laptops_are_not(root: str) -> None:
    brief = await responses.project_brief_view(
        _backend(root), project_root=root, mode="core", budget=2000
    )
    assert _line_of(brief.output.markdown, TEAM_FACT) == f"- (team: alice) {TEAM_FACT}"
    assert _line_of(brief.output.markdown, MY_FACT) == f"- {MY_FACT}"
    start = await session_start(_backend(root), project_id=root, user_id=None, budget=2000)
    assert _line_of(start.text, TEAM_FACT) == f"- (team: alice) {TEAM_FACT}", start.text
    assert _line_of(start.text, MY_FACT) == f"- {MY_FACT}"


async def test_a_team_fact_without_a_contributor_keeps_the_plain_team_mark(root: str) -> None:
    """An older team server names no one: its memories and facts read `(team)` as before."""
    backend = _backend(root, contributor="")
    brief = await responses.project_brief_view(backend, project_root=root, mode="core", budget=2000)
    assert _line_of(brief.output.markdown, TEAM_FACT) == f"- (team) {TEAM_FACT}"
    answer = await _search(backend, root)
    assert "(team) Releases" in _line_of(answer.output.markdown, TEAMMATE)


async def test_sqrl_search_rows_name_the_teammate(root: str) -> None:
    answer = await _search(_backend(root), root)
    reply = gateway_service_pb2.GatewaySearchMemoryResponse(
        search=memory_service_pb2.SearchMemoryResponse(
            query=answer.output.query,
            results=messages.search_result_messages(answer.output.results),
        )
    )
    rows = {row[2]: row[3] for row in search_output(reply, as_json=False)["rows"]}
    assert rows == {"mem-release": f"(team: alice) {TEAMMATE}", "mem-seed": MINE}
    listed = search_output(reply, as_json=True)["json"]["search"]["results"]
    assert [r.get("contributor", "") for r in listed] == ["alice", ""]


@pytest.mark.parametrize("budget", [60, 80, 100, 120, 160, 240, 400])
async def test_the_name_is_within_every_budget(root: str, budget: int) -> None:
    long_name = "alexandra.konstantinopoulou-whitfield"
    answer = await _search(_backend(root, contributor=long_name), root, budget)
    markdown = answer.output.markdown
    assert estimate_tokens(markdown) <= answer.output.token_estimate <= budget
    for line in markdown.splitlines():
        if "Releases" in line:
            assert f"(team: {long_name}) Releases" in line


def test_a_name_is_shown_without_marks_of_its_own() -> None:
    assert contributor_name("bob") == "bob"
    assert contributor_name("  Eve (admin)\n[ops] `x`  ") == "Eve admin ops x"
    assert len(contributor_name("a" * 200)) == 40
    assert team_mark_text(True, "Eve (admin)") == "(team: Eve admin)"
    assert team_mark_text(True, " () ") == "(team)"
    assert team_mark_text(False, "alice") == ""


async def test_the_structured_brief_names_who_gave_each_team_fact(root: str) -> None:
    """The brief's structured content (MCP) and its gRPC message (`sqrl view brief --json`)
    say which teammate each team fact came from, beside the fact, and nothing for the user's
    own; the name is the one the mark shows, never more."""
    backend = _backend(root, contributor="alice (release lead) `x`")
    brief = await responses.project_brief_view(backend, project_root=root, mode="core", budget=2000)
    facts = brief.output.key_facts
    by_fact = dict(zip(facts, brief.output.key_fact_contributors, strict=True))
    assert by_fact == {TEAM_FACT: "alice release lead x", MY_FACT: ""}
    team = dict(zip(facts, brief.output.key_fact_from_team, strict=True))
    assert team == {TEAM_FACT: True, MY_FACT: False}
    assert f"(team: {by_fact[TEAM_FACT]})" in _line_of(brief.output.markdown, TEAM_FACT)
    message = messages.project_brief_message(brief.output, views_pb2.BudgetReport())
    assert list(message.key_fact_contributors) == brief.output.key_fact_contributors
    unknown = await responses.project_brief_view(
        _backend(root, contributor=""), project_root=root, mode="core", budget=2000
    )
    assert dict(zip(unknown.output.key_facts, unknown.output.key_fact_from_team, strict=True))[
        TEAM_FACT
    ]
