"""The read side of the memory service: views, task context, search and the vector index."""

from __future__ import annotations

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.settings import Settings
from squirrel_memory.engine import MemoryEngine


class ReadSide:
    """Answers the retrieval RPCs for every project of the engine."""

    def __init__(self, engine: MemoryEngine, settings: Settings) -> None:
        self._engine = engine
        self._settings = settings
        self.embedder_ready = False

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def user_style_view(
        self, request: pb.GetUserStyleViewRequest
    ) -> pb.GetUserStyleViewResponse:
        raise NotImplementedError

    async def project_brief_view(
        self, request: pb.GetProjectBriefViewRequest
    ) -> pb.GetProjectBriefViewResponse:
        raise NotImplementedError

    async def pitfalls_view(self, request: pb.GetPitfallsViewRequest) -> pb.GetPitfallsViewResponse:
        raise NotImplementedError

    async def task_context(self, request: pb.GetTaskContextRequest) -> pb.GetTaskContextResponse:
        raise NotImplementedError

    async def search(self, request: pb.SearchMemoryRequest) -> pb.SearchMemoryResponse:
        raise NotImplementedError

    async def reindex(self, request: pb.ReindexRequest) -> pb.ReindexResponse:
        raise NotImplementedError
