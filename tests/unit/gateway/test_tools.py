"""The MCP tool layer through a real in-memory MCP client: schemas, budgets, abstention, errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fakes import (  # type: ignore[import-not-found]
    FakeBackend,
    pitfall,
    search_hit,
    selected,
    style_item,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult

from squirrel_core.budget_limits import MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS
from squirrel_core.errors import UnavailableError
from squirrel_core.tokens import estimate_tokens
from squirrel_gateway.responses import fetch_budget
from squirrel_gateway.schemas import ModuleSummary
from squirrel_gateway.tools import build_mcp_server
from tests.mcp_host import FOOTER, READ_TOOLS, footer_tokens, model_reads


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    return root.resolve()


@pytest.fixture
def backend(project: Path) -> FakeBackend:
    return FakeBackend(
        roots=[str(project)],
        selected=[selected(i) for i in range(12)],
        style_items=[style_item(i) for i in range(10)],
        key_facts=[f"Framework: FastAPI with async SQLAlchemy ({i})" for i in range(6)],
        modules=[
            ModuleSummary(name=f"API {i}", paths=["routes/*.py"], summary="FastAPI endpoints.")
            for i in range(4)
        ],
        pitfalls=[pitfall(i) for i in range(8)],
        search_results=[search_hit(i) for i in range(23)],
    )


@pytest.fixture
def server(backend: FakeBackend) -> MCPServer:
    return build_mcp_server(backend, allow_writes=True)


def minimal_args(tool: str, project: Path) -> dict[str, Any]:
    args: dict[str, Any] = {"project_root": str(project)}
    if tool == "get_task_context":
        args["task_description"] = "Add a delete endpoint for inventory items"
    if tool == "search_project_memory":
        args["query"] = "JWT login tests"
    return args


def text_of(result: CallToolResult) -> str:
    block = result.content[0]
    assert block.type == "text"
    return block.text


def answer(result: CallToolResult) -> str:
    """What the model reads of a successful result: its markdown, and nothing beside it."""
    assert not result.is_error, text_of(result)
    assert result.structured_content is None
    assert len(result.content) == 1
    return model_reads(result)


def shown_items(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("- ")]


def search_page(markdown: str) -> tuple[list[str], str | None]:
    """The memory ids a search answer shows, in order, and the cursor its footer offers."""
    ids = re.findall(r"\(score [\d.]+, (mem_\d+)\)", markdown)
    cursor = re.search(r'cursor="([^"]+)"', markdown)
    return ids, cursor.group(1) if cursor else None


# --- declarations ---


async def test_read_tools_only_unless_writes_are_allowed(backend: FakeBackend) -> None:
    async with Client(build_mcp_server(backend, allow_writes=False)) as c:
        names = {t.name for t in (await c.list_tools()).tools}
    assert names == READ_TOOLS


async def test_writes_are_opt_in_and_not_read_only(server: MCPServer) -> None:
    async with Client(server) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == READ_TOOLS | {"remember", "forget"}
        remember, forget = tools["remember"].annotations, tools["forget"].annotations
        assert remember is not None and remember.read_only_hint is False
        assert remember.destructive_hint is False
        assert forget is not None and forget.read_only_hint is False
        assert forget.destructive_hint is True


async def test_every_tool_is_named_in_the_readme_and_the_hosts_guide(server: MCPServer) -> None:
    root = Path(__file__).resolve().parents[3]
    async with Client(server) as client:
        names = [t.name for t in (await client.list_tools()).tools]
    for doc in ("README.md", "docs/hosts.md"):
        text = (root / doc).read_text()
        missing = [name for name in names if f"`{name}`" not in text]
        assert not missing, f"{doc} does not name {missing}"


async def test_read_tools_are_annotated_read_only(server: MCPServer) -> None:
    async with Client(server) as client:
        for tool in (await client.list_tools()).tools:
            if tool.name in READ_TOOLS:
                assert tool.annotations is not None
                assert tool.annotations.read_only_hint is True
                assert tool.annotations.destructive_hint is False


async def test_read_tools_declare_budget_alias_and_no_output_schema(server: MCPServer) -> None:
    async with Client(server) as client:
        for tool in (await client.list_tools()).tools:
            if tool.name not in READ_TOOLS:
                continue
            props = tool.input_schema["properties"]
            for name in ("context_budget_tokens", "max_tokens"):
                assert props[name]["type"] == "integer"
                assert props[name]["minimum"] == MIN_BUDGET_TOKENS
                assert props[name]["maximum"] == MAX_BUDGET_TOKENS
                assert props[name]["description"]
            assert "project_root" in tool.input_schema["required"]
            # A tool with an output schema must return structuredContent, which Claude Code
            # gives the model instead of the markdown.
            assert tool.output_schema is None


async def test_descriptions_say_when_to_call_and_what_it_costs(server: MCPServer) -> None:
    async with Client(server) as client:
        for tool in (await client.list_tools()).tools:
            assert tool.description is not None
            assert "Call it" in tool.description or "call it" in tool.description
            assert "tokens" in tool.description


async def test_instructions_carry_the_host_call_patterns(server: MCPServer) -> None:
    async with Client(server) as client:
        text = client.instructions or ""
        for pattern in (
            'get_user_style_view(mode="core", context_budget_tokens=256)',
            'get_project_brief_view(mode="core", context_budget_tokens=256)',
            "get_task_context(task_description=..., active_file_paths=...,"
            " context_budget_tokens=400)",
            "get_pitfalls_view(scope_paths=[...], context_budget_tokens=256)",
            "search_project_memory(query=..., top_k=5)",
        ):
            assert pattern in text


# --- budgets ---


@pytest.mark.parametrize("tool", sorted(READ_TOOLS))
@pytest.mark.parametrize("budget", [MIN_BUDGET_TOKENS, 64, 150, 256, 400, 2000])
async def test_every_read_response_fits_its_budget_and_ends_with_the_footer(
    server: MCPServer, project: Path, tool: str, budget: int
) -> None:
    async with Client(server) as client:
        result = await client.call_tool(
            tool, {**minimal_args(tool, project), "context_budget_tokens": budget}
        )
        markdown = answer(result)
        assert estimate_tokens(markdown) <= footer_tokens(markdown) <= budget


@pytest.mark.parametrize("tool", sorted(READ_TOOLS | {"remember", "forget"}))
async def test_what_the_model_reads_is_the_markdown_alone(
    server: MCPServer, project: Path, tool: str
) -> None:
    args = minimal_args(tool, project)
    if tool == "remember":
        args["content"] = "Deploys go through make release."
    if tool == "forget":
        args["memory_id"] = "mem_3"
    async with Client(server) as client:
        result = await client.call_tool(tool, args)
    assert answer(result) == text_of(result)


@pytest.mark.parametrize("tool", sorted(READ_TOOLS))
async def test_capped_response_holds_only_the_items_shown(
    server: MCPServer, project: Path, tool: str
) -> None:
    async with Client(server) as client:
        result = await client.call_tool(tool, {**minimal_args(tool, project), "max_tokens": 150})
        markdown = answer(result)
        items = shown_items(markdown)
        match = re.search(r"(\d+) of (\d+) items shown", markdown)
        assert match is not None, "a cut response carries the ⚡ budget footer"
        assert "⚡ Budget: ~" in markdown
        assert int(match.group(1)) == len(items)
        assert len(items) < int(match.group(2))


async def test_a_large_budget_shows_every_item_without_a_budget_footer(
    server: MCPServer, project: Path
) -> None:
    async with Client(server) as client:
        markdown = answer(
            await client.call_tool(
                "get_user_style_view", {"project_root": str(project), "context_budget_tokens": 4000}
            )
        )
        assert len(shown_items(markdown)) == 10
        assert "⚡" not in markdown


@pytest.mark.parametrize(
    ("tool", "default"),
    [
        ("get_task_context", 400),
        ("get_user_style_view", 256),
        ("get_project_brief_view", 256),
        ("get_pitfalls_view", 256),
    ],
)
async def test_spec_default_budgets_reach_the_backend(
    server: MCPServer, backend: FakeBackend, project: Path, tool: str, default: int
) -> None:
    async with Client(server) as client:
        markdown = answer(await client.call_tool(tool, minimal_args(tool, project)))
        # The backend is asked for more than fits, so the budget has items to shape.
        assert backend.calls[-1].args["budget"] == fetch_budget(default) > default
        assert footer_tokens(markdown) <= default


async def test_max_tokens_is_an_alias_of_the_budget(
    server: MCPServer, backend: FakeBackend, project: Path
) -> None:
    async with Client(server) as client:
        args = minimal_args("get_task_context", project)
        answer(await client.call_tool("get_task_context", {**args, "max_tokens": 123}))
        assert backend.calls[-1].args["budget"] == fetch_budget(123)


async def test_conflicting_budget_and_alias_are_refused(server: MCPServer, project: Path) -> None:
    async with Client(server) as client:
        args = {**minimal_args("get_task_context", project), "context_budget_tokens": 200}
        result = await client.call_tool("get_task_context", {**args, "max_tokens": 300})
        assert result.is_error


@pytest.mark.parametrize("bad", [0, -5, 1, MIN_BUDGET_TOKENS - 1, 10**9, True, 1.5, "400", [1]])
async def test_bad_budgets_are_tool_errors_and_reach_no_backend(
    server: MCPServer, backend: FakeBackend, project: Path, bad: object
) -> None:
    async with Client(server) as client:
        for tool in sorted(READ_TOOLS):
            result = await client.call_tool(
                tool, {**minimal_args(tool, project), "context_budget_tokens": bad}
            )
            assert result.is_error
        assert [c.method for c in backend.calls if c.method != "resolve_project"] == []


# --- abstention ---


async def test_no_relevant_memory_abstains_with_the_spec_markdown(
    server: MCPServer, backend: FakeBackend, project: Path
) -> None:
    async with Client(server) as client:
        backend.has_relevant_memory = False
        markdown = answer(
            await client.call_tool("get_task_context", minimal_args("get_task_context", project))
        )
        assert shown_items(markdown) == []
        assert markdown.startswith("No relevant long-term memory found for this task.")
        assert FOOTER.search(markdown)


async def test_task_context_honours_preferred_memory_types(
    server: MCPServer, backend: FakeBackend, project: Path
) -> None:
    async with Client(server) as client:
        args = {**minimal_args("get_task_context", project), "preferred_memory_types": ["pitfall"]}
        markdown = answer(await client.call_tool("get_task_context", args))
        assert markdown.startswith("No relevant long-term memory found for this task.")
        assert backend.calls[-1].args["preferred_memory_types"] == ("pitfall",)


async def test_no_pitfalls_says_so(server: MCPServer, backend: FakeBackend, project: Path) -> None:
    async with Client(server) as client:
        backend.pitfalls = []
        markdown = answer(
            await client.call_tool("get_pitfalls_view", {"project_root": str(project)})
        )
        assert shown_items(markdown) == []
        assert "No relevant memory found" in markdown


async def test_empty_views_say_nothing_is_recorded(
    server: MCPServer, backend: FakeBackend, project: Path
) -> None:
    async with Client(server) as client:
        backend.style_items, backend.key_facts, backend.modules = [], [], []
        for tool in ("get_user_style_view", "get_project_brief_view"):
            markdown = answer(await client.call_tool(tool, {"project_root": str(project)}))
            assert "No relevant memory found" in markdown


# --- search paging ---


async def page_through(client: Client, project: Path, budget: int, top_k: int) -> list[str]:
    seen: list[str] = []
    cursor: str | None = None
    for _ in range(100):
        args: dict[str, Any] = {
            "project_root": str(project),
            "query": "JWT login tests",
            "top_k": top_k,
            "context_budget_tokens": budget,
        }
        if cursor:
            args["cursor"] = cursor
        ids, cursor = search_page(answer(await client.call_tool("search_project_memory", args)))
        assert ids, "every page shows a result"
        seen.extend(ids)
        if cursor is None:
            return seen
    pytest.fail("search never ended")


@pytest.mark.parametrize(("budget", "top_k"), [(4000, 5), (150, 5), (300, 7), (2000, 50)])
async def test_search_cursors_visit_every_result_once_in_order(
    server: MCPServer, project: Path, budget: int, top_k: int
) -> None:
    async with Client(server) as client:
        assert await page_through(client, project, budget, top_k) == [f"mem_{i}" for i in range(23)]


async def test_a_cursor_from_another_query_is_refused(server: MCPServer, project: Path) -> None:
    async with Client(server) as client:
        _, cursor = search_page(
            answer(
                await client.call_tool(
                    "search_project_memory",
                    {"project_root": str(project), "query": "jwt", "top_k": 2},
                )
            )
        )
        assert cursor is not None
        result = await client.call_tool(
            "search_project_memory",
            {"project_root": str(project), "query": "other", "cursor": cursor},
        )
        assert result.is_error


@pytest.mark.parametrize("cursor", ["garbage", "e30", "bnVsbA", "x" * 5000, "eyJhIjoxfQ"])
async def test_forged_cursors_are_refused(server: MCPServer, project: Path, cursor: str) -> None:
    async with Client(server) as client:
        result = await client.call_tool(
            "search_project_memory",
            {"project_root": str(project), "query": "jwt", "cursor": cursor},
        )
        assert result.is_error


@pytest.mark.parametrize("top_k", [0, -1, 51, 10**6])
async def test_top_k_out_of_range_is_refused(server: MCPServer, project: Path, top_k: int) -> None:
    async with Client(server) as client:
        result = await client.call_tool(
            "search_project_memory", {"project_root": str(project), "query": "jwt", "top_k": top_k}
        )
        assert result.is_error


@pytest.mark.parametrize(
    ("top_k", "said"),
    [
        (True, "`top_k` is true, a boolean; send a whole number from 1 to 50"),
        (False, "`top_k` is false, a boolean; send a whole number from 1 to 50"),
        ("3", "`top_k` is a string; send a whole number from 1 to 50 as a JSON number"),
        (2.5, "`top_k` should be a valid integer, got a number with a fractional part"),
        (10**30, "`top_k` should be less than or equal to 50"),
        (-2, "`top_k` should be greater than or equal to 1"),
    ],
)
async def test_top_k_that_is_no_whole_number_is_refused_and_searches_nothing(
    server: MCPServer, backend: FakeBackend, project: Path, top_k: object, said: str
) -> None:
    async with Client(server) as client:
        result = await client.call_tool(
            "search_project_memory", {"project_root": str(project), "query": "jwt", "top_k": top_k}
        )
    assert result.is_error
    assert text_of(result).startswith(f"search_project_memory: {said}")
    assert not any(c.method == "search_memory" for c in backend.calls)


async def test_a_whole_top_k_written_as_a_float_is_taken(server: MCPServer, project: Path) -> None:
    async with Client(server) as client:
        result = await client.call_tool(
            "search_project_memory", {"project_root": str(project), "query": "jwt", "top_k": 2.0}
        )
    assert search_page(answer(result))[0] == ["mem_0", "mem_1"]


# --- bad input and errors ---


async def test_an_unregistered_project_tells_the_model_how_to_register(
    server: MCPServer, tmp_path: Path
) -> None:
    async with Client(server) as client:
        result = await client.call_tool(
            "get_user_style_view", {"project_root": str(tmp_path / "elsewhere")}
        )
        assert result.is_error
        assert "sqrl init" in text_of(result)


@pytest.mark.parametrize("root", ["", "relative/path", "/x\x00y"])
async def test_malformed_project_roots_are_refused(server: MCPServer, root: str) -> None:
    async with Client(server) as client:
        result = await client.call_tool("get_user_style_view", {"project_root": root})
        assert result.is_error


@pytest.mark.parametrize("paths", [["../outside"], ["/etc/passwd"], [""]])
async def test_scope_paths_escaping_the_project_are_refused(
    server: MCPServer, backend: FakeBackend, project: Path, paths: list[str]
) -> None:
    async with Client(server) as client:
        result = await client.call_tool(
            "get_pitfalls_view", {"project_root": str(project), "scope_paths": paths}
        )
        assert result.is_error
        assert not any(c.method == "get_pitfalls_view" for c in backend.calls)


async def test_scope_paths_reach_the_backend_relative(
    server: MCPServer, backend: FakeBackend, project: Path
) -> None:
    async with Client(server) as client:
        paths = [str(project / "src" / "auth.py"), "./src/api/"]
        answer(
            await client.call_tool(
                "get_pitfalls_view", {"project_root": str(project / "src"), "scope_paths": paths}
            )
        )
        assert backend.calls[-1].args["scope_paths"] == ("src/auth.py", "src/api")
        assert backend.calls[-1].args["project_id"] == str(project)


@pytest.mark.parametrize(
    ("tool", "field", "value"),
    [
        ("get_task_context", "task_description", ""),
        ("get_task_context", "task_description", "   "),
        ("get_task_context", "task_description", "x" * 100_000),
        ("search_project_memory", "query", ""),
        ("search_project_memory", "query", "a\x00b"),
        ("search_project_memory", "query", "q" * 10_000),
        ("get_user_style_view", "mode", "everything"),
    ],
)
async def test_hostile_arguments_are_refused(
    server: MCPServer, project: Path, tool: str, field: str, value: object
) -> None:
    async with Client(server) as client:
        result = await client.call_tool(tool, {**minimal_args(tool, project), field: value})
        assert result.is_error


async def test_a_service_outage_suggests_starting_the_services(
    server: MCPServer, backend: FakeBackend, project: Path
) -> None:
    async with Client(server) as client:
        backend.fail_with = UnavailableError("The memory service is not answering.")
        result = await client.call_tool("get_user_style_view", {"project_root": str(project)})
        assert result.is_error
        assert "sqrl up" in text_of(result)
        # A line written for the CLI (no full stop) still reads as two sentences.
        backend.fail_with = UnavailableError("the memory service is not running")
        result = await client.call_tool("get_user_style_view", {"project_root": str(project)})
        assert "not running. The Squirrel services may be down" in text_of(result)


async def test_an_unexpected_crash_is_a_generic_error_that_leaks_nothing(
    server: MCPServer, backend: FakeBackend, project: Path
) -> None:
    async with Client(server) as client:
        backend.fail_with = RuntimeError("secret memory text sk-ant-123")
        result = await client.call_tool(
            "get_task_context", minimal_args("get_task_context", project)
        )
        assert result.is_error
        assert "secret" not in text_of(result)
        assert "sk-ant" not in text_of(result)


# --- writes ---


async def test_remember_passes_a_clean_manual_memory(
    server: MCPServer, backend: FakeBackend, project: Path
) -> None:
    async with Client(server) as client:
        markdown = answer(
            await client.call_tool(
                "remember",
                {
                    "project_root": str(project),
                    "content": "  Use uv, never pip, to add dependencies.  ",
                    "memory_type": "user_style",
                    "tags": ["tooling", " ", "python"],
                    "file_paths": [str(project / "pyproject.toml")],
                },
            )
        )
        assert markdown.startswith("Remembered as mem_")
        assert "added" in markdown
        call = backend.calls[-1]
        assert call.args["content"] == "Use uv, never pip, to add dependencies."
        assert call.args["tags"] == ("tooling", "python")
        assert call.args["file_paths"] == ("pyproject.toml",)


@pytest.mark.parametrize(
    "args",
    [
        {"content": ""},
        {"content": "x", "importance": 1.5},
        {"content": "x", "importance": True},
        {"content": "x", "importance": False},
        {"content": "x", "importance": "0.5"},
        {"content": "x", "importance": -0.5},
        {"content": "x", "memory_type": "secret"},
        {"content": "x", "tags": [f"t{i}" for i in range(50)]},
        {"content": "x" * 50_000},
    ],
)
async def test_remember_refuses_bad_input(
    server: MCPServer, backend: FakeBackend, project: Path, args: dict[str, Any]
) -> None:
    async with Client(server) as client:
        result = await client.call_tool("remember", {"project_root": str(project), **args})
        assert result.is_error
        assert not any(c.method == "remember" for c in backend.calls)


async def test_forget_marks_deleted_once_and_reports_repeats(
    server: MCPServer, project: Path
) -> None:
    async with Client(server) as client:
        args = {"project_root": str(project), "memory_id": "mem_7", "reason": "obsolete"}
        assert answer(await client.call_tool("forget", args)) == "Forgot mem_7."
        assert answer(await client.call_tool("forget", args)) == "Already forgotten: mem_7."


async def test_forgetting_an_unknown_memory_is_an_error(server: MCPServer, project: Path) -> None:
    async with Client(server) as client:
        result = await client.call_tool(
            "forget", {"project_root": str(project), "memory_id": "nope"}
        )
        assert result.is_error


# --- property: budgets over random memories ---

memory_text = st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=300)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    contents=st.lists(memory_text, max_size=25),
    budget=st.integers(min_value=1, max_value=4000),
)
async def test_random_memories_never_exceed_the_budget(
    project: Path, contents: list[str], budget: int
) -> None:
    backend = FakeBackend(
        roots=[str(project)],
        selected=[selected(i, content=text) for i, text in enumerate(contents)],
    )
    async with Client(build_mcp_server(backend, allow_writes=False)) as c:
        result = await c.call_tool(
            "get_task_context",
            {**minimal_args("get_task_context", project), "context_budget_tokens": budget},
        )
    if budget < MIN_BUDGET_TOKENS:
        assert result.is_error
        return
    markdown = answer(result)
    assert estimate_tokens(markdown) <= footer_tokens(markdown) <= budget


async def test_budgets_hold_over_the_json_rpc_wire_with_the_legacy_handshake(
    server: MCPServer, project: Path
) -> None:
    async with Client(server, mode="legacy") as client:
        args = {**minimal_args("get_task_context", project), "max_tokens": 120}
        markdown = answer(await client.call_tool("get_task_context", args))
        refused = await client.call_tool("get_task_context", {**args, "max_tokens": "120"})
    assert estimate_tokens(markdown) <= footer_tokens(markdown) <= 120
    assert "⚡ Budget:" in markdown
    assert refused.is_error
