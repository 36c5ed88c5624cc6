"""`sqrl mcp` answers a method it does not serve with JSON-RPC's "Method not found", through the
real MCP client over stdio: relayed to a serving gateway, while the gateway starts, and with the
MCP server in the `sqrl mcp` process (the SDK's, which also speaks the later protocol era and so
answers `server/discover` itself)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from fake_memory import register_projects, running_fake_memory  # type: ignore[import-not-found]
from mcp import ClientSession
from mcp.client._probe import negotiate_auto
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import METHOD_NOT_FOUND
from mcp_types.version import LATEST_MODERN_VERSION

from squirrel_core.home import HomeLayout
from squirrel_core.service_info import ServiceInfo, write_service_info
from squirrel_core.settings import Settings
from squirrel_gateway import server as gateway_server
from tests.integration.conftest import running

READ_TOOLS = {
    "get_task_context",
    "get_user_style_view",
    "get_project_brief_view",
    "get_pitfalls_view",
    "search_project_memory",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    return root.resolve()


@pytest.fixture
def settings(make_settings: Callable[..., Settings], project: Path) -> Settings:
    made = make_settings()
    register_projects(made, [str(project)])
    return made


@asynccontextmanager
async def served(settings: Settings, how: str) -> AsyncIterator[None]:
    """`relay`: the fake memory service and the gateway serve; `in_process`: only the memory
    service (so `sqrl mcp` runs the MCP server itself); `starting`: nothing serves yet, the
    gateway's process is recorded (so `sqrl mcp` answers what it can itself)."""
    async with AsyncExitStack() as stack:
        if how == "starting":
            layout = HomeLayout(settings.home).ensure()
            starting = ServiceInfo("gateway", os.getpid(), "127.0.0.1", 9, time.time())
            write_service_info(layout.service_file("gateway"), starting)
        else:
            await stack.enter_async_context(running_fake_memory(settings))
        if how == "relay":
            await stack.enter_async_context(running("gateway", gateway_server.setup, settings))
        yield
        if how == "starting":
            layout.service_file("gateway").unlink()


async def method_not_found(session: ClientSession, method: str) -> MCPError:
    with pytest.raises(MCPError) as caught:
        await session.send_request(types.Request[Any, Any](method=method, params={}), dict)
    return caught.value


@pytest.mark.parametrize("how", ["relay", "starting"])
async def test_a_method_the_relay_does_not_serve_is_method_not_found_before_and_after_initialize(
    settings: Settings, project: Path, how: str
) -> None:
    """A host probing `server/discover` before `initialize` learns that `sqrl mcp` speaks the
    handshake (and falls back to it); an unknown method later is the same plain error, at
    once, the gateway not asked (while it starts, a call that needs it waits and then fails)."""
    with tempfile.TemporaryFile("w+") as errlog:
        async with (
            served(settings, how),
            stdio_client(sqrl_mcp(settings, project), errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=60) as session,
        ):
            with pytest.raises(MCPError) as probed:
                await session.send_discover(LATEST_MODERN_VERSION)
            await session.initialize()
            later = await method_not_found(session, "server/discover")
            unknown = await method_not_found(session, "tools/cal")
            tools = await session.list_tools()
        errlog.seek(0)
        logged = [json.loads(line) for line in errlog.read().splitlines() if line.startswith("{")]
    for error in (probed.value, later, unknown):
        assert error.error.code == METHOD_NOT_FOUND, error.error
    assert unknown.error.data == "tools/cal"
    assert not [e for e in logged if e["event"] == "mcp_relay_failed"]
    assert {tool.name for tool in tools.tools} == READ_TOOLS


async def test_the_sdk_clients_own_negotiation_reaches_the_tools_on_every_path(
    settings: Settings, project: Path
) -> None:
    """What a host built on the MCP SDK does (`server/discover`, then `initialize` when it is
    refused) ends with the tools listed, relayed, while the gateway starts and in process; an
    unknown method is "Method not found" on each."""
    for how, served_as in (
        ("relay", "mcp_relay_serving"),
        ("starting", "mcp_relay_serving"),
        ("in_process", "mcp_stdio_serving"),
    ):
        with tempfile.TemporaryFile("w+") as errlog:
            async with (
                served(settings, how),
                stdio_client(sqrl_mcp(settings, project), errlog=errlog) as (read, write),
                ClientSession(read, write, read_timeout_seconds=60) as session,
            ):
                await negotiate_auto(session)
                tools = await session.list_tools()
                unknown = await method_not_found(session, "tools/cal")
            errlog.seek(0)
            assert f'"{served_as}"' in errlog.read(), how
        assert {tool.name for tool in tools.tools} == READ_TOOLS, how
        assert unknown.error.code == METHOD_NOT_FOUND, (how, unknown.error)


def sqrl_mcp(settings: Settings, project: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "squirrel_cli", "mcp", "--no-autostart"],
        env={"SQRL_HOME": str(settings.home)},
        cwd=project,
    )
