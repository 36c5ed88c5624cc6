"""Choosing and opening a storage backend: `storage.backend` says which, this opens its stores.

`SqliteBackend` opens one file per project; `PostgresBackend` opens one shared database (a
connection pool) on first use and hands every project a `PostgresStore` over it. The Postgres
driver is imported only when that backend is chosen, so the embedded default needs nothing more.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from squirrel_core.errors import FailedPreconditionError
from squirrel_core.settings import Settings
from squirrel_core.team_listen import is_team_server
from squirrel_memory.storage.base import Store
from squirrel_memory.storage.checks import Clock, utc_now
from squirrel_memory.storage.postgres.hnsw import check_hnsw
from squirrel_memory.storage.sqlite.store import READERS, SqliteStore

if TYPE_CHECKING:
    from squirrel_memory.storage.postgres.database import PostgresDatabase
    from squirrel_memory.storage.postgres.online import Progress


class StoreBackend(Protocol):
    """Opens the store of a project; `close` releases what the backend shares between them."""

    name: str

    async def open_store(self, project_id: str, store_dir: Path | None) -> Store: ...
    async def close(self) -> None: ...


class SqliteBackend:
    """One SQLite file per project (`<store_dir>/data.db`)."""

    name = "sqlite"

    def __init__(
        self, *, clock: Clock = utc_now, readers: int = READERS, per_author: bool = False
    ) -> None:
        self._clock = clock
        self._readers = readers
        self._per_author = per_author
        """A team server's: an event is a duplicate only of one its author stored."""

    async def open_store(self, project_id: str, store_dir: Path | None) -> Store:
        return await SqliteStore.open(
            project_id,
            clock=self._clock,
            readers=self._readers,
            store_dir=store_dir,
            per_author=self._per_author,
        )

    async def close(self) -> None:
        """Each SQLite store closes its own file."""


class PostgresBackend:
    """Every project in one Postgres database, opened (and migrated) on first use."""

    name = "postgres"

    def __init__(
        self,
        dsn: str,
        *,
        pool_size: int = 10,
        ef_search: int | None = None,
        hnsw_graph: tuple[int, int] | None = None,
        clock: Clock = utc_now,
    ) -> None:
        if not dsn.strip():
            raise FailedPreconditionError(
                "storage.backend is postgres but storage.postgres_dsn is empty; "
                "set it with `sqrl config set storage.postgres_dsn postgresql://…`"
            )
        if hnsw_graph is not None:  # checked at start, before any index is made
            check_hnsw(*hnsw_graph)
        self._dsn = dsn
        self._pool_size = pool_size
        self._ef_search = ef_search
        self._hnsw_graph = hnsw_graph
        self._clock = clock
        self._database: PostgresDatabase | None = None
        self._lock = asyncio.Lock()
        self.migrating: Progress | None = None
        """Told how far a schema migration's count of the memories is while the database
        opens (a team server says it to laptops calling meanwhile)."""

    async def database(self) -> PostgresDatabase:
        """The shared database, connecting on first use."""
        async with self._lock:
            if self._database is None:
                try:
                    from squirrel_memory.storage.postgres.database import (  # noqa: PLC0415
                        PostgresDatabase,
                    )
                except ImportError as exc:
                    raise FailedPreconditionError(
                        "storage.backend is postgres but the Postgres driver is not installed; "
                        "install the team extra: pip install 'squirrel[team]'"
                    ) from exc
                tuning = {} if self._ef_search is None else {"ef_search": self._ef_search}
                if self._hnsw_graph is not None:
                    tuning["hnsw_m"], tuning["hnsw_ef_construction"] = self._hnsw_graph
                self._database = await PostgresDatabase.open(
                    self._dsn, max_size=self._pool_size, progress=self.migrating, **tuning
                )
            return self._database

    async def open_store(self, project_id: str, store_dir: Path | None) -> Store:
        from squirrel_memory.storage.postgres.store import PostgresStore  # noqa: PLC0415

        database = await self.database()
        return PostgresStore(project_id, database, store_dir=store_dir, clock=self._clock)

    async def close(self) -> None:
        async with self._lock:
            if self._database is not None:
                await self._database.close()
                self._database = None


def backend_from_settings(settings: Settings, *, clock: Clock = utc_now) -> StoreBackend:
    """The backend `storage.backend` names, configured from the `storage.*` settings."""
    if settings.str_("storage.backend") == "postgres":
        return PostgresBackend(
            settings.str_("storage.postgres_dsn"),
            pool_size=settings.int_("storage.postgres_pool_size"),
            ef_search=settings.int_("storage.postgres_ef_search"),
            hnsw_graph=(
                settings.int_("storage.postgres_hnsw_m"),
                settings.int_("storage.postgres_hnsw_ef_construction"),
            ),
            clock=clock,
        )
    return SqliteBackend(clock=clock, per_author=is_team_server(settings))


class ProjectStores:
    """Opens each project's store once (with the chosen backend) and hands it out by id."""

    def __init__(self, backend: StoreBackend | None = None) -> None:
        self.backend: StoreBackend = backend or SqliteBackend()
        self._stores: dict[str, Store] = {}
        self._lock = asyncio.Lock()

    async def get(self, project_id: str, store_dir: Path | None = None) -> Store:
        """The open store for `project_id`, opening it (in `store_dir`) on first use."""
        async with self._lock:
            store = self._stores.get(project_id)
            if store is None:
                store = await self.backend.open_store(project_id, store_dir)
                self._stores[project_id] = store
            return store

    def open_projects(self) -> list[str]:
        """Ids of the projects whose store is open."""
        return list(self._stores)

    async def close(self) -> None:
        """Close every open store, then what the backend shares."""
        async with self._lock:
            for store in self._stores.values():
                await store.close()
            self._stores.clear()
            await self.backend.close()
