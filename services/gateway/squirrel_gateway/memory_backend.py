"""The MemoryBackend over gRPC: squirrel.v1.MemoryService calls, protobuf turned into records."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import structlog

from squirrel.v1 import memory_service_pb2
from squirrel_core.clients import MemoryClient, open_channel, target_of
from squirrel_core.read_shapes import MemoryTypeName
from squirrel_gateway import messages
from squirrel_gateway.backend import (
    ForgetOutcome,
    PitfallsData,
    ProjectBriefData,
    RememberOutcome,
    RememberOutcomeName,
    SearchPage,
    TaskContextData,
    UserStyleData,
    time_left,
)
from squirrel_gateway.projects import normalise_project_root
from squirrel_gateway.schemas import ViewMode

log = structlog.get_logger()

RETRIEVAL_TIMEOUT: Final = 30.0
"""Seconds a retrieval may take (views and reasons may be written by an LLM)."""

MEMORY_TOP_K_MAX: Final = 100
"""The memory service's largest search page."""

REMEMBER_OUTCOMES: Final[dict[int, RememberOutcomeName]] = {
    memory_service_pb2.REMEMBER_OUTCOME_ADDED: "added",
    memory_service_pb2.REMEMBER_OUTCOME_UPDATED: "updated",
    memory_service_pb2.REMEMBER_OUTCOME_MERGED: "merged",
    memory_service_pb2.REMEMBER_OUTCOME_UNCHANGED: "unchanged",
}

ClientSource = MemoryClient | Callable[[], MemoryClient]
RootsSource = Callable[[], Sequence[str]]


class MemoryConnection:
    """A client of the memory service named in its service file, reopened when it moves.

    The file is read on every `client()` call (a few hundred bytes), so a memory service that
    restarted on another port is found without restarting the caller.
    """

    def __init__(self, service_file: Path, token: str, timeout: float = RETRIEVAL_TIMEOUT) -> None:
        self._service_file = service_file
        self._token = token
        self._timeout = timeout
        self._target: str | None = None
        self._client: MemoryClient | None = None
        self._stale: list[MemoryClient] = []

    def client(self) -> MemoryClient:
        """The client for the running memory service; `UnavailableError` when none runs."""
        target = target_of(self._service_file)
        if self._client is None or target != self._target:
            if self._client is not None:
                self._stale.append(self._client)
            self._client = MemoryClient(
                open_channel(target), self._token, self._timeout, service="memory"
            )
            self._target = target
            log.info("memory_channel_opened", target=target)
        return self._client

    async def close(self) -> None:
        for client in [*self._stale, *([self._client] if self._client else [])]:
            await client.close()
        self._stale.clear()
        self._client = None
        self._target = None


