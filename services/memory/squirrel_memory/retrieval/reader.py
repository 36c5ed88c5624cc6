"""What retrieval reads from a project's store: the `MemoryReader` protocol."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from squirrel_memory.models import MemoryItem, MemoryType


class MemoryReader(Protocol):
    """What retrieval reads from a project's store (every `Store` provides it)."""

    project_id: str

    async def search_fts(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[str, float]]: ...
    async def search_fts_memories(
        self,
        project_id: str,
        query: str,
        types: Sequence[MemoryType] | None = None,
        limit: int = 10,
    ) -> list[tuple[MemoryItem, float]]: ...
    async def get_memories(self, memory_ids: Sequence[str]) -> list[MemoryItem]: ...
    async def found_memories(
        self, find: Callable[[], Sequence[tuple[str, float]]]
    ) -> tuple[list[tuple[str, float]], list[MemoryItem]]: ...
    async def found_with_lexical(
        self,
        find: Callable[[], Sequence[tuple[str, float]]],
        project_id: str,
        query: str,
        *,
        types: Sequence[MemoryType] | None,
        limit: int,
        on_lexical: Callable[[list[tuple[MemoryItem, float]]], None],
    ) -> tuple[list[tuple[str, float]], list[MemoryItem], list[tuple[MemoryItem, float]]]: ...
    async def visible_memories(
        self,
        project_id: str,
        memory_type: MemoryType,
        viewer: str | None,
        *,
        limit: int = 50,
        by_importance: bool = False,
    ) -> list[MemoryItem]: ...
    async def memories_with_paths(
        self,
        project_id: str,
        paths: Sequence[str],
        types: Sequence[MemoryType] | None = None,
        limit: int = 200,
    ) -> list[MemoryItem]: ...
    async def memory_keys(self, project_id: str) -> tuple[str, list[tuple[str, str, str]]]: ...
    async def key_mark(self, project_id: str) -> str: ...
    async def list_memories(
        self,
        project_id: str,
        types: Sequence[MemoryType] | None = None,
        include_deleted: bool = False,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[MemoryItem], int]: ...
