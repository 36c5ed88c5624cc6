"""`sqrl mcp` through the real MCP client over stdio, against a fake memory service.

Each tool test runs twice: relayed to a running gateway's MCP endpoint (what `sqrl mcp` does
when the services are up) and with the MCP server in the `sqrl mcp` process (no gateway), and
the answers must pass the same checks.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from fake_memory import running_fake_memory  # type: ignore[import-not-found]
from mcp.types import CallToolResult

from squirrel_cli.mcp_relay import CALL_WAIT_SECONDS
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import ServiceInfo, write_service_info
from squirrel_core.settings import Settings
from squirrel_core.tokens import estimate_tokens
from squirrel_gateway.stdio import ensure_memory, memory_serving
from tests.conftest import PATIENCE_SECONDS
from tests.integration.mcp_setup import new_project, registered, served, sqrl_mcp
from tests.mcp_host import READ_TOOLS, footer_tokens, model_reads


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return new_project(tmp_path, "src")


@pytest.fixture
def settings(make_settings: Callable[..., Settings], project: Path) -> Settings:
    return registered(make_settings, project)


@pytest.fixture(params=["relay", "in_process"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


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


async def test_tools_list_declares_input_schemas_and_no_output_schemas(
    settings: Settings, project: Path, mode: str
) -> None:
    async with served(settings, mode), sqrl_mcp(settings, project, expect=mode) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert set(tools) == READ_TOOLS
    for tool in tools.values():
        assert "project_root" in tool.input_schema["properties"]
        assert tool.output_schema is None
        assert tool.annotations is not None and tool.annotations.read_only_hint is True


async def test_what_the_model_reads_of_every_tool_is_the_markdown_within_its_budget(
    settings: Settings, project: Path, mode: str
) -> None:
    async with served(settings, mode), sqrl_mcp(settings, project, expect=mode) as session:
        for tool in sorted(READ_TOOLS):
            for budget in (48, 256, 4000):
                result = await session.call_tool(
                    tool, {**minimal_args(tool, project), "context_budget_tokens": budget}
                )
                assert not result.is_error, text_of(result)
                assert result.structured_content is None
                read = model_reads(result)
                assert read == text_of(result)
                assert estimate_tokens(read) <= footer_tokens(read) <= budget


@pytest.mark.parametrize(
    ("tool", "bad"),
    [
        ("get_task_context", {"task_description": 123}),
        ("get_task_context", {"context_budget_tokens": "lots"}),
        ("get_task_context", {"active_file_paths": "src/a.py"}),
        ("get_user_style_view", {"mode": "everything"}),
        ("search_project_memory", {"top_k": "many"}),
        ("search_project_memory", {"types": ["gossip"]}),
        ("get_pitfalls_view", {"project_root": 7}),
    ],
)
async def test_wrong_argument_types_are_tool_errors(
    settings: Settings, project: Path, tool: str, bad: dict[str, Any], mode: str
) -> None:
    async with served(settings, mode), sqrl_mcp(settings, project, expect=mode) as session:
        result = await session.call_tool(tool, {**minimal_args(tool, project), **bad})
        assert result.is_error
        # The server is still fine afterwards.
        good = await session.call_tool(tool, minimal_args(tool, project))
        assert not good.is_error


@pytest.mark.parametrize(
    ("tool", "args", "named"),
    [
        ("get_task_context", {"task_description": None}, {"task_description"}),
        ("search_project_memory", {"project_root": None, "query": None}, {"project_root", "query"}),
        ("get_task_context", {"task_description": ["a secret list"]}, {"task_description"}),
        ("search_project_memory", {"top_k": "many"}, {"top_k"}),
    ],
)
async def test_bad_arguments_are_one_tool_error_line_naming_them(
    settings: Settings,
    project: Path,
    mode: str,
    tool: str,
    args: dict[str, Any],
    named: set[str],
) -> None:
    """Missing (None: left out) or mistyped arguments: one line the model can act on, naming
    each argument, with neither the validator's report nor the values sent."""
    sent = {k: v for k, v in {**minimal_args(tool, project), **args}.items() if v is not None}
    async with served(settings, mode), sqrl_mcp(settings, project, expect=mode) as session:
        result = await session.call_tool(tool, sent)
    assert result.is_error
    said = text_of(result)
    assert len(said.splitlines()) == 1, said
    assert all(f"`{name}`" in said for name in named), said
    assert "validation error" not in said and "pydantic" not in said
    assert "a secret list" not in said and "many" not in said


