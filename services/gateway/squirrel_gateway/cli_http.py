"""JSON routes for the `sqrl` CLI on the gateway's loopback HTTP endpoint.

`sqrl status`, `search`, `context`, `view` and `memories` post here (behind the install's bearer
token, like `/mcp` and `/hooks/`) instead of loading a gRPC client: the CLI then starts with the
standard library only. Each route runs what the CLI would have run over gRPC — the gateway's own
servicer for context, search and the views, the memory service's `ListMemories`, the status
probe — and answers the plain data of `squirrel_core.read_shapes` / `status_probe`, which the
CLI prints the same way whichever way it fetched it. On a terminal the CLI also has its tables and
markdown drawn here (`render`: rich, for the CLI's terminal size, encoding and environment), so it
need not load rich. On a laptop joined to a team, `remember`, `forget`, `confirm`, `history` and
`memories` post here too, and go to the team server (`squirrel_gateway.cli_memory`); `"local":
true` in a body keeps a read or write on local memory. An answer that had to leave the team
server out says why in `team_away` (a list of lines for the user). A body's switches (`json`,
`local`, `counts`, `include_deleted`) are JSON booleans (`cli_memory.flag`): anything else (the
string "false", 0, null) is a 400 naming the switch, as is a list given as anything but a list.

`POST /cli/<route>` with a JSON object; 200 with the answer, or an error object
`{"error": {"status": "<gRPC status name>", "message": "..."}}`: 422 for a domain error (its
message is what `sqrl` prints), 400 for a malformed request, 404 for an unknown route, 500 for a
crash (logged here, never with memory text).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

import structlog
from google.protobuf.message import Message
from starlette.types import ASGIApp, Receive, Scope, Send

from squirrel.v1 import gateway_service_pb2, memory_pb2, views_pb2
from squirrel_core.errors import InvalidArgumentError, SquirrelError
from squirrel_core.home import SERVICES, HomeLayout
from squirrel_core.read_shapes import (
    MAX_OUTCOME_SESSIONS,
    MEMORY_TYPES,
    OUTCOME_SESSIONS,
    context_output,
    search_output,
    view_output,
)
from squirrel_core.status_probe import probe
from squirrel_core.terminal import Terminal, check_drawings, render
from squirrel_gateway import team_away
from squirrel_gateway.asgi_body import read_body
from squirrel_gateway.cli_memory import BadRequestError as _BadRequestError
from squirrel_gateway.cli_memory import CliMemory
from squirrel_gateway.cli_memory import flag as _flag
from squirrel_gateway.cli_memory import integer as _int
from squirrel_gateway.cli_memory import text as _text
from squirrel_gateway.cli_memory import texts as _texts
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.servicer import GatewayServicer
from squirrel_gateway.team_backend import TeamMemoryBackend

log = structlog.get_logger()

CLI_PATH: Final = "/cli/"
MAX_BODY_BYTES: Final = 1_000_000

Answer = dict[str, Any]


class CliApi:
    """What the CLI routes answer from: the gateway's servicer, the local memory service, the
    home."""

    def __init__(
        self,
        servicer: GatewayServicer,
        backend: GrpcMemoryBackend,
        home: Path,
        token: str,
        team: TeamMemoryBackend | None = None,
    ) -> None:
        self._shared = servicer
        self._local = GatewayServicer(backend)
        self._layout = HomeLayout(home)
        self._token = token
        self.team_server = team.server if team is not None else None
        self.routes: dict[str, Callable[[dict[str, Any]], Awaitable[Answer]]] = {
            "context": self.context,
            "search": self.search,
            "view": self.view,
            "status": self.status,
            "render": self.render,
            **CliMemory(backend, team, self._layout.projects).routes(),
        }

    def _servicer(self, body: dict[str, Any]) -> GatewayServicer:
        """The team and local memories merged, or (`local`) local memory alone."""
        return self._local if _flag(body, "local") else self._shared

    async def context(self, body: dict[str, Any]) -> Answer:
        servicer, as_json = self._servicer(body), _flag(body, "json")
        request = gateway_service_pb2.GatewayGetTaskContextRequest(
            project_root=_text(body, "project_root"),
            user_id=_text(body, "user_id"),
            task_description=_text(body, "task_description"),
            active_file_paths=_texts(body, "active_file_paths"),
            context_budget_tokens=_int(body, "context_budget_tokens"),
            preferred_memory_types=_types(_texts(body, "preferred_memory_types")),
        )
        reply = await servicer.GetTaskContext(request, _NO_CONTEXT)
        return context_output(reply, as_json=as_json)

    async def search(self, body: dict[str, Any]) -> Answer:
        servicer, as_json = self._servicer(body), _flag(body, "json")
        request = gateway_service_pb2.GatewaySearchMemoryRequest(
            project_root=_text(body, "project_root"),
            query=_text(body, "query"),
            top_k=_int(body, "top_k"),
            types=_types(_texts(body, "types")),
            scope_paths=_texts(body, "scope_paths"),
            context_budget_tokens=_int(body, "context_budget_tokens"),
            cursor=_text(body, "cursor"),
        )
        reply = await servicer.SearchMemory(request, _NO_CONTEXT)
        return search_output(reply, as_json=as_json)

    async def view(self, body: dict[str, Any]) -> Answer:
        """`sqrl view style|brief|pitfalls` (`which`), as the full CLI asks for it."""
        servicer, as_json = self._servicer(body), _flag(body, "json")
        which = body.get("which")
        project = _text(body, "project_root")
        budget = _int(body, "context_budget_tokens")
        mode_name = body.get("mode", "core")
        if mode_name not in ("core", "full"):
            raise _BadRequestError("mode must be core or full")
        mode = views_pb2.VIEW_MODE_FULL if mode_name == "full" else views_pb2.VIEW_MODE_CORE
        view: Message
        if which == "style":
            style = await servicer.GetUserStyleView(
                gateway_service_pb2.GatewayGetUserStyleViewRequest(
                    project_root=project,
                    user_id=_text(body, "user_id"),
                    mode=mode,
                    context_budget_tokens=budget,
                ),
                _NO_CONTEXT,
            )
            view, markdown = style.view, style.view.markdown
        elif which == "brief":
            brief = await servicer.GetProjectBriefView(
                gateway_service_pb2.GatewayGetProjectBriefViewRequest(
                    project_root=project, mode=mode, context_budget_tokens=budget
                ),
                _NO_CONTEXT,
            )
            view, markdown = brief.view, brief.view.markdown
        elif which == "pitfalls":
            pitfalls = await servicer.GetPitfallsView(
                gateway_service_pb2.GatewayGetPitfallsViewRequest(
                    project_root=project,
                    scope_paths=_texts(body, "scope_paths"),
                    task_description=_text(body, "task_description"),
                    context_budget_tokens=budget,
                ),
                _NO_CONTEXT,
            )
            view, markdown = pitfalls.view, pitfalls.view.markdown
        else:
            raise _BadRequestError("which must be style, brief or pitfalls")
        return view_output(view, markdown, as_json=as_json)

    async def status(self, body: dict[str, Any]) -> Answer:
        with_counts = _flag(body, "counts")
        ports = body.get("ports", {})
        if not isinstance(ports, dict) or not all(
            name in SERVICES
            and isinstance(port, int)
            and not isinstance(port, bool)
            and 0 < port < 65536
            for name, port in ports.items()
        ):
            raise _BadRequestError("ports must map service names to loopback ports")
        sessions = body.get("sessions", OUTCOME_SESSIONS)
        if (
            isinstance(sessions, bool)
            or not isinstance(sessions, int)
            or not 1 <= sessions <= MAX_OUTCOME_SESSIONS
        ):
            raise _BadRequestError(
                f"sessions must be a whole number from 1 to {MAX_OUTCOME_SESSIONS}"
            )
        health, counts, ingest = await probe(
            self._layout, self._token, ports, counts=with_counts, sessions=sessions
        )
        return {"health": health, "counts": counts, "ingest": ingest}

    async def render(self, body: dict[str, Any]) -> Answer:
        """Tables and markdown drawn by rich for the CLI's terminal, so the CLI need not load
        rich (`squirrel_core.terminal`)."""
        try:
            terminal = Terminal.from_json(body.get("terminal"))
            drawings = check_drawings(body.get("drawings"))
        except ValueError as exc:
            raise _BadRequestError(str(exc)) from None
        return {"drawn": await asyncio.to_thread(render, drawings, terminal)}


class _NoContext:
    """The servicer's methods take a gRPC context and do not use it."""


