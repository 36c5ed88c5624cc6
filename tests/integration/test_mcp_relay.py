"""`sqrl mcp` relaying to the gateway's MCP endpoint: restarts, refused tokens, bad lines, EOF."""

from __future__ import annotations

import asyncio
import io
import json
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fake_memory import running_fake_memory  # type: ignore[import-not-found]

from squirrel_cli.mcp_relay import Relay
from squirrel_cli.relay_wire import GATEWAY_ERROR, INVALID_REQUEST, PARSE_ERROR
from squirrel_core.home import HomeLayout
from squirrel_core.mcp_profile import mcp_profile
from squirrel_core.service_info import read_service_info
from squirrel_core.settings import Settings
from squirrel_gateway import server as gateway_server
from squirrel_gateway.mcp_http import endpoint_url, info_file
from tests.integration.conftest import running
from tests.integration.mcp_setup import (
    new_project,
    registered,
    served,
    spawn_sqrl_mcp,
    sqrl_mcp,
)
from tests.mcp_host import INITIALIZE, INITIALIZED

LIST_TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return new_project(tmp_path)


@pytest.fixture
def settings(make_settings: Callable[..., Settings], project: Path) -> Settings:
    return registered(make_settings, project)


def brief_args(project: Path) -> dict[str, Any]:
    return {"project_root": str(project), "context_budget_tokens": 200}


