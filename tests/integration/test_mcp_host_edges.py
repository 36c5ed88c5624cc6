"""`sqrl mcp` spoken to as a careless host would: budgets that are no number of tokens, and a
request written just before stdin is closed. Both ways `sqrl mcp` serves are checked: relayed
to a running gateway, and with the MCP server in its own process (no gateway)."""

from __future__ import annotations

import asyncio
import json
import math
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from fake_memory import register_projects, running_fake_memory  # type: ignore[import-not-found]
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from squirrel_core.settings import Settings
from squirrel_gateway import server as gateway_server
from tests.integration.conftest import running
from tests.integration.mcp_setup import spawn_sqrl_mcp
from tests.mcp_host import INITIALIZE, INITIALIZED


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


@pytest.fixture(params=["relay", "in_process"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@asynccontextmanager
async def services(settings: Settings, mode: str) -> AsyncIterator[None]:
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(running_fake_memory(settings))
        if mode == "relay":
            await stack.enter_async_context(running("gateway", gateway_server.setup, settings))
        yield


def _line(message: dict[str, Any] | str) -> bytes:
    return (message if isinstance(message, str) else json.dumps(message)).encode() + b"\n"


async def _talk(settings: Settings, cwd: Path, lines: list[bytes]) -> list[dict[str, Any]]:
    """Runs `sqrl mcp --no-autostart`, writes `lines` at once, closes stdin, and returns every
    message it printed before it exited (it must exit by itself)."""
    proc = await spawn_sqrl_mcp(settings, cwd)
    try:
        out, _ = await asyncio.wait_for(proc.communicate(b"".join(lines)), 120)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def _call(call_id: int, arguments: str) -> str:
    """A `tools/call` line written by hand: `arguments` is raw JSON (NaN and Infinity are
    what Python's, JavaScript's and many hosts' encoders write for such floats)."""
    return (
        f'{{"jsonrpc": "2.0", "id": {call_id}, "method": "tools/call", "params": '
        f'{{"name": "get_project_brief_view", "arguments": {arguments}}}}}'
    )


async def test_a_request_written_just_before_stdin_closes_is_answered(
    settings: Settings, project: Path, mode: str
) -> None:
    args = json.dumps({"project_root": str(project), "context_budget_tokens": 200})
    lines = [_line(INITIALIZE), _line(INITIALIZED), _line(_call(2, args))]
    async with services(settings, mode):
        answers = await _talk(settings, project, lines)
    by_id = {a.get("id"): a for a in answers}
    assert set(by_id) == {1, 2}, answers
    assert "result" in by_id[2] and not by_id[2]["result"].get("isError"), by_id[2]


@pytest.mark.parametrize(
    "budget",
    ["NaN", "Infinity", "-Infinity", "null", "-5", "0", "1e400", "1000000000000", "256.5"],
)
async def test_a_budget_that_is_no_number_of_tokens_is_a_tool_error(
    settings: Settings, project: Path, mode: str, budget: str
) -> None:
    """Must not be served with the default: the model asked for something else. `null` is what
    JavaScript's `JSON.stringify` (and pydantic) write for NaN and ±Infinity."""
    root = json.dumps(str(project))
    bad = f'{{"project_root": {root}, "context_budget_tokens": {budget}}}'
    alias = f'{{"project_root": {root}, "max_tokens": {budget}}}'
    good = f'{{"project_root": {root}, "context_budget_tokens": 200}}'
    # A host that fills every declared argument sends the alias it does not use as null.
    beside = f'{{"project_root": {root}, "context_budget_tokens": 200, "max_tokens": null}}'
    lines = [_line(INITIALIZE), _line(INITIALIZED)]
    lines += [_line(_call(2, bad)), _line(_call(3, alias)), _line(_call(4, good))]
    lines += [_line(_call(5, beside))]
    async with services(settings, mode):
        answers = await _talk(settings, project, lines)
    by_id = {a.get("id"): a for a in answers}
    assert set(by_id) == {1, 2, 3, 4, 5}, answers
    assert not by_id[5]["result"].get("isError"), by_id[5]
    for refused in (by_id[2], by_id[3]):
        result = refused.get("result") or {}
        assert result.get("isError") is True, refused
        said = result["content"][0]["text"]
        assert len(said.splitlines()) == 1 and "tokens" in said, said
    assert not by_id[4]["result"].get("isError"), by_id[4]


async def test_an_sdk_host_sending_nan_gets_a_tool_error_and_leaving_it_out_the_default(
    settings: Settings, project: Path, mode: str
) -> None:
    """The MCP SDK's own client writes NaN as null: refused; a budget left out is no error."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "squirrel_cli", "mcp", "--no-autostart"],
        env={"SQRL_HOME": str(settings.home)},
        cwd=project,
    )
    root = str(project)
    async with (
        services(settings, mode),
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=60) as session,
    ):
        await session.initialize()
        nan = await session.call_tool(
            "get_task_context",
            {"project_root": root, "task_description": "x", "context_budget_tokens": math.nan},
        )
        inf = await session.call_tool(
            "search_project_memory", {"project_root": root, "query": "x", "max_tokens": math.inf}
        )
        left_out = await session.call_tool("get_user_style_view", {"project_root": root})
    assert nan.is_error and inf.is_error
    assert not left_out.is_error


async def test_a_request_before_initialize_is_answered_in_one_line(
    settings: Settings, project: Path, mode: str
) -> None:
    """A `ping` before `initialize` (which MCP allows) got "Bad Request: Missing session ID"
    from a running gateway, and a tool call the same; the ping is answered, the call is told to
    initialize first, and the session then goes on."""
    args = json.dumps({"project_root": str(project), "context_budget_tokens": 200})
    early = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
    lines = [_line(early), _line(_call(8, args)), _line(INITIALIZE), _line(INITIALIZED)]
    lines.append(_line(_call(2, args)))
    async with services(settings, mode):
        answers = await _talk(settings, project, lines)
    by_id = {a.get("id"): a for a in answers}
    assert set(by_id) == {1, 2, 7, 8}, answers
    assert by_id[7].get("result") == {}, by_id[7]
    said = json.dumps(by_id[8])
    assert "Missing session" not in said and "initializ" in said, said
    assert not by_id[2]["result"].get("isError"), by_id[2]
