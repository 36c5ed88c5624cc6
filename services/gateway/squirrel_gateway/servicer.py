"""GatewayService over gRPC: protobuf in, the budgeted responses of the MCP tools, protobuf out."""

from __future__ import annotations

import functools
import math
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc

from squirrel.v1 import (
    gateway_service_pb2,
    gateway_service_pb2_grpc,
    memory_pb2,
    memory_service_pb2,
    views_pb2,
)
from squirrel_core.clients import LOCAL_READS, TEAM_AWAY
from squirrel_core.errors import InvalidArgumentError
from squirrel_gateway import messages, responses, team_away
from squirrel_gateway.arguments import (
    MAX_ID_CHARS,
    MAX_MEMORY_CHARS,
    MAX_REASON_CHARS,
    SEARCH_BUDGET_DEFAULT,
    TASK_BUDGET_DEFAULT,
    VIEW_BUDGET_DEFAULT,
    budget_for,
    optional_text,
    required_text,
    tag_list,
    top_k_for,
)
from squirrel_gateway.backend import MemoryBackend
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.projects import normalise_scope_paths
from squirrel_gateway.responses import Budgeted

Context = grpc.aio.ServicerContext[Any, Any]


R = TypeVar("R")
Method = Callable[[Any, Any, Context], Awaitable[R]]


def _saying_team_away(method: Method[R]) -> Method[R]:
    """The read, and what it said about the team server (`team_away`) as trailing metadata
    for a gRPC caller, and to whoever collects around it (the CLI's HTTP routes)."""

    @functools.wraps(method)
    async def read(self: Any, request: Any, context: Context) -> R:
        with team_away.collecting() as notes:
            reply = await method(self, request, context)
        for line in notes:
            team_away.note(line)
        if notes and hasattr(context, "set_trailing_metadata"):
            ascii_notes = (n.encode("ascii", "replace").decode() for n in notes)
            context.set_trailing_metadata(tuple((TEAM_AWAY, n) for n in ascii_notes))
        return reply

    return read


def _budget(value: int, default: int) -> int:
    """A request's budget: 0 (unset in proto3) means the default; anything else is checked."""
    return budget_for(value or None, None, default)


def _report(answer: Budgeted[Any]) -> views_pb2.BudgetReport:
    return messages.budget_report(
        budget=answer.budget,
        token_estimate=answer.token_estimate,
        shown=answer.shown,
        total=answer.total,
        capped=answer.capped,
    )


