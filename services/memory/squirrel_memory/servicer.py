"""MemoryService over gRPC: protobuf in, domain calls, protobuf out. No logic lives here."""

from __future__ import annotations

from typing import Any

import structlog

from squirrel.v1 import memory_service_pb2 as pb
from squirrel.v1 import memory_service_pb2_grpc
from squirrel_core.home import HomeLayout
from squirrel_core.projects import read_projects
from squirrel_core.settings import Settings
from squirrel_memory.registry import ProjectRegistry

log = structlog.get_logger()

Context = Any


class MemoryServicer(memory_service_pb2_grpc.MemoryServiceServicer):
    """Maps each RPC to the engine; RPCs not overridden answer UNIMPLEMENTED."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._layout = HomeLayout(settings.home)
        self._registry = ProjectRegistry(self._layout)

    async def start(self) -> None:
        """Opens every registered project before the service reports SERVING."""
        await self._registry.open_all()

    async def close(self) -> None:
        await self._registry.close()

    async def RegisterProject(
        self, request: pb.RegisterProjectRequest, context: Context
    ) -> pb.RegisterProjectResponse:
        project_id, created = await self._registry.register(request.root)
        return pb.RegisterProjectResponse(project_id=project_id, created=created)

    async def ListProjects(
        self, request: pb.ListProjectsRequest, context: Context
    ) -> pb.ListProjectsResponse:
        roots = read_projects(self._layout.projects)
        return pb.ListProjectsResponse(
            projects=[
                pb.Project(project_id=root, available=self._registry.is_available(root))
                for root in roots
            ]
        )