_NO_CONTEXT: Any = _NoContext()


def _types(names: list[str]) -> list[memory_pb2.MemoryType.ValueType]:
    for name in names:
        if name not in MEMORY_TYPES:
            raise InvalidArgumentError(
                f"unknown memory type {name!r}; one of {', '.join(MEMORY_TYPES)}"
            )
    return [memory_pb2.MemoryType.Value("MEMORY_TYPE_" + n.upper()) for n in names]


class CliRoutes:
    """ASGI: `POST /cli/<route>` answers the CLI; everything else goes on to `app`."""

    def __init__(self, app: ASGIApp, api: CliApi) -> None:
        self._app = app
        self._api = api

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or not path.startswith(CLI_PATH):
            await self._app(scope, receive, send)
            return
        name = path[len(CLI_PATH) :]
        started = time.perf_counter()
        status, answer = await self._answer(scope, name, receive)
        await _respond(send, status, answer)
        log.info(
            "cli_http_finished",
            route=name if name in self._api.routes else "?",
            status=status,
            duration_ms=round((time.perf_counter() - started) * 1000, 2),
        )

    async def _answer(self, scope: Scope, name: str, receive: Receive) -> tuple[int, Answer]:
        route = self._api.routes.get(name)
        if route is None:
            return 404, _error("NOT_FOUND", f"no CLI route {name[:40]!r}")
        if scope.get("method") != "POST":
            return 405, _error("INVALID_ARGUMENT", "POST only")
        raw = await read_body(receive, MAX_BODY_BYTES)
        try:
            body = json.loads(raw) if raw else None
        except (ValueError, RecursionError):  # nested past the parser's depth too
            body = None
        if not isinstance(body, dict):
            return 400, _error("INVALID_ARGUMENT", "the body must be a JSON object")
        try:
            with team_away.collecting() as notes:
                answer = await route(body)
            return 200, {**answer, "team_away": notes} if notes else answer
        except _BadRequestError as exc:
            return 400, _error("INVALID_ARGUMENT", str(exc))
        except SquirrelError as exc:
            return 422, _error(exc.status, str(exc))
        except Exception as exc:
            log.error("cli_http_crashed", route=name, error_type=type(exc).__name__, exc_info=exc)
            return 500, _error("INTERNAL", "internal error; see the service log")


def _error(status: str, message: str) -> Answer:
    return {"error": {"status": status, "message": message}}


async def _respond(send: Send, status: int, answer: Answer) -> None:
    body = json.dumps(answer).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
