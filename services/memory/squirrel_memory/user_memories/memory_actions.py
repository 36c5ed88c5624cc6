"""What a user does to a project's memories through the engine: forget, correct, confirm, read
one with its history and source events, list them, and the handles that name them (`HandleBook`,
one per open store); the memory named is found as `lookup` finds it (part of `MemoryEngine`)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence

import structlog

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError
from squirrel_core.read_shapes import MAX_PAGE_SIZE
from squirrel_core.redaction import redact
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, MemoryVersion, StoredEvent
from squirrel_memory.registry import ProjectRegistry
from squirrel_memory.storage import Store
from squirrel_memory.user_memories.handle_book import HandleBook
from squirrel_memory.user_memories.lookup import handles_of, require_memory
from squirrel_memory.user_memories.privacy import filtering, visible

log = structlog.get_logger()


class MemoryActions:
    """A user's actions on one project's memories; the engine gives the registry of stores and
    keeps a `HandleBook` per project (`_handle_books`, closed with the engine)."""

    registry: ProjectRegistry
    _handle_books: dict[str, HandleBook]

    async def forget(self, project_id: str, memory_id: str, reason: str) -> tuple[MemoryItem, bool]:
        """The memory marked deleted, and whether it already was (then nothing changes)."""
        store = await self.registry.store(project_id)
        item = await require_memory(store, memory_id)
        if item.deleted:
            return item, True
        return await store.forget(item.id, reason or "forgotten by the user"), False

    async def correct(
        self,
        project_id: str,
        memory_id: str,
        *,
        content: str,
        importance: float,
        reason: str,
    ) -> tuple[MemoryItem, bool]:
        """The user's correction of one memory (empty content / importance 0: kept)."""
        if not 0.0 <= importance <= 1.0:
            raise InvalidArgumentError("importance must be between 0 and 1")
        store = await self.registry.store(project_id)
        item = await require_memory(store, memory_id)
        clean = redact(content)[0] if content.strip() else None
        return await store.correct(
            item.id,
            content=clean,
            importance=importance if importance > 0 else None,
            reason=reason,
        )

    async def get(self, project_id: str, memory_id: str) -> MemoryItem:
        store = await self.registry.store(project_id)
        return await require_memory(store, memory_id)

    async def confirm(self, project_id: str, memory_id: str) -> MemoryItem:
        """The user vouches for the memory's current content (see `squirrel_core.hazards`)."""
        store = await self.registry.store(project_id)
        item = await require_memory(store, memory_id)
        if item.deleted:
            raise FailedPreconditionError(f"memory {memory_id} is forgotten; nothing to confirm")
        await asyncio.to_thread(store.confirmations.confirm, item)
        log.info("memory_confirmed", project_id=project_id, memory_id=memory_id)
        return item

    async def confirmed(self, project_id: str, items: Sequence[MemoryItem]) -> set[str]:
        """Ids of `items` whose current content the user confirmed."""
        store = await self.registry.store(project_id)
        return {m.id for m in items if store.confirmations.is_confirmed(m)}

    async def handles(self, project_id: str) -> dict[str, str]:
        """Each memory id of the project and its handle (`squirrel_core.handles`)."""
        store = await self.registry.store(project_id)
        return await handles_of(store)

    async def handles_for(self, project_id: str, memory_ids: Iterable[str]) -> dict[str, str]:
        """The handles of `memory_ids` only, each as `handles` gives it (`HandleBook`)."""
        store = await self.registry.store(project_id)
        return await self.handle_book(store).handles(memory_ids)

    def handle_book(self, store: Store) -> HandleBook:
        """The one `HandleBook` of `store` (a new one when the project's store was reopened)."""
        book = self._handle_books.get(store.project_id)
        if book is None or book.store is not store:
            if book is not None:
                book.close()
            book = self._handle_books[store.project_id] = HandleBook(store)
        return book

    async def history(
        self, project_id: str, memory_id: str
    ) -> tuple[MemoryItem, list[MemoryVersion]]:
        store = await self.registry.store(project_id)
        item = await require_memory(store, memory_id)
        return item, await store.history(item.id)

    async def source_events(self, project_id: str, event_ids: Sequence[str]) -> list[StoredEvent]:
        """The stored events with these ids (unknown ones skipped), oldest first."""
        store = await self.registry.store(project_id)
        return await store.get_events(event_ids)

    async def list(
        self,
        project_id: str,
        *,
        types: list[MemoryType] | None,
        include_deleted: bool,
        page_size: int,
        offset: int,
        source: MemorySource | None,
        source_tool: str | None = None,
    ) -> tuple[list[MemoryItem], int]:
        if page_size < 0 or page_size > MAX_PAGE_SIZE:
            raise InvalidArgumentError(f"page_size must be between 1 and {MAX_PAGE_SIZE}")
        size = page_size or 50
        store = await self.registry.store(project_id)
        if source is None and source_tool is None and not filtering():
            return await store.list_memories(project_id, types, include_deleted, size, offset)
        from_tool = await store.memory_ids_from_tool(source_tool) if source_tool else None
        everything: list[MemoryItem] = []
        start = 0
        while True:
            page, total = await store.list_memories(
                project_id, types, include_deleted, MAX_PAGE_SIZE, start
            )
            everything.extend(
                m
                for m in page
                if (source is None or m.source is source)
                and (from_tool is None or m.id in from_tool)
                and visible(m)
            )
            start += len(page)
            if not page or start >= total:
                break
        return everything[offset : offset + size], len(everything)
