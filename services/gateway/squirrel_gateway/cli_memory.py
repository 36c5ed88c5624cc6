"""The CLI's manual memory commands on a laptop joined to a team: remember, forget, confirm,
history and memories, on the team server as MCP's writes and reads are.

Each call goes to the team server under the project's team id, as the laptop's token's user (the
server derives the user from the token), and falls back to local memory when the team server is
not used — refused token, unreachable, TLS, too slow — saying so (`team_away`). A memory id the
team does not hold (NOT_FOUND there) is looked for in local memory without a word: a local
memory's id (a fact read from this checkout) still works. `local` in the body stays local.

A body's switches (`local`, `include_deleted`, and `json` and `counts` of the read routes) are
JSON booleans (`flag`): anything else is refused naming the switch, never read by truthiness
(the string "false" is a true value in Python).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final, TypeVar

from google.protobuf.message import Message

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.memory_shapes import forget_output, history_output, remember_output
from squirrel_core.projects import read_projects, require_project
from squirrel_core.read_shapes import MEMORY_SOURCES, MEMORY_TYPES, memories_output, memory_row
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.team_backend import TeamMemoryBackend

MEMORY_TIMEOUT: Final = 10.0
"""Seconds one local memory call may take (what the CLI's own memory client allows)."""

Answer = dict[str, Any]
M = TypeVar("M", bound=Message)


class BadRequestError(Exception):
    """The body is not what the route takes (the CLI's own client never sends one)."""


class CliMemory:
    """remember, forget, confirm, history and memories for the CLI, team first when joined."""

    def __init__(
        self, local: GrpcMemoryBackend, team: TeamMemoryBackend | None, projects: Path
    ) -> None:
        self._local = local
        self._team = team
        self._projects = projects

    def routes(self) -> dict[str, Callable[[dict[str, Any]], Awaitable[Answer]]]:
        return {
            "remember": self.remember,
            "forget": self.forget,
            "confirm": self.confirm,
            "history": self.history,
            "memories": self.memories,
        }

    def _project(self, body: dict[str, Any]) -> str:
        return require_project(Path(text(body, "project")), read_projects(self._projects))

    async def _run(
        self,
        body: dict[str, Any],
        request: Callable[[str, bool], Message],
        call: Callable[[MemoryClient], Callable[..., Awaitable[M]]],
        *,
        write: bool,
        by_id: bool,
        queue: bool = False,
    ) -> tuple[M, str, str]:
        """(reply, project, where): `request(project id, on the team?)` sent to the team
        server, else to local memory; `where` is "team" or "local". `queue`: a write that went
        to local memory is also queued for the team (`team_outbox`), where it is "queued"."""
        local_only = flag(body, "local")
        project = self._project(body)
        if self._team is not None and not local_only:

            async def on_team(client: MemoryClient, team_id: str) -> M:
                return await client.call(call(client), request(team_id, True))

            reply = await self._team.on_team(
                project, on_team, write=write, queued=queue, quiet_not_found=by_id
            )
            if reply is not None:
                return reply, project, "team"
        client = self._local.client()
        local: M = await client.call(call(client), request(project, False), timeout=MEMORY_TIMEOUT)
        if queue and self._team is not None and not local_only:
            sent = request("", True)
            if isinstance(sent, pb.RememberRequest) and await self._team.queue_remember(
                project, sent
            ):
                return local, project, "queued"
        return local, project, "local"

    async def remember(self, body: dict[str, Any]) -> Answer:
        importance = body.get("importance", 0.0)
        if (
            isinstance(importance, bool)
            or not isinstance(importance, (int, float))
            or not 0.0 <= importance <= 1.0
        ):
            raise InvalidArgumentError("--importance must be between 0 and 1")
        kind = text(body, "type") or "project_fact"
        if kind not in MEMORY_TYPES:
            raise BadRequestError(f"type must be one of {', '.join(MEMORY_TYPES)}")
        # One key for this write on the team server, and for its queued retries.
        once = uuid.uuid4().hex

        def request(project_id: str, on_team: bool) -> pb.RememberRequest:
            return pb.RememberRequest(
                project_id=project_id,
                # The team server derives the user from the token; locally, the CLI's user.
                user_id="" if on_team else text(body, "user_id"),
                type=memory_pb2.MemoryType.Value("MEMORY_TYPE_" + kind.upper()),
                key=text(body, "key"),
                content=text(body, "content"),
                tags=texts(body, "tags"),
                importance=float(importance),
                idempotency_key=once if on_team else "",
            )

        reply, project, where = await self._run(
            body, request, lambda c: c.stub.Remember, write=True, by_id=False, queue=True
        )
        return {"project": project, "where": where, **remember_output(reply)}

    async def forget(self, body: dict[str, Any]) -> Answer:
        memory_id, reason = text(body, "memory_id"), text(body, "reason")
        once = uuid.uuid4().hex
        reply, project, where = await self._run(
            body,
            lambda p, on_team: pb.ForgetRequest(
                project_id=p,
                memory_id=memory_id,
                reason=reason,
                idempotency_key=once if on_team else "",
            ),
            lambda c: c.stub.Forget,
            write=True,
            by_id=True,
        )
        return {"project": project, "where": where, **forget_output(reply)}

    async def confirm(self, body: dict[str, Any]) -> Answer:
        memory_id = text(body, "memory_id")
        once = uuid.uuid4().hex
        reply, project, where = await self._run(
            body,
            lambda p, on_team: pb.ConfirmMemoryRequest(
                project_id=p, memory_id=memory_id, idempotency_key=once if on_team else ""
            ),
            lambda c: c.stub.ConfirmMemory,
            write=True,
            by_id=True,
        )
        return {"project": project, "where": where, "memory": memory_row(reply.memory)}

    async def history(self, body: dict[str, Any]) -> Answer:
        memory_id = text(body, "memory_id")
        reply, project, where = await self._run(
            body,
            lambda p, _: pb.GetMemoryHistoryRequest(project_id=p, memory_id=memory_id),
            lambda c: c.stub.GetMemoryHistory,
            write=False,
            by_id=True,
        )
        return {"project": project, "where": where, **history_output(reply)}

    async def memories(self, body: dict[str, Any]) -> Answer:
        include_deleted = flag(body, "include_deleted")
        source = body.get("source")
        if source is not None and source not in MEMORY_SOURCES:
            raise BadRequestError(f"source must be one of {', '.join(MEMORY_SOURCES)}")
        kinds = texts(body, "types")
        for kind in kinds:
            if kind not in MEMORY_TYPES:
                raise InvalidArgumentError(
                    f"unknown memory type {kind!r}; one of {', '.join(MEMORY_TYPES)}"
                )

        def request(project_id: str, _: bool) -> pb.ListMemoriesRequest:
            return pb.ListMemoriesRequest(
                project_id=project_id,
                types=[memory_pb2.MemoryType.Value("MEMORY_TYPE_" + k.upper()) for k in kinds],
                include_deleted=include_deleted,
                page_size=integer(body, "page_size"),
                page_token=text(body, "page_token"),
                source=memory_pb2.MemorySource.Value(f"MEMORY_SOURCE_{source.upper()}")
                if source
                else memory_pb2.MEMORY_SOURCE_UNSPECIFIED,
            )

        reply, project, where = await self._run(
            body, request, lambda c: c.stub.ListMemories, write=False, by_id=False
        )
        return {"project": project, "where": where, **memories_output(reply)}


def text(body: dict[str, Any], key: str) -> str:
    value = body.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadRequestError(f"{key} must be a string")
    return value


def flag(body: dict[str, Any], key: str) -> bool:
    """A switch of the body: a JSON boolean, False when left out; anything else (the string
    "false", 0, null) is refused naming it."""
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise BadRequestError(f"{key} must be true or false")
    return value


def integer(body: dict[str, Any], key: str) -> int:
    value = body.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not -(2**31) <= value < 2**31:
        raise BadRequestError(f"{key} must be a 32-bit integer")
    return value


def texts(body: dict[str, Any], key: str) -> list[str]:
    value = body.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRequestError(f"{key} must be a list of strings")
    return value