class GrpcMemoryBackend:
    """`MemoryBackend` served by the memory service.

    `client` is a `MemoryClient` or a function returning the current one (`MemoryConnection.
    client`); `registered_roots` returns the registered project roots and is called on every
    resolution, so a project registered after start is found. `default_user_id` is sent when a
    call names no user.
    """

    def __init__(
        self,
        client: ClientSource,
        registered_roots: RootsSource,
        *,
        default_user_id: str | None = None,
        timeout: float = RETRIEVAL_TIMEOUT,
        leave_out_stale: bool = False,
    ) -> None:
        self._client = client
        self._roots = registered_roots
        self._default_user = default_user_id or None
        self._timeout = timeout
        self._leave_out_stale = leave_out_stale

    def for_hooks(self) -> GrpcMemoryBackend:
        """This backend as hooks read it: searches leave out stale memories (a session
        contradicted them), as views and task context always do, and the recipes that rest at a
        session start (`views.start_recipes`: the hooks' only searches are the session
        start's)."""
        return GrpcMemoryBackend(
            self._client,
            self._roots,
            default_user_id=self._default_user,
            timeout=self._timeout,
            leave_out_stale=True,
        )

    def client(self) -> MemoryClient:
        return self._client if isinstance(self._client, MemoryClient) else self._client()

    def registered_roots(self) -> list[str]:
        """The registered project roots, read now."""
        return list(self._roots())

    def _user(self, user_id: str | None) -> str:
        return user_id or self._default_user or ""

    async def resolve_project(self, path: str) -> str:
        return normalise_project_root(path, list(self._roots()))

    async def get_task_context(
        self,
        project_id: str,
        *,
        user_id: str | None,
        task_description: str,
        active_file_paths: Sequence[str],
        preferred_memory_types: Sequence[MemoryTypeName],
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> TaskContextData:
        client = self.client()
        reply = await client.call(
            client.stub.GetTaskContext,
            memory_service_pb2.GetTaskContextRequest(
                project_id=project_id,
                user_id=self._user(user_id),
                task_description=task_description,
                active_file_paths=list(active_file_paths),
                context_budget_tokens=budget,
                preferred_memory_types=[
                    messages.memory_type_value(t) for t in preferred_memory_types
                ],
                omit_sources_in=list(omit_sources_in),
            ),
            timeout=time_left(self._timeout),
        )
        context = reply.context
        chosen, skipped = messages.selected_memories(context.selected_memories)
        _log_skipped("get_task_context", skipped)
        return TaskContextData(
            project_id=context.project_id or project_id,
            user_id=context.user_id or user_id,
            task_description=context.task_description or task_description,
            generated_at=messages.to_datetime(context.generated_at, default=_now()),
            has_relevant_memory=context.has_relevant_memory and bool(chosen),
            selected_memories=chosen,
            total=context.budget.items_total,
        )

    async def get_user_style_view(
        self,
        project_id: str,
        *,
        user_id: str | None,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> UserStyleData:
        client = self.client()
        reply = await client.call(
            client.stub.GetUserStyleView,
            memory_service_pb2.GetUserStyleViewRequest(
                project_id=project_id,
                user_id=self._user(user_id),
                mode=messages.view_mode_value(mode),
                context_budget_tokens=budget,
                omit_sources_in=list(omit_sources_in),
            ),
            timeout=time_left(self._timeout),
        )
        view = reply.view
        return UserStyleData(
            mode=mode,
            project_id=view.project_id or project_id,
            user_id=view.user_id or user_id,
            generated_at=messages.to_datetime(view.generated_at, default=_now()),
            items=messages.user_style_items(view.items),
            total=view.budget.items_total,
        )

    async def get_project_brief_view(
        self,
        project_id: str,
        *,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
        live_only: bool = False,
    ) -> ProjectBriefData:
        client = self.client()
        reply = await client.call(
            client.stub.GetProjectBriefView,
            memory_service_pb2.GetProjectBriefViewRequest(
                project_id=project_id,
                mode=messages.view_mode_value(mode),
                context_budget_tokens=budget,
                omit_sources_in=list(omit_sources_in),
                live_only=live_only,
            ),
            timeout=time_left(self._timeout),
        )
        view = reply.view
        return ProjectBriefData(
            mode=mode,
            project_id=view.project_id or project_id,
            generated_at=messages.to_datetime(view.generated_at, default=_now()),
            modules=messages.module_summaries(view.modules),
            key_facts=[str(fact) for fact in view.key_facts],
            total=view.budget.items_total,
            key_fact_memory_ids=[str(i) for i in view.key_fact_memory_ids],
            module_memory_ids=[m.memory_id for m in view.modules],
            key_fact_contributors=[str(name) for name in view.key_fact_contributors],
        )

    async def get_pitfalls_view(
        self,
        project_id: str,
        *,
        scope_paths: Sequence[str],
        task_description: str | None,
        budget: int,
        live_only: bool = False,
    ) -> PitfallsData:
        client = self.client()
        reply = await client.call(
            client.stub.GetPitfallsView,
            memory_service_pb2.GetPitfallsViewRequest(
                project_id=project_id,
                scope_paths=list(scope_paths),
                task_description=task_description or "",
                context_budget_tokens=budget,
                live_only=live_only,
            ),
            timeout=time_left(self._timeout),
        )
        view = reply.view
        items = messages.pitfall_items(view.items)
        return PitfallsData(
            project_id=view.project_id or project_id,
            generated_at=messages.to_datetime(view.generated_at, default=_now()),
            has_relevant_pitfalls=view.has_relevant_pitfalls and bool(items),
            items=items,
            total=view.budget.items_total,
            memory_ids=[item.memory_id for item in view.items],
        )

    async def search_memory(
        self,
        project_id: str,
        *,
        query: str,
        top_k: int,
        types: Sequence[MemoryTypeName],
        scope_paths: Sequence[str],
        cursor: str | None,
    ) -> SearchPage:
        client = self.client()
        reply = await client.call(
            client.stub.SearchMemory,
            memory_service_pb2.SearchMemoryRequest(
                project_id=project_id,
                query=query,
                top_k=max(1, min(top_k, MEMORY_TOP_K_MAX)),
                types=[messages.memory_type_value(t) for t in types],
                scope_paths=list(scope_paths),
                page_token=cursor or "",
                leave_out_stale=self._leave_out_stale,
                # A hook's search is the session start's (its everyday commands): a recipe the
                # last session starts served unused is left out there too.
                leave_out_resting=self._leave_out_stale,
            ),
            timeout=time_left(self._timeout),
        )
        results, skipped = messages.search_results(reply.results)
        _log_skipped("search_memory", skipped)
        return SearchPage(
            query=reply.query or query,
            results=results,
            total=max(0, reply.total_count),
            next_cursor=reply.next_page_token or None,
        )

    async def remember_message(
        self, request: memory_service_pb2.RememberRequest
    ) -> memory_service_pb2.RememberResponse:
        """The memory service's own answer to a Remember (for callers that want the item)."""
        client = self.client()
        if not request.user_id:
            request.user_id = self._user(None)
        return await client.call(client.stub.Remember, request, timeout=time_left(self._timeout))

    async def forget_message(
        self, project_id: str, memory_id: str, reason: str | None, idempotency_key: str = ""
    ) -> tuple[memory_service_pb2.ForgetResponse, bool]:
        """The memory service's answer to a Forget, and whether it deleted the memory now.

        A memory already deleted is looked up, not forgotten again, so its history gets no
        second FORGET entry.
        """
        client = self.client()
        current = await client.call(
            client.stub.GetMemory,
            memory_service_pb2.GetMemoryRequest(project_id=project_id, memory_id=memory_id),
            timeout=time_left(self._timeout),
        )
        if current.memory.deleted:
            return memory_service_pb2.ForgetResponse(memory=current.memory), False
        reply = await client.call(
            client.stub.Forget,
            memory_service_pb2.ForgetRequest(
                project_id=project_id,
                memory_id=memory_id,
                reason=reason or "",
                idempotency_key=idempotency_key,
            ),
            timeout=time_left(self._timeout),
        )
        return reply, not reply.already_forgotten

    async def remember(
        self,
        project_id: str,
        *,
        user_id: str | None,
        memory_type: MemoryTypeName,
        key: str | None,
        content: str,
        tags: Sequence[str],
        importance: float,
        file_paths: Sequence[str],
        idempotency_key: str = "",
    ) -> RememberOutcome:
        """`idempotency_key`: the write's key on a team server (`RememberRequest`)."""
        reply = await self.remember_message(
            memory_service_pb2.RememberRequest(
                project_id=project_id,
                user_id=self._user(user_id),
                type=messages.memory_type_value(memory_type),
                key=key or "",
                content=content,
                tags=list(tags),
                importance=importance,
                file_paths=list(file_paths),
                idempotency_key=idempotency_key,
            )
        )
        outcome = REMEMBER_OUTCOMES.get(reply.outcome, "added")
        return RememberOutcome(
            memory_id=reply.memory.memory_id,
            action="NOOP"
            if outcome == "unchanged"
            else ("UPDATE_EXISTING" if reply.updated else "ADD_NEW"),
            version=max(1, reply.memory.version),
            outcome=outcome,
            merged_ids=tuple(reply.merged_ids),
        )

    async def forget(
        self,
        project_id: str,
        *,
        memory_id: str,
        reason: str | None,
        idempotency_key: str = "",
    ) -> ForgetOutcome:
        """`idempotency_key`: the write's key on a team server (`ForgetRequest`)."""
        reply, deleted = await self.forget_message(project_id, memory_id, reason, idempotency_key)
        return ForgetOutcome(memory_id=reply.memory.memory_id or memory_id, deleted=deleted)


def _now() -> datetime:
    return datetime.now(UTC)


def _log_skipped(call: str, skipped: int) -> None:
    if skipped:
        log.warning("memory_items_skipped", call=call, count=skipped, why="unknown_memory_type")
