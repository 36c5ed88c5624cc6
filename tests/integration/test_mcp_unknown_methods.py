"""`sqrl mcp` answers a method it does not serve with JSON-RPC's "Method not found", through the
real MCP client over stdio: relayed to a serving gateway, while the gateway starts, and with the
MCP server in the `sqrl mcp` process (the SDK's, which also speaks the later protocol era and so
answers `server/discover` itself)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import ClientSession
from mcp.client._probe import negotiate_auto
from mcp.shared.exceptions import MCPError
from mcp_types import METHOD_NOT_FOUND
from mcp_types.version import LATEST_MODERN_VERSION

from squirrel_core.settings import Settings
from tests.integration.mcp_setup import new_project, registered, served, sqrl_mcp
from tests.mcp_host import READ_TOOLS


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return new_project(tmp_path)


@pytest.fixture
def settings(make_settings: Callable[..., Settings], project: Path) -> Settings:
    return registered(make_settings, project)


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
    logged: list[dict[str, Any]] = []
    async with (
        served(settings, how),
        sqrl_mcp(settings, project, "--no-autostart", initialize=False, logged=logged) as session,
    ):
        with pytest.raises(MCPError) as probed:
            await session.send_discover(LATEST_MODERN_VERSION)
        await session.initialize()
        later = await method_not_found(session, "server/discover")
        unknown = await method_not_found(session, "tools/cal")
        tools = await session.list_tools()
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
        logged: list[dict[str, Any]] = []
        async with (
            served(settings, how),
            sqrl_mcp(
                settings, project, "--no-autostart", initialize=False, logged=logged
            ) as session,
        ):
            await negotiate_auto(session)
            tools = await session.list_tools()
            unknown = await method_not_found(session, "tools/cal")
        assert served_as in {e.get("event") for e in logged}, how
        assert {tool.name for tool in tools.tools} == READ_TOOLS, how
        assert unknown.error.code == METHOD_NOT_FOUND, (how, unknown.error)
