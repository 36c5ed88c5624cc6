"""A fake squirrel.v1.MemoryService on a real grpc.aio server: canned retrievals, recorded calls."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from squirrel.v1 import memory_pb2, memory_service_pb2, memory_service_pb2_grpc, views_pb2
from squirrel_core.auth import ensure_token
from squirrel_core.errors import NotFoundError, SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.rpc import GrpcService
from squirrel_core.settings import Settings

Context = grpc.aio.ServicerContext[Any, Any]

GENERATED_AT = datetime(2025, 11, 25, 10, 21, tzinfo=UTC)
PROJECT_FACT = memory_pb2.MEMORY_TYPE_PROJECT_FACT
USER_STYLE = memory_pb2.MEMORY_TYPE_USER_STYLE


def _stamp() -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(GENERATED_AT)
    return stamp


def selected(n: int, content: str = "Prefers async/await for I/O-bound handlers.") -> Any:
    return views_pb2.SelectedMemory(
        memory_id=f"mem_{n}",
        type=USER_STYLE,
        key=f"pref_{n}",
        content=f"{content} ({n})",
        importance=0.9,
        reason="The task adds an HTTP endpoint.",
        score=0.9 - n / 100,
    )


def search_hit(n: int) -> Any:
    return views_pb2.SearchResult(
        memory_id=f"mem_{n}",
        type=PROJECT_FACT,
        key=f"fact_{n}",
        content=f"Auth uses JWT tokens via /login ({n}).",
        tags=["auth"],
        importance=0.8,
        recency_days=n,
        score=round(1.0 - n / 1000, 3),
        reason="Mentions JWT, as the query does.",
        source=views_pb2.ResultSource(episode_ids=[f"ep_{n}"], file_paths=["src/auth.py"]),
    )


@dataclass
class FakeMemoryServicer(memory_service_pb2_grpc.MemoryServiceServicer):
    """Answers retrievals from the lists it holds; pages search by `offset:N` tokens."""

    selected: list[Any] = field(default_factory=lambda: [selected(i) for i in range(12)])
    style_items: list[Any] = field(
        default_factory=lambda: [
            views_pb2.UserStyleItem(
                key=f"style_{i}",
                summary=f"Uses pytest fixtures for setup, never unittest classes ({i}).",
                tags=["python", "testing"],
                importance=0.8,
                last_updated_at=_stamp(),
                source_memory_ids=[f"mem_{i}"],
            )
            for i in range(10)
        ]
    )
    key_facts: list[str] = field(
        default_factory=lambda: [
            f"Framework: FastAPI with async SQLAlchemy ({i})" for i in range(6)
        ]
    )
    modules: list[Any] = field(
        default_factory=lambda: [
            views_pb2.ProjectModule(name=f"API {i}", paths=["routes/*.py"], summary="Endpoints.")
            for i in range(4)
        ]
    )
    pitfalls: list[Any] = field(
        default_factory=lambda: [
            views_pb2.PitfallItem(
                key=f"pitfall_{i}",
                content=f"JWT tokens expire after 1 hour; refresh logic needed ({i}).",
                tags=["auth"],
                importance=0.8,
                file_paths=["src/auth.py"],
                memory_id=f"mem_p{i}",
            )
            for i in range(8)
        ]
    )
    results: list[Any] = field(default_factory=lambda: [search_hit(i) for i in range(23)])
    memories: dict[str, Any] = field(default_factory=dict)
    requests: list[tuple[str, Any]] = field(default_factory=list)
    fail_with: SquirrelError | None = None

    def _record(self, method: str, request: Any) -> None:
        self.requests.append((method, request))
        if self.fail_with is not None:
            raise self.fail_with

    def calls(self, method: str) -> list[Any]:
        return [r for m, r in self.requests if m == method]

    async def GetTaskContext(self, request: Any, context: Context) -> Any:
        self._record("GetTaskContext", request)
        return memory_service_pb2.GetTaskContextResponse(
            context=views_pb2.TaskContext(
                project_id=request.project_id,
                user_id=request.user_id,
                task_description=request.task_description,
                generated_at=_stamp(),
                has_relevant_memory=bool(self.selected),
                selected_memories=self.selected,
                markdown="ignored by the gateway",
            )
        )

    async def GetUserStyleView(self, request: Any, context: Context) -> Any:
        self._record("GetUserStyleView", request)
        return memory_service_pb2.GetUserStyleViewResponse(
            view=views_pb2.UserStyleView(
                mode=request.mode,
                project_id=request.project_id,
                user_id=request.user_id,
                generated_at=_stamp(),
                items=self.style_items,
            )
        )

    async def GetProjectBriefView(self, request: Any, context: Context) -> Any:
        self._record("GetProjectBriefView", request)
        return memory_service_pb2.GetProjectBriefViewResponse(
            view=views_pb2.ProjectBriefView(
                mode=request.mode,
                project_id=request.project_id,
                generated_at=_stamp(),
                modules=self.modules,
                key_facts=self.key_facts,
            )
        )

    async def GetPitfallsView(self, request: Any, context: Context) -> Any:
        self._record("GetPitfallsView", request)
        return memory_service_pb2.GetPitfallsViewResponse(
            view=views_pb2.PitfallsView(
                project_id=request.project_id,
                generated_at=_stamp(),
                has_relevant_pitfalls=bool(self.pitfalls),
                items=self.pitfalls,
            )
        )

    async def SearchMemory(self, request: Any, context: Context) -> Any:
        self._record("SearchMemory", request)
        start = 0
        if request.page_token:
            if not request.page_token.startswith("offset:"):
                raise NotFoundError("unknown page token")
            start = int(request.page_token[7:])
        wanted = set(request.types)
        matches = [r for r in self.results if not wanted or r.type in wanted]
        page = matches[start : start + (request.top_k or 5)]
        end = start + len(page)
        return memory_service_pb2.SearchMemoryResponse(
            query=request.query,
            results=page,
            total_count=len(matches),
            next_page_token=f"offset:{end}" if end < len(matches) else "",
        )

    async def Remember(self, request: Any, context: Context) -> Any:
        self._record("Remember", request)
        existing = next(
            (
                m
                for m in self.memories.values()
                if m.type == request.type and m.key == request.key and request.key
            ),
            None,
        )
        memory_id = existing.memory_id if existing else f"mem_m{len(self.memories)}"
        item = memory_pb2.MemoryItem(
            memory_id=memory_id,
            project_id=request.project_id,
            user_id=request.user_id,
            type=request.type,
            key=request.key or "slug",
            content=request.content,
            tags=request.tags,
            importance=request.importance or 0.8,
            source=memory_pb2.MEMORY_SOURCE_MANUAL,
            file_paths=request.file_paths,
            version=existing.version + 1 if existing else 1,
        )
        self.memories[memory_id] = item
        return memory_service_pb2.RememberResponse(
            memory=item,
            updated=existing is not None,
            outcome=memory_service_pb2.REMEMBER_OUTCOME_UPDATED
            if existing
            else memory_service_pb2.REMEMBER_OUTCOME_ADDED,
        )

    async def GetMemory(self, request: Any, context: Context) -> Any:
        self._record("GetMemory", request)
        if request.memory_id not in self.memories:
            raise NotFoundError(f"no memory {request.memory_id}")
        return memory_service_pb2.GetMemoryResponse(memory=self.memories[request.memory_id])

    async def Forget(self, request: Any, context: Context) -> Any:
        self._record("Forget", request)
        if request.memory_id not in self.memories:
            raise NotFoundError(f"no memory {request.memory_id}")
        item = self.memories[request.memory_id]
        item.deleted = True
        item.version += 1
        return memory_service_pb2.ForgetResponse(memory=item)


def register_projects(settings: Settings, roots: Sequence[str]) -> None:
    """Writes the home's `projects.json` with these roots."""
    layout = HomeLayout(settings.home).ensure()
    layout.projects.write_text(json.dumps({"projects": list(roots)}))


@asynccontextmanager
async def running_fake_memory(
    settings: Settings, servicer: FakeMemoryServicer | None = None
) -> AsyncIterator[tuple[FakeMemoryServicer, GrpcService]]:
    """The fake on 127.0.0.1:0 with health, auth and the home's memory service file."""
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    fake = servicer or FakeMemoryServicer()  # type: ignore[abstract]
    service = GrpcService("memory", token, 0, layout.service_file("memory"))
    name = memory_service_pb2.DESCRIPTOR.services_by_name["MemoryService"].full_name

    def register(server: grpc.aio.Server) -> list[str]:
        memory_service_pb2_grpc.add_MemoryServiceServicer_to_server(fake, server)
        return [name]

    service.add(register)
    await service.start()
    await service.set_serving()
    try:
        yield fake, service
    finally:
        await service.stop(grace=0)