async def test_an_unregistered_project_is_a_tool_error_naming_sqrl_init(
    settings: Settings, tmp_path: Path, mode: str
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with (
        served(settings, mode),
        sqrl_mcp(settings, elsewhere, expect=mode) as session,
    ):
        result = await session.call_tool("get_user_style_view", {"project_root": str(elsewhere)})
    assert result.is_error
    assert "sqrl init" in text_of(result)


async def test_without_services_and_autostart_off_tools_say_the_services_are_down(
    settings: Settings, project: Path
) -> None:
    async with sqrl_mcp(settings, project, "--no-autostart", expect="in_process") as session:
        tools = await session.list_tools()
        result = await session.call_tool(
            "get_project_brief_view", minimal_args("get_project_brief_view", project)
        )
    assert {t.name for t in tools.tools} == READ_TOOLS
    assert result.is_error
    assert "sqrl up" in text_of(result)


async def test_writes_are_exposed_only_when_allowed(
    settings: Settings, project: Path, mode: str
) -> None:
    """With a gateway that does not allow writes, `sqrl mcp` allowing them serves in-process."""
    async with (
        served(settings, mode),
        sqrl_mcp(
            settings, project, expect="in_process", SQRL_GATEWAY_ALLOW_WRITES="true"
        ) as session,
    ):
        names = {t.name for t in (await session.list_tools()).tools}
        result = await session.call_tool(
            "remember",
            {"project_root": str(project), "content": "Deploys go through make release."},
        )
    assert names == READ_TOOLS | {"remember", "forget"}
    assert not result.is_error
    assert text_of(result).startswith("Remembered as mem_")
    assert "added" in text_of(result)


# --- starting the services --------------------------------------------------------------------


async def test_tools_are_listed_at_once_while_the_services_start(
    settings: Settings, project: Path
) -> None:
    """The gateway is starting (its process recorded, its MCP endpoint not yet there):
    `initialize` and `tools/list` are answered without it; a tool call waits the short wait of
    a start, not a restart's, and then says to call again; once the gateway serves, calls go
    through it."""
    layout = HomeLayout(settings.home).ensure()
    starting = ServiceInfo("gateway", os.getpid(), "127.0.0.1", 9, time.time())
    write_service_info(layout.service_file("gateway"), starting)
    args = minimal_args("get_project_brief_view", project)
    logged: list[dict[str, Any]] = []
    async with sqrl_mcp(
        settings, project, "--no-autostart", expect="relay_serving", logged=logged
    ) as session:
        # No gateway is up: a listing that waited for it would end in an error, not a list.
        listed = await session.list_tools()
        early = await session.call_tool("get_project_brief_view", args)
        # A call made while the services come up is answered once they serve; on a loaded
        # machine the start can outlast one call's wait, and the model then calls again.
        pending = asyncio.ensure_future(session.call_tool("get_project_brief_view", args))
        async with served(settings, "relay"):
            answered = await pending
            deadline = time.monotonic() + PATIENCE_SECONDS
            while answered.is_error and time.monotonic() < deadline:
                assert "still starting" in text_of(answered), text_of(answered)
                answered = await session.call_tool("get_project_brief_view", args)
    assert {t.name for t in listed.tools} == READ_TOOLS
    locally = [e.get("method") for e in logged if e["event"] == "mcp_answered_locally"]
    assert "tools/list" in locally
    assert early.is_error
    assert "still starting" in text_of(early) and "again" in text_of(early)
    # Every call that found no gateway had a start's wait, never a restarting gateway's (a
    # message that reached a gateway still opening its session fails otherwise, with no wait).
    failed = [e for e in logged if e["event"] == "mcp_relay_failed"]
    waits = [e["wait_seconds"] for e in failed if "wait_seconds" in e]
    assert waits and set(waits) == {CALL_WAIT_SECONDS}
    assert not answered.is_error, text_of(answered)
    assert text_of(answered).startswith("## Project Overview")


async def test_a_serving_memory_service_is_not_started_again(settings: Settings) -> None:
    starts: list[int] = []

    async def start() -> None:
        starts.append(1)

    async with running_fake_memory(settings):
        assert await ensure_memory(HomeLayout(settings.home), start, wait_seconds=PATIENCE_SECONDS)
    assert starts == []


async def test_a_down_memory_service_is_started_and_waited_for(settings: Settings) -> None:
    layout = HomeLayout(settings.home)
    async with AsyncExitStack() as stack:

        async def start() -> None:
            await stack.enter_async_context(running_fake_memory(settings))

        assert not await memory_serving(layout)
        assert await ensure_memory(layout, start, wait_seconds=PATIENCE_SECONDS)


async def test_a_memory_service_that_never_comes_up_is_waited_for_boundedly(
    settings: Settings,
) -> None:
    async def start() -> None:
        return None

    assert not await ensure_memory(HomeLayout(settings.home), start, wait_seconds=0.3)
