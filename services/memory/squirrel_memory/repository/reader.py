"""When to read a repository: on registration, after new commits, on demand — once per HEAD.

Reading runs off the event loop; a failure is logged (`repository_read_failed`, error type
only) and leaves the project's memories as they were.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import structlog

from squirrel_memory.models import MemoryCandidate
from squirrel_memory.recipe_join import retire_duplicates
from squirrel_memory.repository.facts import project_facts
from squirrel_memory.repository.recipes import recipes
from squirrel_memory.repository.scan import RepositoryReading, read_repository
from squirrel_memory.repository.snapshot import NotARepositoryError, head_of
from squirrel_memory.repository.sync import SyncReport, sync_repository_memories
from squirrel_memory.storage import Store

log = structlog.get_logger()

#: Skip reasons after which a reading may have missed facts that are still true.
_INCOMPLETE = frozenset({"unreadable", "read_cap_reached"})


def repository_candidates(reading: RepositoryReading) -> list[MemoryCandidate]:
    """The project facts and recipes one reading supports."""
    return [*project_facts(reading), *recipes(reading)]


class RepositoryReader:
    """Reads each project's repository when its HEAD moves and syncs the memories it gives."""

    def __init__(self, user_id: str, *, enabled: bool = True) -> None:
        self._user_id = user_id
        self._enabled = enabled
        """False on a team server: it has no checkout, its projects are ids, not folders."""
        self._heads: dict[str, str] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[SyncReport | None]] = set()

    def last_head(self, project_id: str) -> str | None:
        """The commit the project's memories were last read at (None before the first read)."""
        return self._heads.get(project_id)

    async def refresh(self, store: Store, *, force: bool = False) -> SyncReport | None:
        """Read the repository if HEAD moved since the last read (or `force`); None if skipped."""
        if not self._enabled:
            return None
        project_id = store.project_id
        lock = self._locks.setdefault(project_id, asyncio.Lock())
        async with lock:
            root = Path(project_id)
            head = await asyncio.to_thread(head_of, root)
            if head is None:
                if project_id not in self._heads:
                    log.info("repository_not_read", project_id=project_id, reason="no_git_commits")
                    self._heads[project_id] = ""
                return None
            if not force and self._heads.get(project_id) == head:
                return None
            try:
                reading = await asyncio.to_thread(read_repository, root)
            except NotARepositoryError:
                log.info("repository_not_read", project_id=project_id, reason="no_git_commits")
                return None
            complete = not set(reading.skipped.values()) & _INCOMPLETE
            report = await sync_repository_memories(
                store,
                repository_candidates(reading),
                user_id=self._user_id,
                head=reading.head,
                complete=complete,
            )
            # Session recipes written before this reading that name the same command.
            report.retired += await retire_duplicates(store, user_id=self._user_id)
            self._heads[project_id] = reading.head
            log.info(
                "repository_memories_synced",
                project_id=project_id,
                head=reading.head[:12],
                added=report.added,
                updated=report.updated,
                unchanged=report.unchanged,
                retired=report.retired,
                complete=complete,
            )
            return report

    def schedule(self, store: Store) -> None:
        """Refresh in the background (registration, commit events)."""
        if not self._enabled:
            return
        task = asyncio.create_task(self.refresh_logged(store))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def refresh_logged(self, store: Store) -> SyncReport | None:
        """`refresh`, with any failure logged instead of raised (and None returned)."""
        try:
            return await self.refresh(store)
        except Exception as exc:
            log.warning(
                "repository_read_failed", project_id=store.project_id, error_type=type(exc).__name__
            )
            return None

    async def close(self) -> None:
        """Cancel background reads and wait for them to stop."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
