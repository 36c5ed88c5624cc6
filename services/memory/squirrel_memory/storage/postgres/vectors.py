"""The vector index of a project on Postgres: pgvector rows beside the memories, HNSW, cosine.

It implements `squirrel_memory.index.VectorIndex` (the FAISS file index is the other one).
The methods block, as FAISS's do: the indexer calls them in a thread. Vectors of every
project and model share `memory_vectors`; an HNSW index per dimension (a partial index on
`embedding::vector(dim)`) serves the nearest-neighbour queries, with pgvector's iterative scans
so that filtering by project still returns `k` rows; `hnsw.ef_search` (the candidates the graph
search keeps) is `storage.postgres_ef_search`, or `k` when asked for more. The graph's `m` and
`ef_construction` (`storage.postgres_hnsw_m`, `storage.postgres_hnsw_ef_construction`) are
those of an index made here; one built with other values is rebuilt at start (`graph_rebuild`).
The ids a project holds are cached in memory (`len`, `in` answer without a query); writes go
through this object, so the cache stays exact, and `open` reloads it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from pgvector.psycopg import register_vector
from psycopg import Connection, sql
from psycopg_pool import ConnectionPool

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.index import Hit, Vector, VectorRefusedError
from squirrel_memory.storage.postgres.graph_rebuild import create_index, index_name
from squirrel_memory.storage.postgres.hnsw import (
    DEFAULT_EF_CONSTRUCTION,
    DEFAULT_HNSW_M,
    check_hnsw,
)

DEFAULT_EF_SEARCH = 400  # recall@10 0.96 against exact at 100,000 memories (docs/benchmarks.md)
MAX_EF_SEARCH = 1000  # pgvector's own limit


def _configure(conn: Connection[Any]) -> None:
    conn.autocommit = True
    register_vector(conn)


def vector_pool(dsn: str, *, max_size: int = 4) -> ConnectionPool:
    """A small blocking pool for vector reads and writes (opened here, closed by its owner)."""
    pool = ConnectionPool(
        dsn, min_size=1, max_size=max_size, open=False, configure=_configure, timeout=10.0
    )
    pool.open(wait=True, timeout=10.0)
    return pool


class PgVectorIndex:
    """Nearest memories of one project by cosine similarity, in pgvector."""

    def __init__(
        self,
        pool: ConnectionPool,
        project_id: str,
        dim: int,
        model_id: str,
        *,
        ef_search: int = DEFAULT_EF_SEARCH,
        m: int = DEFAULT_HNSW_M,
        ef_construction: int = DEFAULT_EF_CONSTRUCTION,
    ) -> None:
        if dim <= 0 or dim > 16_000:
            raise InvalidArgumentError("vector dimension must be from 1 to 16000")
        if not 1 <= ef_search <= MAX_EF_SEARCH:
            raise InvalidArgumentError(f"ef_search must be from 1 to {MAX_EF_SEARCH}")
        check_hnsw(m, ef_construction)
        self._ef_search = int(ef_search)
        self._m = int(m)
        self._ef_construction = int(ef_construction)
        self._pool = pool
        self._project_id = project_id
        self._dim = int(dim)
        self._model_id = model_id
        self._ids: set[str] = set()
        self._lock = threading.Lock()

    @classmethod
    def open(
        cls,
        pool: ConnectionPool,
        project_id: str,
        dim: int,
        model_id: str,
        *,
        ef_search: int = DEFAULT_EF_SEARCH,
        m: int = DEFAULT_HNSW_M,
        ef_construction: int = DEFAULT_EF_CONSTRUCTION,
    ) -> PgVectorIndex:
        """The index of one project for one embedder, its HNSW index made if missing (with
        `m` and `ef_construction`; one built with others is rebuilt at start)."""
        index = cls(
            pool,
            project_id,
            dim,
            model_id,
            ef_search=ef_search,
            m=m,
            ef_construction=ef_construction,
        )
        name = index_name(index._dim)
        with pool.connection() as conn:
            # Looked up first: `CREATE INDEX IF NOT EXISTS` would wait for a rebuild under way.
            if conn.execute("SELECT to_regclass(%s)", (name,)).fetchone() == (None,):
                create_index(conn, name, index._dim, index.graph, concurrently=False)
            rows = conn.execute(
                "SELECT memory_id FROM memory_vectors WHERE project_id = %s AND model_id = %s "
                "AND dim = %s",
                (project_id, model_id, index._dim),
            ).fetchall()
        index._ids = {str(r[0]) for r in rows}
        return index

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def graph(self) -> tuple[int, int]:
        """`m` and `ef_construction` of an HNSW index this one makes."""
        return self._m, self._ef_construction

    @property
    def ef_search(self) -> int:
        """`hnsw.ef_search` of a search for at most this many neighbours."""
        return self._ef_search

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._ids

    def memory_ids(self) -> set[str]:
        """Every memory id the index holds."""
        with self._lock:
            return set(self._ids)

    def _vector(self, value: npt.ArrayLike) -> Vector:
        vector = np.asarray(value, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self._dim or not np.all(np.isfinite(vector)):
            raise VectorRefusedError(f"vectors must hold {self._dim} finite numbers")
        return vector

    def upsert(self, items: Iterable[tuple[str, npt.ArrayLike]]) -> int:
        """Add or replace vectors by memory id; return how many were written."""
        rows = [
            (memory_id, self._project_id, self._model_id, self._dim, self._vector(vector))
            for memory_id, vector in items
        ]
        if not rows:
            return 0
        # One transaction: the pool's connections autocommit, and a commit (a WAL flush) per
        # row made a batch of 500 vectors take seconds.
        with (
            self._lock,
            self._pool.connection() as conn,
            conn.transaction(),
            conn.cursor() as cursor,
        ):
            cursor.executemany(
                "INSERT INTO memory_vectors (memory_id, project_id, model_id, dim, embedding) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (memory_id) DO UPDATE SET "
                "project_id = excluded.project_id, model_id = excluded.model_id, "
                "dim = excluded.dim, embedding = excluded.embedding",
                rows,
            )
            self._ids.update(row[0] for row in rows)
        return len(rows)

    def remove(self, memory_ids: Iterable[str]) -> int:
        """Drop memory ids (unknown ids are ignored); return how many were removed."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return 0
        with self._lock, self._pool.connection() as conn:
            cursor = conn.execute(
                "DELETE FROM memory_vectors WHERE project_id = %s AND memory_id = ANY(%s)",
                (self._project_id, ids),
            )
            self._ids.difference_update(ids)
            return cursor.rowcount

    def search(self, query: npt.ArrayLike, k: int) -> list[Hit]:
        """The `k` nearest memory ids with their cosine similarity, best first."""
        if k <= 0:
            raise InvalidArgumentError("k must be positive")
        vector = self._vector(query)
        if not self._ids:
            return []
        statement = sql.SQL(
            "SELECT memory_id, 1 - (embedding::vector({dim}) <=> %s::vector({dim})) FROM "
            "memory_vectors WHERE dim = {dim} AND project_id = %s AND model_id = %s "
            "ORDER BY embedding::vector({dim}) <=> %s::vector({dim}) LIMIT %s"
        ).format(dim=self._dim)
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SET LOCAL hnsw.iterative_scan = strict_order")
            ef_search = min(max(self._ef_search, k), MAX_EF_SEARCH)
            conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {n}").format(n=ef_search))
            rows = conn.execute(
                statement, (vector, self._project_id, self._model_id, vector, k)
            ).fetchall()
        return [(str(r[0]), float(r[1])) for r in rows]

    def similarities(self, query: npt.ArrayLike, memory_ids: Iterable[str]) -> dict[str, float]:
        """The cosine of `query` to each given memory the index holds (others are left out)."""
        vector = self._vector(query)
        known = [m for m in dict.fromkeys(memory_ids) if m in self._ids]
        if not known:
            return {}
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT memory_id, 1 - (embedding <=> %s) FROM memory_vectors "
                "WHERE project_id = %s AND model_id = %s AND memory_id = ANY(%s)",
                (vector, self._project_id, self._model_id, known),
            ).fetchall()
        return {str(r[0]): float(r[1]) for r in rows}

    def rebuild(self, items: Iterable[tuple[str, npt.ArrayLike]]) -> int:
        """Replace the project's vectors of this model; return the new count."""
        with self._lock, self._pool.connection() as conn:
            conn.execute("DELETE FROM memory_vectors WHERE project_id = %s", (self._project_id,))
            self._ids.clear()
        self.upsert(items)
        return len(self._ids)

    def save(self) -> Path | None:
        """Nothing to do: every write is committed as it happens."""
        return None
