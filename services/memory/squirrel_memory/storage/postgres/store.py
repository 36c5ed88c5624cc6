"""`PostgresStore`: the `Store` of one project in a database shared by every project."""

from __future__ import annotations

from pathlib import Path

from squirrel_core.store_paths import ProjectPaths
from squirrel_memory.index import IndexProblem, VectorIndex
from squirrel_memory.storage.checks import MAX_CONTENT_BYTES, Clock, utc_now
from squirrel_memory.storage.parked_events import SharedParkedEvents
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.events import PostgresEventLog
from squirrel_memory.storage.postgres.manual_batch import PostgresManualBatch
from squirrel_memory.storage.postgres.memories import PostgresMemoryBook
from squirrel_memory.storage.postgres.outcomes import PostgresOutcomeLog
from squirrel_memory.storage.postgres.reads import PostgresMemoryReads
from squirrel_memory.storage.postgres.replies import PostgresKeptReplies
from squirrel_memory.storage.postgres.search import PostgresMemorySearch
from squirrel_memory.storage.postgres.upkeep import PostgresUpkeep
from squirrel_memory.storage.shared_store import SharedStore


class PostgresStore(
    PostgresEventLog,
    PostgresMemoryBook,
    PostgresManualBatch,
    PostgresMemoryReads,
    PostgresMemorySearch,
    PostgresUpkeep,
    PostgresOutcomeLog,
    SharedParkedEvents,
    PostgresKeptReplies,
    SharedStore,
):
    """`Store` over the rows of one project in a shared Postgres database.

    Many stores share one `PostgresDatabase` (its pool); closing a store leaves the database
    open for the others. `store_dir` is a local folder for what stays beside the service
    (views, confirmations).
    """

    def __init__(
        self,
        project_id: str,
        db: PostgresDatabase,
        *,
        store_dir: Path | None = None,
        clock: Clock = utc_now,
        max_content_bytes: int = MAX_CONTENT_BYTES,
    ) -> None:
        super().__init__(project_id, clock=clock, max_content_bytes=max_content_bytes)
        self._db = db
        self._store_dir = store_dir

    @property
    def database(self) -> PostgresDatabase:
        """The shared database this store's rows are in."""
        return self._db

    @property
    def store_dir(self) -> Path:
        """The local folder of this project's views and confirmations."""
        if self._store_dir is None:
            self._store_dir = ProjectPaths.for_project(self.project_id, None).ensure().ctx_dir
        return self._store_dir

    def open_vector_index(self, dim: int, model_id: str) -> tuple[VectorIndex, IndexProblem | None]:
        """This project's vectors in pgvector (blocking: call it from a thread)."""
        from squirrel_memory.storage.postgres.vectors import PgVectorIndex  # noqa: PLC0415

        m, ef_construction = self._db.hnsw_graph
        index = PgVectorIndex.open(
            self._db.vector_pool(),
            self.project_id,
            dim,
            model_id,
            ef_search=self._db.ef_search,
            m=m,
            ef_construction=ef_construction,
        )
        return index, None

    async def close(self) -> None:
        """Nothing to release per project: the shared database is closed by its owner."""
