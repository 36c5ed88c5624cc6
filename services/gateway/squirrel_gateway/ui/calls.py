"""The memory and ingest service calls the browser makes beyond the MCP tools' own."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from squirrel.v1 import events_pb2, ingest_service_pb2, memory_pb2, memory_service_pb2
from squirrel_core.clients import IngestClient, open_channel, target_of
from squirrel_gateway.memory_backend import GrpcMemoryBackend

LIST_PAGE: Final = 500
"""Memories one page of the browser lists (the memory service's largest page)."""
PROCESS_TIMEOUT: Final = 120.0
INGEST_TIMEOUT: Final = 5.0

SOURCES: Final[dict[str, memory_pb2.MemorySource.ValueType]] = {
    "rules": memory_pb2.MEMORY_SOURCE_RULES,
    "llm": memory_pb2.MEMORY_SOURCE_LLM,
    "manual": memory_pb2.MEMORY_SOURCE_MANUAL,
}


TOOLS: Final[dict[str, events_pb2.SourceTool.ValueType]] = {
    "claude_code": events_pb2.SOURCE_TOOL_CLAUDE_CODE,
    "codex": events_pb2.SOURCE_TOOL_CODEX,
    "gemini_cli": events_pb2.SOURCE_TOOL_GEMINI_CLI,
    "cursor": events_pb2.SOURCE_TOOL_CURSOR,
    "git": events_pb2.SOURCE_TOOL_GIT,
}


def list_request(
    project_id: str,
    *,
    types: list[memory_pb2.MemoryType.ValueType],
    source: str | None,
    include_deleted: bool,
    tool: str | None = None,
    page: str = "",
) -> memory_service_pb2.ListMemoriesRequest:
    """One page of a project's memories, as the browser lists them."""
    return memory_service_pb2.ListMemoriesRequest(
        project_id=project_id,
        types=types,
        include_deleted=include_deleted,
        page_size=LIST_PAGE,
        source=SOURCES.get(source or "", memory_pb2.MEMORY_SOURCE_UNSPECIFIED),
        source_tool=TOOLS.get(tool or "", events_pb2.SOURCE_TOOL_UNSPECIFIED),
        page_token=page,
    )


class BrowserCalls:
    """List, history, correction and status calls over the gateway's memory connection."""

    def __init__(self, backend: GrpcMemoryBackend, ingest_service_file: Path, token: str) -> None:
        self._backend = backend
        self._ingest_file = ingest_service_file
        self._token = token

    def projects(self) -> list[str]:
        """The registered project roots, as `projects.json` lists them."""
        return self._backend.registered_roots()

    async def list_memories(
        self,
        project_id: str,
        *,
        types: list[memory_pb2.MemoryType.ValueType],
        source: str | None,
        include_deleted: bool,
        tool: str | None = None,
        page: str = "",
    ) -> memory_service_pb2.ListMemoriesResponse:
        client = self._backend.client()
        return await client.call(
            client.stub.ListMemories,
            list_request(
                project_id,
                types=types,
                source=source,
                include_deleted=include_deleted,
                tool=tool,
                page=page,
            ),
        )

    async def history(
        self, project_id: str, memory_id: str
    ) -> memory_service_pb2.GetMemoryHistoryResponse:
        client = self._backend.client()
        return await client.call(
            client.stub.GetMemoryHistory,
            memory_service_pb2.GetMemoryHistoryRequest(project_id=project_id, memory_id=memory_id),
        )

    async def correct(
        self,
        project_id: str,
        memory_id: str,
        *,
        content: str = "",
        importance: float = 0.0,
        reason: str,
    ) -> memory_service_pb2.CorrectMemoryResponse:
        """A manual correction (edit, pin, restore): a new version of the same memory."""
        client = self._backend.client()
        return await client.call(
            client.stub.CorrectMemory,
            memory_service_pb2.CorrectMemoryRequest(
                project_id=project_id,
                memory_id=memory_id,
                content=content,
                importance=importance,
                reason=reason,
            ),
        )

    async def confirm(
        self, project_id: str, memory_id: str
    ) -> memory_service_pb2.ConfirmMemoryResponse:
        """The user vouches for a flagged memory's current text (`sqrl confirm`)."""
        client = self._backend.client()
        return await client.call(
            client.stub.ConfirmMemory,
            memory_service_pb2.ConfirmMemoryRequest(project_id=project_id, memory_id=memory_id),
        )

    async def processing(self) -> memory_service_pb2.GetProcessingStatusResponse:
        client = self._backend.client()
        return await client.call(
            client.stub.GetProcessingStatus, memory_service_pb2.GetProcessingStatusRequest()
        )

    async def retry(self, project_id: str) -> memory_service_pb2.ProcessNowResponse:
        """Processes the project now, parked batches included."""
        client = self._backend.client()
        return await client.call(
            client.stub.ProcessNow,
            memory_service_pb2.ProcessNowRequest(project_id=project_id, drain=True),
            timeout=PROCESS_TIMEOUT,
        )

    async def ingest_status(self) -> ingest_service_pb2.GetIngestStatusResponse:
        """The ingest service's status; `UnavailableError` when it does not run."""
        client = IngestClient(open_channel(target_of(self._ingest_file)), self._token)
        try:
            return await client.call(
                client.stub.GetIngestStatus,
                ingest_service_pb2.GetIngestStatusRequest(),
                timeout=INGEST_TIMEOUT,
            )
        finally:
            await client.close()
