"""MCP over streamable HTTP in the gateway: the bearer token is required, tools answer with it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fake_memory import running_fake_memory  # type: ignore[import-not-found]
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from squirrel_core.clients import health_status
from squirrel_core.home import HomeLayout
from squirrel_core.redaction_rules import maintained_detectors
from squirrel_core.runner import StartFailedError, run_service
from squirrel_core.service_info import read_service_info
from squirrel_core.settings import Settings
from squirrel_core.tokens import estimate_tokens
from squirrel_gateway import server as gateway_server
from squirrel_gateway.mcp_http import endpoint_url, info_file
from squirrel_gateway.sockets import bind_loopback
from tests.integration.conftest import running, wait_for
from tests.integration.mcp_setup import new_project, registered, served
from tests.mcp_host import INITIALIZE, footer_tokens, model_reads

MCP_HEADERS = {"accept": "application/json, text/event-stream"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return new_project(tmp_path)


@pytest.fixture
def settings(make_settings: Callable[..., Settings], project: Path) -> Settings:
    return registered(make_settings, project)


@pytest.fixture
async def url(settings: Settings) -> AsyncIterator[str]:
    async with served(settings, "relay"):
        info = read_service_info(info_file(HomeLayout(settings.home).run))
        assert info is not None
        yield endpoint_url(info)


def token_of(settings: Settings) -> str:
    return HomeLayout(settings.home).token.read_text()


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", "Basic abc", "bearer x"])
async def test_requests_without_the_token_get_401(url: str, authorization: str | None) -> None:
    headers = dict(MCP_HEADERS)
    if authorization is not None:
        headers["authorization"] = authorization
    async with httpx2.AsyncClient(timeout=60) as http:
        reply = await http.post(url, json=INITIALIZE, headers=headers)
    assert reply.status_code == 401
    assert reply.headers["www-authenticate"].startswith("Bearer")


async def test_the_endpoint_listens_on_loopback_and_is_recorded(
    url: str, settings: Settings
) -> None:
    info = read_service_info(info_file(HomeLayout(settings.home).run))
    assert info is not None and info.host == "127.0.0.1" and info.port > 0
    assert url == f"http://127.0.0.1:{info.port}/mcp"


async def test_a_client_with_the_token_lists_and_calls_tools(
    url: str, settings: Settings, project: Path
) -> None:
    headers = {"authorization": f"Bearer {token_of(settings)}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        tools = await session.list_tools()
        result = await session.call_tool(
            "get_task_context",
            {
                "project_root": str(project),
                "task_description": "Add a delete endpoint",
                "context_budget_tokens": 120,
            },
        )
    names = {tool.name for tool in tools.tools}
    assert "get_task_context" in names and "remember" not in names
    assert not result.is_error
    read = model_reads(result)
    assert estimate_tokens(read) <= footer_tokens(read) <= 120


async def test_the_endpoint_is_recorded_once_a_hooks_first_answer_has_nothing_to_load(
    settings: Settings,
) -> None:
    """The first hook after `sqrl up` (which waits for the endpoint) does not load redaction's
    secret detectors on the gateway's event loop, holding every call for most of a second on a
    loaded machine: they are loaded before the endpoint is recorded."""
    maintained_detectors.cache_clear()  # as in a new gateway process
    async with served(settings, "relay"):
        assert info_file(HomeLayout(settings.home).run).exists()
        assert maintained_detectors.cache_info().currsize == 1


async def test_the_endpoint_stops_with_the_gateway(settings: Settings) -> None:
    async with served(settings, "relay"):
        info = read_service_info(info_file(HomeLayout(settings.home).run))
        assert info is not None
    assert not info_file(HomeLayout(settings.home).run).exists()
    async with httpx2.AsyncClient(timeout=5) as http:
        with pytest.raises(httpx2.ConnectError):
            await http.post(endpoint_url(info), json=INITIALIZE)


async def test_the_grpc_api_serves_before_the_http_endpoint_is_recorded(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = HomeLayout(settings.home).run
    # The endpoint's build is held until gRPC has answered SERVING: on a busy machine it could
    # otherwise finish first, and the order this test is about would not be seen.
    release = threading.Event()
    build = gateway_server.build_endpoint

    def held_build(*args: Any, **kwargs: Any) -> Any:
        if not release.wait(timeout=120):
            raise TimeoutError("the test never released the endpoint's build")
        return build(*args, **kwargs)

    monkeypatch.setattr(gateway_server, "build_endpoint", held_build)
    async with (
        running_fake_memory(settings),
        running("gateway", gateway_server.setup, settings, settled=False) as service,
    ):
        try:
            assert await health_status(f"127.0.0.1:{service.port}", timeout=60) == "SERVING"
            assert read_service_info(info_file(run)) is None
        finally:
            release.set()
        await wait_for(lambda: _recorded(run))
        info = read_service_info(info_file(run))
        assert info is not None
        async with httpx2.AsyncClient(timeout=60) as http:
            reply = await http.post(endpoint_url(info), json=INITIALIZE, headers=MCP_HEADERS)
        assert reply.status_code == 401  # answering, behind the token


async def _recorded(run: Path) -> bool:
    return read_service_info(info_file(run)) is not None


async def test_a_taken_http_port_fails_the_start_before_serving(
    make_settings: Callable[..., Settings],
) -> None:
    with bind_loopback(0) as taken:
        taken.listen()
        port = taken.getsockname()[1]
        settings = make_settings(gateway_mcp_http_port=str(port))
        with pytest.raises(OSError):
            async with running("gateway", gateway_server.setup, settings):
                pass


async def test_an_http_endpoint_that_fails_to_start_stops_the_gateway(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the endpoint could not be built")

    monkeypatch.setattr(gateway_server, "build_endpoint", broken)
    async with running_fake_memory(settings):
        with pytest.raises(StartFailedError):
            await asyncio.wait_for(run_service("gateway", gateway_server.setup, settings), 30)
    assert read_service_info(HomeLayout(settings.home).service_file("gateway")) is None
