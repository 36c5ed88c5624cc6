"""MCP over streamable HTTP on loopback, behind the install's bearer token, inside the gateway."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

import structlog
import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Receive, Scope, Send

from squirrel_core.auth import token_matches
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.service_info import (
    LOOPBACK,
    ServiceInfo,
    read_service_info,
    write_service_info,
)
from squirrel_gateway.asgi_body import read_body
from squirrel_gateway.cli_http import CliApi, CliRoutes
from squirrel_gateway.hook_service import HookService
from squirrel_gateway.sockets import bind_loopback

log = structlog.get_logger()

MCP_PATH: Final = "/mcp"
HOOKS_PATH: Final = "/hooks/"
MAX_HOOK_BODY_BYTES: Final = 1_000_000
INFO_NAME: Final = "gateway-mcp"
START_TIMEOUT_SECONDS: Final = 10.0
STOP_GRACE_SECONDS: Final = 2.0


def info_file(run_dir: Path) -> Path:
    """`<home>/run/gateway-mcp.json`: pid, host and port of the MCP HTTP endpoint."""
    return run_dir / f"{INFO_NAME}.json"


def endpoint_url(info: ServiceInfo) -> str:
    return f"http://{info.host}:{info.port}{MCP_PATH}"


class BearerAuth:
    """ASGI middleware: HTTP requests without `Authorization: Bearer <token>` get 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self._app = app
        self._token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not token_matches(
            _header(scope, b"authorization"), self._token
        ):
            log.info("mcp_http_refused", path=scope.get("path", ""), status=401)
            body = json.dumps(
                {"error": "missing or wrong bearer token (`sqrl token --show` prints it)"}
            ).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        (b"www-authenticate", b'Bearer realm="squirrel"'),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self._app(scope, receive, send)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _respond(send: Send, status: int, body: bytes, content_type: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class HookRoutes:
    """ASGI: `POST /hooks/<host>/<event>` answers a host hook; everything else goes to `app`.

    The body is the host's hook JSON; the answer is what the hook should print (possibly empty).
    A body that is not JSON, too large, or names an unknown host or event gets 400.
    """

    def __init__(self, app: ASGIApp, hooks: HookService) -> None:
        self._app = app
        self._hooks = hooks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or not path.startswith(HOOKS_PATH):
            await self._app(scope, receive, send)
            return
        if scope.get("method") != "POST":
            await _respond(send, 405, b"POST only\n", b"text/plain")
            return
        parts = path[len(HOOKS_PATH) :].split("/")
        body = await read_body(receive, MAX_HOOK_BODY_BYTES)
        if len(parts) != 2 or body is None:
            await _respond(send, 400, b"expected POST /hooks/<host>/<event>\n", b"text/plain")
            return
        try:
            payload = json.loads(body or b"{}")
            answer = await self._hooks.answer(parts[0], parts[1], payload)
        except (ValueError, InvalidArgumentError) as exc:
            await _respond(send, 400, (str(exc)[:200] + "\n").encode(), b"text/plain")
            return
        except RecursionError:  # a body nested past the parser's depth
            await _respond(send, 400, b"the body is not JSON\n", b"text/plain")
            return
        await _respond(send, 200, answer.encode(), b"application/json")


class _EmbeddedServer(uvicorn.Server):
    """uvicorn without its own signal handling: the service's loop owns SIGTERM and SIGINT."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class McpHttpEndpoint:
    """Serves an MCP server's streamable-HTTP app at `http://127.0.0.1:<port>/mcp`, the hook
    answers at `/hooks/<host>/<event>`, given `cli` the CLI's read routes at `/cli/<route>`
    (`cli_http`) and, given `ui`, the memory browser at `/ui/` beside it."""

    def __init__(
        self,
        server: MCPServer,
        token: str,
        port: int,
        info_path: Path,
        hooks: HookService | None = None,
        *,
        ui: Callable[[ASGIApp], ASGIApp] | None = None,
        cli: CliApi | None = None,
    ) -> None:
        inner: ASGIApp = server.streamable_http_app(streamable_http_path=MCP_PATH)
        if hooks is not None:
            inner = HookRoutes(inner, hooks)
        if cli is not None:
            inner = CliRoutes(inner, cli)
        app: ASGIApp = BearerAuth(inner, token)
        if ui is not None:
            # The browser's pages check their own session cookie (or the token) in front.
            app = ui(app)
        config = uvicorn.Config(
            app,
            log_config=None,
            access_log=False,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=int(STOP_GRACE_SECONDS),
        )
        self._server = _EmbeddedServer(config)
        self._requested_port = port
        self._info_path = info_path
        self._task: asyncio.Task[None] | None = None
        self.port = 0

    async def start(self, sock: socket.socket | None = None) -> int:
        """Serves in this event loop on `sock` (bound here when None); returns the port and
        records it in the info file.

        The socket is bound before uvicorn runs, so a taken port is an `OSError` for the caller
        rather than uvicorn's exit.
        """
        if sock is None:
            sock = bind_loopback(self._requested_port, "gateway.mcp_http_port")
        self.port = int(sock.getsockname()[1])
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]), name="mcp-http")
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not self._server.started:
            if self._task.done() or time.monotonic() > deadline:
                await self._fail_start()
            await asyncio.sleep(0.01)
        write_service_info(
            self._info_path, ServiceInfo(INFO_NAME, os.getpid(), LOOPBACK, self.port, time.time())
        )
        log.info("mcp_http_serving", port=self.port)
        return self.port

    async def _fail_start(self) -> None:
        assert self._task is not None
        self._server.should_exit = True
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(self._task, STOP_GRACE_SECONDS)
        raise OSError(f"the MCP HTTP endpoint could not start on {LOOPBACK}")

    async def stop(self) -> None:
        if self._task is None:
            return
        self._server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(self._task), STOP_GRACE_SECONDS * 2)
        except TimeoutError:
            self._server.force_exit = True
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None
        info = read_service_info(self._info_path)
        if info is not None and info.pid == os.getpid():
            self._info_path.unlink(missing_ok=True)
        log.info("mcp_http_stopped")
