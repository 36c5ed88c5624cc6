"""The embedded backend: `SqliteStore` over one project's `data.db`."""

from __future__ import annotations

import asyncio
from pathlib import Path

from squirrel_core.store_paths import ProjectPaths
from squirrel_memory.index import INDEX_FILE_NAME, FaissIndex, IndexProblem, VectorIndex
from squirrel_memory.storage.checks import MAX_CONTENT_BYTES, Clock, utc_now
from squirrel_memory.storage.parked_events import SharedParkedEvents
from squirrel_memory.storage.shared_store import SharedStore
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.events import SqliteEventLog
from squirrel_memory.storage.sqlite.lexical import LexicalIndex
from squirrel_memory.storage.sqlite.manual_batch import SqliteManualBatch
from squirrel_memory.storage.sqlite.memories import SqliteMemoryBook
from squirrel_memory.storage.sqlite.outcomes import SqliteOutcomeLog
from squirrel_memory.storage.sqlite.reads import SqliteMemoryReads
from squirrel_memory.storage.sqlite.replies import SqliteKeptReplies
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS
from squirrel_memory.storage.sqlite.search import SqliteMemorySearch
from squirrel_memory.storage.sqlite.upkeep import SqliteUpkeep

READERS = 3
"""Reader threads per project: a task context reads its lexical hits, its vector hits and the
memories naming its files at once, and none of them should wait behind another."""


class SqliteStore(
    SqliteEventLog,
    SqliteMemoryBook,
    SqliteManualBatch,
    SqliteMemoryReads,
    SqliteMemorySearch,
    SqliteUpkeep,
    SqliteOutcomeLog,
    SharedParkedEvents,
    SqliteKeptReplies,
    SharedStore,
):
    """`Store` over one project's `data.db` (one writer thread, pooled readers).

    Open with `await SqliteStore.open(project_id)`. Methods that take `project_id` check that it
    is this store's project and raise `InvalidArgumentError` otherwise.
    """

    def __init__(
        self,
        project_id: str,
        db: SqliteDatabase,
        *,
        clock: Clock = utc_now,
        max_content_bytes: int = MAX_CONTENT_BYTES,
        lexical_index: bool = True,
        per_author: bool = False,
    ) -> None:
        super().__init__(project_id, clock=clock, max_content_bytes=max_content_bytes)
        self._per_author = per_author
        self._db = db
        self._lexical = LexicalIndex(db.path, db.mapped_problem) if lexical_index else None

    @classmethod
    async def open(
        cls,
        project_id: str,
        *,
        clock: Clock = utc_now,
        max_content_bytes: int = MAX_CONTENT_BYTES,
        readers: int = READERS,
        store_dir: Path | None = None,
        lexical_index: bool = True,
        per_author: bool = False,
    ) -> SqliteStore:
        """Open (creating and migrating as needed) `<store_dir>/data.db` (default
        `<project_id>/.ctx`). Whether the folder is trusted is decided before (`provenance`).

        With `lexical_index`, BM25 searches are answered from an in-memory copy of the search
        index (`sqlite.lexical`), with the same results as FTS5's; it starts building in the
        background now, and FTS5 answers until it is ready. With `per_author` (a team server),
        an event is a duplicate only of one its author stored; a laptop has one user, and the
        same transcript line is the same event whoever the settings say wrote it."""
        paths = ProjectPaths.for_project(project_id, store_dir).ensure()
        db = SqliteDatabase(paths.data_db, DATA_MIGRATIONS, readers=readers)
        try:
            await db.open()
        except BaseException:
            await db.close()
            raise
        store = cls(
            project_id,
            db,
            clock=clock,
            max_content_bytes=max_content_bytes,
            lexical_index=lexical_index,
            per_author=per_author,
        )
        if store._lexical is not None:
            store._lexical.start_build()
        return store

    def wait_lexical_index(self, timeout: float | None = None) -> bool:
        """Wait for the in-memory lexical index's build (benches, tools); whether it is ready.
        Blocks: call it from a thread."""
        return self._lexical is not None and self._lexical.wait_built(timeout)

    @property
    def path(self) -> Path:
        """The database file."""
        return self._db.path

    @property
    def store_dir(self) -> Path:
        """The folder holding the database, its views and its vector index."""
        return self._db.path.parent

    def file_replaced(self) -> bool:
        """Whether the database file open here is gone from its folder (or another put there)."""
        return self._db.file_replaced()

    def write_failure(self) -> tuple[str, float] | None:
        """Why the last write was refused (disk full, file size limit, read-only) and when,
        until a write succeeds again; None when the last write went through."""
        failure = self._db.write_failure
        return (failure.message, failure.at) if failure is not None else None

    async def move_store(self, store_dir: Path) -> None:
        """Copy everything this store holds into `<store_dir>/data.db` (a folder made as `sqrl
        init` makes it) and use that file from now on."""
        paths = ProjectPaths.for_project(self.project_id, store_dir).ensure()
        moved = paths.data_db != self._db.path
        await self._db.move_to(paths.data_db)
        if moved and self._lexical is not None:
            old, self._lexical = self._lexical, LexicalIndex(paths.data_db, self._db.mapped_problem)
            await asyncio.get_running_loop().run_in_executor(None, old.close)
            self._lexical.start_build()

    def open_vector_index(self, dim: int, model_id: str) -> tuple[VectorIndex, IndexProblem | None]:
        """The FAISS file in `<store_dir>/index/`, or an empty one and why the file was not
        usable (blocking: call it from a thread)."""
        path = ProjectPaths(Path(self.project_id), self.store_dir).index_dir / INDEX_FILE_NAME
        return FaissIndex.open(path, dim, model_id)

    async def close(self) -> None:
        """Finish queued writes and close the database."""
        if self._lexical is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._lexical.close)
        await self._db.close()
