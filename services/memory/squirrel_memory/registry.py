"""The projects this memory service serves: registration, and each one's open store."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import structlog

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError, NotFoundError
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project, canonical_root, read_projects
from squirrel_core.store_placement import Location, inspect_store, note_recreated, place_store
from squirrel_memory.bootstrap import init_project_files
from squirrel_memory.storage import ProjectStores, SqliteStore, Store

log = structlog.get_logger()


class ProjectRegistry:
    """Knows the registered roots (`projects.json`, re-read on use) and opens their stores.

    Every store is placed by `provenance.place_store` before it is opened: only a folder this
    home made is read; a foreign one is set aside first. An open store whose file was deleted
    (its folder with it: `git clean -fdx`) is placed again the same way when next used, and
    everything the service still holds of it is copied in (`_make_again`).
    """

    def __init__(
        self,
        layout: HomeLayout,
        location: Location = Location.REPO,
        stores: ProjectStores | None = None,
    ) -> None:
        self._layout = layout
        self._location = location
        self._lock = asyncio.Lock()
        self._stores = stores or ProjectStores()
        self._on_open: list[Callable[[Store], Awaitable[None]]] = []
        #: Projects `open_stores` could not open, and why: each is warned once, not every round.
        self._unavailable: dict[str, str] = {}

    def on_open(self, callback: Callable[[Store], Awaitable[None]]) -> None:
        """Run `callback` once for every store this registry opens (e.g. to attach an index)."""
        self._on_open.append(callback)

    def roots(self) -> list[str]:
        return read_projects(self._layout.projects)

    def is_available(self, root: str) -> bool:
        """Whether the project's store exists and is this home's (or is open already)."""
        if root in self._stores.open_projects():
            return True
        try:
            state = inspect_store(self._layout, root)
        except FailedPreconditionError:
            return False
        return state.trusted and (state.store_dir / "data.db").exists()

    def require(self, project_id: str) -> str:
        """`project_id` if registered, else NotFound saying how to register it."""
        if not project_id:
            raise InvalidArgumentError("project_id is required")
        if project_id not in self.roots():
            raise NotFoundError(
                f"No project is registered at {project_id}; "
                "run `sqrl init` in the repository first."
            )
        return project_id

    async def store(self, project_id: str) -> Store:
        """The open store of a registered project."""
        self.require(project_id)
        if not await asyncio.to_thread(Path(project_id).is_dir):
            raise NotFoundError(
                f"the project folder {project_id} is gone; "
                f"re-create it or forget it (`sqrl projects --forget {project_id}`)"
            )
        fresh = project_id not in self._stores.open_projects()
        if not fresh:
            store = await self._stores.get(project_id)
            if isinstance(store, SqliteStore) and store.file_replaced():
                await self._make_again(store)
            return store
        store_dir = None
        if fresh:
            placement = await asyncio.to_thread(
                place_store,
                self._layout,
                project_id,
                location=self._location,
                registered_before=True,
            )
            store_dir = placement.store_dir
            if placement.notice:
                log.warning("store_not_trusted", project_id=project_id, store=str(store_dir))
        store = await self._stores.get(project_id, store_dir)
        if fresh:
            for callback in self._on_open:
                await callback(store)
        return store

    async def _make_again(self, store: SqliteStore) -> None:
        """The store's folder was deleted while it was open: place it again as `sqrl init`
        would (anything now in its place is set aside, never read), copy in everything this
        service still holds of it, and say so in the log and in `sqrl status`."""
        async with self._lock:
            if not store.file_replaced():  # another call made it again meanwhile
                return
            project_id = store.project_id
            try:
                placement = await asyncio.to_thread(
                    place_store,
                    self._layout,
                    project_id,
                    location=self._location,
                    registered_before=True,
                )
                await store.move_store(placement.store_dir)
            except OSError as exc:
                log.warning("store_not_recreated", project_id=project_id, error_type="OSError")
                raise FailedPreconditionError(
                    f"{store.store_dir} was deleted and cannot be made again"
                    f" ({exc.strerror or exc}); what this project's memory service holds is"
                    " kept until it stops: fix the folder's permissions and call again"
                ) from None
            when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
            notice = (
                f"{placement.store_dir} was deleted while the services ran; made again at"
                f" {when} with everything the memory service still held"
            )
            await asyncio.to_thread(note_recreated, self._layout, project_id, notice)
            log.warning(
                "store_recreated",
                project_id=project_id,
                store=str(placement.store_dir),
                set_aside=placement.notice is not None,
            )

    async def open_stores(self) -> list[Store]:
        """Stores of every registered project whose folder exists (opening new ones)."""
        stores = []
        for root in self.roots():
            try:
                stores.append(await self.store(root))
            except (FailedPreconditionError, NotFoundError, InvalidArgumentError) as exc:
                why = type(exc).__name__
                if self._unavailable.get(root) != why:  # the loops ask every round: say it once
                    self._unavailable[root] = why
                    log.warning("project_unavailable", project_id=root, error_type=why)
            else:
                self._unavailable.pop(root, None)
        return stores

    async def open_all(self) -> None:
        await self.open_stores()

    async def register(self, root_text: str) -> tuple[str, bool]:
        root = canonical_root(root_text)
        if not root.is_dir():
            raise InvalidArgumentError(f"{root} is not a directory")
        async with self._lock:
            before = str(root) in self.roots()
            placement = await asyncio.to_thread(
                place_store,
                self._layout,
                str(root),
                location=self._location,
                registered_before=before,
            )
            await asyncio.to_thread(init_project_files, root, placement.store_dir)
            created = await asyncio.to_thread(add_project, self._layout.projects, root)
        await self.store(str(root))
        return str(root), created

    async def close(self) -> None:
        await self._stores.close()
