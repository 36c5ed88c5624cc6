"""What the MCP integration tests share: a registered project, the services behind `sqrl mcp`
and `sqrl mcp` itself through the SDK's stdio client (the read tools and a host's `initialize`
are in `tests/mcp_host.py`)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

from fake_memory import register_projects, running_fake_memory  # type: ignore[import-not-found]
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from squirrel_core.home import HomeLayout
from squirrel_core.service_info import ServiceInfo, write_service_info
from squirrel_core.settings import Settings
from squirrel_gateway import server as gateway_server
from tests.integration.conftest import running


def new_project(tmp_path: Path, *folders: str) -> Path:
    """An empty repository folder `repo` (with `folders` inside), as its resolved path."""
    root = tmp_path / "repo"
    root.mkdir()
    for folder in folders:
        (root / folder).mkdir(parents=True)
    return root.resolve()


def registered(make_settings: Callable[..., Settings], project: Path) -> Settings:
    """Settings of a fresh home in which the fake memory service knows `project`."""
    made = make_settings()
    register_projects(made, [str(project)])
    return made


@asynccontextmanager
async def served(settings: Settings, how: str) -> AsyncIterator[None]:
    """`relay`: the fake memory service and the gateway (its MCP endpoint) serve;
    `in_process`: only the memory service (so `sqrl mcp` runs the MCP server itself);
    `starting`: nothing serves yet, the gateway's process is recorded (so `sqrl mcp` answers
    what it can itself)."""
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


@asynccontextmanager
async def sqrl_mcp(
    settings: Settings,
    cwd: Path,
    *extra: str,
    initialize: bool = True,
    expect: str | None = None,
    logged: list[dict[str, Any]] | None = None,
    **env: str,
) -> AsyncIterator[ClientSession]:
    """A session with `python -m squirrel_cli mcp` (initialized unless `initialize` is False);
    `expect` ("relay", "in_process", "relay_serving", ...): how it must have served, as its log
    on stderr says; `logged` receives that log's events once the session has ended."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "squirrel_cli", "mcp", *extra],
        env={"SQRL_HOME": str(settings.home), **env},
        cwd=cwd,
    )
    with tempfile.TemporaryFile("w+") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=60) as session,
        ):
            if initialize:
                await session.initialize()
            yield session
        errlog.seek(0)
        log = errlog.read()
    if expect is not None:
        assert f'"mcp_{expect}' in log, log[-2000:]
    if logged is not None:
        logged.extend(json.loads(line) for line in log.splitlines() if line.startswith("{"))


async def spawn_sqrl_mcp(settings: Settings, cwd: Path) -> asyncio.subprocess.Process:
    """`sqrl mcp --no-autostart` as a host starts it, with raw pipes for stdin and stdout (stderr
    dropped) and only the home and a plain PATH in its environment."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "squirrel_cli",
        "mcp",
        "--no-autostart",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=cwd,
        env={"SQRL_HOME": str(settings.home), "PATH": "/usr/bin:/bin"},
    )
