"""The vector index of a project on Postgres: pgvector rows beside the memories, HNSW, cosine.

It implements `squirrel_memory.index.VectorIndex` (the FAISS file index is the other one).
The methods block, as FAISS's do: the indexer calls them in a thread. Vectors of every
project and model share `memory_vectors`; an HNSW index per dimension (a partial index on
`embedding::vector(dim)`) serves the nearest-neighbour queries, with pgvector's iterative scans
so that filtering by project still returns `k` rows; `hnsw.ef_search` (the candidates the graph
search keeps) is `storage.postgres_ef_search`, or `k` when asked for more. The graph's `m` and
`ef_construction` (`storage.postgres_hnsw_m`, `storage.postgres_hnsw_ef_construction`) are
those of an index made from then on: an index already built keeps its graph, and the first
index opened with other values logs `hnsw_index_differs` once (docs/team.md says how to
rebuild it). The ids a project
holds are cached in memory (`len`, `in` answer without a query); writes go through this object,
so the cache stays exact, and `open` reloads it.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import structlog
from pgvector.psycopg import register_vector
from psycopg import Connection, sql
from psycopg_pool import ConnectionPool

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.index import Hit, Vector
from squirrel_memory.storage.postgres.hnsw import (
    DEFAULT_EF_CONSTRUCTION,
    DEFAULT_HNSW_M,
    check_hnsw,
)

log = structlog.get_logger()

DEFAULT_EF_SEARCH = 400  # recall@10 0.96 against exact at 100,000 memories (docs/benchmarks.md)
MAX_EF_SEARCH = 1000  # pgvector's own limit
# Indexes whose graph was found to differ from the settings, per pool: said once each.
_DIFFERS_SAID: weakref.WeakKeyDictionary[ConnectionPool, set[str]] = weakref.WeakKeyDictionary()
_DIFFERS_LOCK = threading.Lock()


def _built_with(conn: Connection[Any], name: str) -> tuple[int, int] | None:
    """`m` and `ef_construction` an HNSW index was built with (pgvector's defaults when
    none were given), or None when there is no such index."""
    row = conn.execute(
        "SELECT c.reloptions FROM pg_class c WHERE c.oid = to_regclass(%s)", (name,)
    ).fetchone()
    if row is None:
        return None
    options = dict(str(o).split("=", 1) for o in row[0] or [])
    return (
        int(options.get("m", DEFAULT_HNSW_M)),
        int(options.get("ef_construction", DEFAULT_EF_CONSTRUCTION)),
    )


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
        `m` and `ef_construction`; one already built keeps its own, see `hnsw_index_differs`)."""
        index = cls(
            pool,
            project_id,
            dim,
            model_id,
            ef_search=ef_search,
            m=m,
            ef_construction=ef_construction,
        )
        name = f"memory_vectors_hnsw_{index._dim}"
        with pool.connection() as conn:
            conn.execute(
                sql.SQL(
                    "CREATE INDEX IF NOT EXISTS {name} ON memory_vectors USING hnsw "
                    "((embedding::vector({dim})) vector_cosine_ops) "
                    "WITH (m = {m}, ef_construction = {ef}) WHERE dim = {dim}"
                ).format(
                    name=sql.Identifier(name),
                    dim=index._dim,
                    m=index._m,
                    ef=index._ef_construction,
                )
            )
            index._say_if_differs(pool, conn, name)
            rows = conn.execute(
                "SELECT memory_id FROM memory_vectors WHERE project_id = %s AND model_id = %s "
                "AND dim = %s",
                (project_id, model_id, index._dim),
            ).fetchall()
        index._ids = {str(r[0]) for r in rows}
        return index

    def _say_if_differs(self, pool: ConnectionPool, conn: Connection[Any], name: str) -> None:
        """Logs `hnsw_index_differs` once per pool and index when the index was built with
        other parameters than this one asks for (it is not rebuilt: docs/team.md)."""
        built = _built_with(conn, name)
        if built is None or built == (self._m, self._ef_construction):
            return
        with _DIFFERS_LOCK:
            said = _DIFFERS_SAID.setdefault(pool, set())
            if name in said:
                return
            said.add(name)
        log.warning(
            "hnsw_index_differs",
            index=name,
            built_m=built[0],
            built_ef_construction=built[1],
            setting_m=self._m,
            setting_ef_construction=self._ef_construction,
        )

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
            raise InvalidArgumentError(f"vectors must hold {self._dim} finite numbers")
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