class GatewayServicer(gateway_service_pb2_grpc.GatewayServiceServicer):
    """The CLI-facing API. Domain errors raised here travel as their status codes."""

    def __init__(self, backend: GrpcMemoryBackend, reads: MemoryBackend | None = None) -> None:
        self._backend = backend
        self._shared: MemoryBackend = reads or backend
        """Where views, task context and search come from (with a team server: both memories)."""

    def _reads(self, context: Context) -> MemoryBackend:
        """Both memories, or local memory alone when the call carries `LOCAL_READS`."""
        metadata = getattr(context, "invocation_metadata", None)
        if metadata is not None and LOCAL_READS in tuple(metadata() or ()):
            return self._backend
        return self._shared

    @_saying_team_away
    async def GetTaskContext(
        self, request: gateway_service_pb2.GatewayGetTaskContextRequest, context: Context
    ) -> gateway_service_pb2.GatewayGetTaskContextResponse:
        budget = _budget(request.context_budget_tokens, TASK_BUDGET_DEFAULT)
        answer = await responses.task_context(
            self._reads(context),
            project_root=request.project_root,
            task_description=request.task_description,
            active_file_paths=list(request.active_file_paths),
            preferred_memory_types=messages.memory_type_names(
                request.preferred_memory_types, field="preferred_memory_types"
            ),
            user_id=request.user_id or None,
            budget=budget,
        )
        return gateway_service_pb2.GatewayGetTaskContextResponse(
            context=messages.task_context_message(answer.output, _report(answer))
        )

    @_saying_team_away
    async def GetUserStyleView(
        self, request: gateway_service_pb2.GatewayGetUserStyleViewRequest, context: Context
    ) -> gateway_service_pb2.GatewayGetUserStyleViewResponse:
        budget = _budget(request.context_budget_tokens, VIEW_BUDGET_DEFAULT)
        answer = await responses.user_style_view(
            self._reads(context),
            project_root=request.project_root,
            mode=messages.view_mode_name(request.mode),
            user_id=request.user_id or None,
            budget=budget,
        )
        return gateway_service_pb2.GatewayGetUserStyleViewResponse(
            view=messages.user_style_message(answer.output, _report(answer))
        )

    @_saying_team_away
    async def GetProjectBriefView(
        self, request: gateway_service_pb2.GatewayGetProjectBriefViewRequest, context: Context
    ) -> gateway_service_pb2.GatewayGetProjectBriefViewResponse:
        budget = _budget(request.context_budget_tokens, VIEW_BUDGET_DEFAULT)
        answer = await responses.project_brief_view(
            self._reads(context),
            project_root=request.project_root,
            mode=messages.view_mode_name(request.mode),
            budget=budget,
        )
        return gateway_service_pb2.GatewayGetProjectBriefViewResponse(
            view=messages.project_brief_message(answer.output, _report(answer))
        )

    @_saying_team_away
    async def GetPitfallsView(
        self, request: gateway_service_pb2.GatewayGetPitfallsViewRequest, context: Context
    ) -> gateway_service_pb2.GatewayGetPitfallsViewResponse:
        budget = _budget(request.context_budget_tokens, VIEW_BUDGET_DEFAULT)
        answer = await responses.pitfalls_view(
            self._reads(context),
            project_root=request.project_root,
            scope_paths=list(request.scope_paths),
            task_description=request.task_description or None,
            budget=budget,
        )
        return gateway_service_pb2.GatewayGetPitfallsViewResponse(
            view=messages.pitfalls_message(answer.output, _report(answer))
        )

    @_saying_team_away
    async def SearchMemory(
        self, request: gateway_service_pb2.GatewaySearchMemoryRequest, context: Context
    ) -> gateway_service_pb2.GatewaySearchMemoryResponse:
        budget = _budget(request.context_budget_tokens, SEARCH_BUDGET_DEFAULT)
        answer = await responses.search(
            self._reads(context),
            project_root=request.project_root,
            query=request.query,
            top_k=top_k_for(request.top_k),
            types=messages.memory_type_names(request.types, field="types"),
            scope_paths=list(request.scope_paths),
            cursor=request.cursor or None,
            budget=budget,
        )
        output = answer.output
        return gateway_service_pb2.GatewaySearchMemoryResponse(
            search=memory_service_pb2.SearchMemoryResponse(
                query=output.query,
                results=messages.search_result_messages(output.results),
                total_count=output.total,
                next_page_token=output.next_cursor or "",
            ),
            markdown=output.markdown,
            budget=_report(answer),
            next_cursor=output.next_cursor or "",
        )

    async def Remember(
        self, request: gateway_service_pb2.GatewayRememberRequest, context: Context
    ) -> gateway_service_pb2.GatewayRememberResponse:
        memory = request.memory
        content = required_text(memory.content, "memory.content", MAX_MEMORY_CHARS)
        if messages.memory_type_name(memory.type) is None:
            raise InvalidArgumentError(
                "memory.type must be a memory type (MEMORY_TYPE_USER_STYLE, _PROJECT_FACT,"
                " _PITFALL or _RECIPE)."
            )
        if memory.scope not in memory_pb2.MemoryScope.values():
            raise InvalidArgumentError("memory.scope is not a memory scope.")
        if not math.isfinite(memory.importance) or not 0.0 <= memory.importance <= 1.0:
            raise InvalidArgumentError("memory.importance must be between 0.0 and 1.0.")
        key = optional_text(memory.key, "memory.key", MAX_ID_CHARS)
        user = optional_text(memory.user_id, "memory.user_id", MAX_ID_CHARS)
        tags = tag_list(list(memory.tags))
        project_id = await self._backend.resolve_project(request.project_root)
        paths = normalise_scope_paths(
            list(memory.file_paths), project_id, field="memory.file_paths"
        )
        reply = await self._backend.remember_message(
            memory_service_pb2.RememberRequest(
                project_id=project_id,
                user_id=user or "",
                type=memory.type,
                key=key or "",
                content=content,
                tags=tags,
                importance=memory.importance,
                scope=memory.scope,
                file_paths=list(paths),
            )
        )
        return gateway_service_pb2.GatewayRememberResponse(
            memory=reply.memory,
            updated=reply.updated,
            outcome=reply.outcome,
            merged_ids=list(reply.merged_ids),
        )

    async def Forget(
        self, request: gateway_service_pb2.GatewayForgetRequest, context: Context
    ) -> gateway_service_pb2.GatewayForgetResponse:
        memory_id = required_text(request.memory_id, "memory_id", MAX_ID_CHARS)
        reason = optional_text(request.reason, "reason", MAX_REASON_CHARS)
        project_id = await self._backend.resolve_project(request.project_root)
        reply, _ = await self._backend.forget_message(project_id, memory_id, reason)
        return gateway_service_pb2.GatewayForgetResponse(memory=reply.memory)
