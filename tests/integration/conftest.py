"""Services started in-process on 127.0.0.1:0, exactly as their processes start them."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from squirrel_core.auth import ensure_token
from squirrel_core.clients import MemoryClient, open_channel
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.rpc import GrpcService
from squirrel_core.runner import Setup
from squirrel_core.settings import Settings, load_settings
from squirrel_memory.bootstrap import init_project_files
from tests.conftest import PATIENCE_SECONDS


@asynccontextmanager
async def running(
    name: str, setup: Setup, settings: Settings, *, settled: bool = True
) -> AsyncIterator[GrpcService]:
    """`name` served on 127.0.0.1:0 as the runner serves it. `settled`: also wait for what the
    service finishes starting after SERVING (the gateway's HTTP endpoint) before yielding;
    otherwise that runs beside the test, as it does in a real start."""
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    service = GrpcService(name, token, 0, layout.service_file(name))
    ready, cleanup = await setup(settings, service)
    finishing: asyncio.Task[None] | None = None
    try:
        await service.start()
        later = await ready()
        await service.set_serving()
        if later is not None:
            if settled:
                await later
            else:
                finishing = asyncio.ensure_future(later)
        yield service
    finally:
        if finishing is not None and not finishing.done():
            finishing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await finishing
        await service.stop(grace=0)
        await cleanup()


@pytest.fixture
def make_settings(tmp_path: Path) -> Callable[..., Settings]:
    def make(**env: str) -> Settings:
        # The gateway's own share of a hook's deadline is the longest allowed: the default
        # second is for a host's turn, and a loaded machine can spend it before the memory
        # service answers (a test of the deadline sets its own).
        base = {
            "SQRL_HOME": str(tmp_path / "home"),
            "SQRL_PROCESSOR_INTERVAL_SECONDS": "3600",
            "SQRL_HOOKS_DEADLINE_MS": "60000",
        }
        base.update({f"SQRL_{k.upper()}": v for k, v in env.items()})
        return load_settings(base)

    return make


def watched_claude_home(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> Settings:
    """Settings whose ingest reads only Claude Code transcripts under `tmp_path/claude-projects`
    (created; the other hosts' folders do not exist), delivers each batch at once, never rescans
    (only the watcher sees a change) and never runs the processor; `project` is initialised
    and registered in the home."""
    claude = tmp_path / "claude-projects"
    claude.mkdir()
    settings = make_settings(
        ingest_claude_roots=str(claude),
        ingest_codex_roots=str(tmp_path / "none-codex"),
        ingest_gemini_roots=str(tmp_path / "none-gemini"),
        ingest_cursor_roots=str(tmp_path / "none-cursor"),
        ingest_batch_age_seconds="0.05",
        ingest_rescan_seconds="3600",
        processor_min_events="1000000",
    )
    layout = HomeLayout(settings.home).ensure()
    init_project_files(project)
    add_project(layout.projects, project)
    return settings


@asynccontextmanager
async def memory_client(service: GrpcService, settings: Settings) -> AsyncIterator[MemoryClient]:
    token = HomeLayout(settings.home).token.read_text()
    # The test's patience, not the product's 10 s default: on a loaded machine a first
    # AppendEvents or ProcessNow can take longer, and a test never asserts a wall-clock time.
    client = MemoryClient(
        open_channel(f"127.0.0.1:{service.port}"), token, timeout=PATIENCE_SECONDS
    )
    try:
        yield client
    finally:
        await client.close()


Factory = Callable[[], Awaitable[None]]


async def wait_for(
    predicate: Callable[[], Awaitable[object]], timeout: float = PATIENCE_SECONDS
) -> None:
    """Awaits `predicate` until it returns something truthy; fails the test at the deadline."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        if await predicate():
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"condition not met within {timeout}s")