class SqrlMcp:
    """`python -m squirrel_cli mcp` spoken to line by line, as a host would."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    async def send(self, line: bytes | dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        data = line if isinstance(line, bytes) else json.dumps(line).encode()
        self.proc.stdin.write(data + b"\n")
        await self.proc.stdin.drain()

    async def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        assert line, "sqrl mcp closed stdout"
        message: dict[str, Any] = json.loads(line)
        return message

    async def close_stdin(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return await asyncio.wait_for(self.proc.wait(), 60)


@asynccontextmanager
async def sqrl_mcp_process(settings: Settings, cwd: Path) -> AsyncIterator[SqrlMcp]:
    proc = await spawn_sqrl_mcp(settings, cwd)
    try:
        yield SqrlMcp(proc)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_a_gateway_restart_mid_session_is_followed_by_a_new_session(
    settings: Settings, project: Path
) -> None:
    logged: list[dict[str, Any]] = []
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(running_fake_memory(settings))
        first = AsyncExitStack()
        await first.enter_async_context(running("gateway", gateway_server.setup, settings))
        session = await stack.enter_async_context(
            sqrl_mcp(settings, project, "--no-autostart", logged=logged)
        )
        before = await session.call_tool("get_project_brief_view", brief_args(project))
        await first.aclose()  # the gateway stops: its MCP sessions are gone with it
        await stack.enter_async_context(running("gateway", gateway_server.setup, settings))
        after = await session.call_tool("get_project_brief_view", brief_args(project))
    assert not before.is_error and not after.is_error
    assert after.content == before.content
    assert "mcp_session_renewed" in {e.get("event") for e in logged}


async def test_a_refused_token_is_a_json_rpc_error_and_the_relay_goes_on(
    settings: Settings, project: Path
) -> None:
    layout = HomeLayout(settings.home)
    async with served(settings, "relay"):
        layout.token.write_text("not-the-token-the-gateway-holds\n")
        async with sqrl_mcp_process(settings, project) as mcp:
            await mcp.send(INITIALIZE)
            refused = await mcp.receive()
            await mcp.send(LIST_TOOLS)
            again = await mcp.receive()
            code = await mcp.close_stdin()
    assert refused["id"] == 1 and refused["error"]["code"] == GATEWAY_ERROR
    assert "401" in refused["error"]["message"]
    assert again["id"] == 2 and again["error"]["code"] == GATEWAY_ERROR
    assert code == 0


async def test_lines_that_are_not_json_rpc_get_errors_and_the_session_goes_on(
    settings: Settings, project: Path
) -> None:
    async with (
        served(settings, "relay"),
        sqrl_mcp_process(settings, project) as mcp,
    ):
        await mcp.send(b"this is not json {")
        not_json = await mcp.receive()
        await mcp.send(b"[1, 2, 3]")
        not_an_object = await mcp.receive()
        await mcp.send(b"\xff\xfe")
        not_text = await mcp.receive()
        await mcp.send(b"[" * 100_000 + b"]" * 100_000)  # nested past the parser's depth
        too_deep = await mcp.receive()
        await mcp.send({"jsonrpc": "2.0", "id": 9, "method": 5})
        not_a_method = await mcp.receive()
        await mcp.send(INITIALIZE)
        initialized = await mcp.receive()
        await mcp.send(INITIALIZED)
        await mcp.send(LIST_TOOLS)
        tools = await mcp.receive()
        code = await mcp.close_stdin()
    assert not_json["id"] is None and not_json["error"]["code"] == PARSE_ERROR
    assert not_an_object["id"] is None and not_an_object["error"]["code"] == INVALID_REQUEST
    assert not_text["error"]["code"] == PARSE_ERROR
    assert too_deep["id"] is None and too_deep["error"]["code"] == PARSE_ERROR
    assert not_a_method["id"] == 9 and not_a_method["error"]["code"] == INVALID_REQUEST
    assert initialized["id"] == 1 and "protocolVersion" in initialized["result"]
    assert tools["id"] == 2 and {t["name"] for t in tools["result"]["tools"]} >= {
        "get_task_context"
    }
    assert code == 0


async def test_end_of_stdin_ends_the_gateway_session(settings: Settings) -> None:
    layout = HomeLayout(settings.home)
    lines = b"".join(json.dumps(m).encode() + b"\n" for m in (INITIALIZE, INITIALIZED, LIST_TOOLS))
    out = io.BytesIO()
    async with served(settings, "relay"):
        token = layout.token.read_text().strip()
        relay = Relay(layout, token, mcp_profile(settings), out)
        await asyncio.to_thread(relay.serve, io.BytesIO(lines))
        info = read_service_info(info_file(layout.run))
        assert info is not None and relay.session is not None
        async with httpx2.AsyncClient(timeout=60) as http:
            reply = await http.post(
                endpoint_url(info),
                json=LIST_TOOLS,
                headers={
                    "authorization": f"Bearer {token}",
                    "accept": "application/json, text/event-stream",
                    "mcp-session-id": relay.session,
                },
            )
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    assert reply.status_code == 404  # the session was deleted at the end of stdin


async def test_without_a_gateway_a_call_is_answered_with_an_error_in_time(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("squirrel_cli.mcp_relay.RECONNECT_SECONDS", 0.2)
    layout = HomeLayout(settings.home).ensure()
    out = io.BytesIO()
    relay = Relay(layout, "token", mcp_profile(settings), out)
    lines = json.dumps(INITIALIZE).encode() + b"\n"
    await asyncio.to_thread(relay.serve, io.BytesIO(lines))
    (answer,) = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answer["id"] == 1 and answer["error"]["code"] == GATEWAY_ERROR


_PROBE = (
    "import sys\n"
    "from squirrel_cli.entry import main\n"
    "sys.argv = ['sqrl', 'mcp', '--no-autostart']\n"
    "code = main()\n"
    "sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)) + '\\n')\n"
    "sys.exit(code)\n"
)


async def test_relaying_loads_neither_the_mcp_sdk_nor_grpc(
    settings: Settings, project: Path
) -> None:
    lines = b"".join(json.dumps(m).encode() + b"\n" for m in (INITIALIZE, INITIALIZED, LIST_TOOLS))
    async with served(settings, "relay"):
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            _PROBE,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=project,
            env={"SQRL_HOME": str(settings.home), "PATH": "/usr/bin:/bin"},
        )
        out, err = await asyncio.wait_for(proc.communicate(lines), 60)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert [json.loads(line)["id"] for line in out.splitlines()] == [1, 2]
    [line] = [x for x in err.decode().splitlines() if x.startswith("MODULES ")]
    loaded = {m.split(".")[0] for m in line.split()[1:]}
    heavy = {"mcp", "grpc", "pydantic", "structlog", "squirrel_gateway", "anyio", "rich"}
    assert not loaded & heavy, sorted(loaded & heavy)
