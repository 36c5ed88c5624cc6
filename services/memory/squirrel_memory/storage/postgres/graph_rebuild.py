"""Rebuilding, once at start, the HNSW indexes whose graph differs from the settings.

When the memory service connects to Postgres, a background thread compares each HNSW index of
`memory_vectors` (`memory_vectors_hnsw_<dim>`) with `storage.postgres_hnsw_m` and
`storage.postgres_hnsw_ef_construction`, and rebuilds one built with other values as
docs/team.md describes: `CREATE INDEX CONCURRENTLY` beside it (writes go on; searches use the
old graph meanwhile), the two names swapped in one transaction (an index of that name exists
at every moment), the old one dropped concurrently. One server of the database rebuilds at a
time (an advisory lock held by the building connection); a server that finds the lock taken
leaves the work to its holder. A build cut short (the server stopped, the connection lost)
leaves a `_new` or `_old` index the next start drops. Each rebuilt index is logged once as
`hnsw_index_rebuilt`; a failure as `hnsw_index_rebuild_failed`, the old index serving on.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import psycopg
import structlog
from psycopg import Connection, sql

from squirrel_memory.storage.postgres.hnsw import PGVECTOR_GRAPH

log = structlog.get_logger()

REBUILD_LOCK_KEY = 0x5371_726C_4853_5721  # beyond int4: never a project's `hashtext` lock
SWAP_LOCK_TIMEOUT = "10s"  # the renames wait this long for searches holding the old index
CONNECT_TIMEOUT_SECONDS = 10
_INDEX_NAME = re.compile(r"memory_vectors_hnsw_(\d+)(_new|_old)?")


def index_name(dim: int) -> str:
    """The HNSW index serving vectors of `dim` dimensions."""
    return f"memory_vectors_hnsw_{dim}"


def built_graph(conn: Connection[Any], name: str) -> tuple[int, int] | None:
    """`m` and `ef_construction` an HNSW index was built with (pgvector's defaults when
    none were given), or None when there is no such index."""
    row = conn.execute("SELECT reloptions FROM pg_class WHERE oid = to_regclass(%s)", (name,))
    found = row.fetchone()
    return None if found is None else _graph(found[0])


def _graph(reloptions: list[str] | None) -> tuple[int, int]:
    options = dict(str(o).split("=", 1) for o in reloptions or [])
    return (
        int(options.get("m", PGVECTOR_GRAPH[0])),
        int(options.get("ef_construction", PGVECTOR_GRAPH[1])),
    )


def create_index(
    conn: Connection[Any], name: str, dim: int, graph: tuple[int, int], *, concurrently: bool
) -> None:
    """Build the HNSW index of `dim` dimensions under `name` with `graph` (`m`,
    `ef_construction`); concurrently, writes go on while it is built."""
    conn.execute(
        sql.SQL(
            "CREATE INDEX {how} IF NOT EXISTS {name} ON memory_vectors USING hnsw "
            "((embedding::vector({dim})) vector_cosine_ops) "
            "WITH (m = {m}, ef_construction = {ef}) WHERE dim = {dim}"
        ).format(
            how=sql.SQL("CONCURRENTLY" if concurrently else ""),
            name=sql.Identifier(name),
            dim=int(dim),
            m=int(graph[0]),
            ef=int(graph[1]),
        )
    )


def _survey(
    conn: Connection[Any], graph: tuple[int, int]
) -> tuple[list[tuple[str, int]], list[str]]:
    """Name and dimension of each HNSW index of `memory_vectors` built with another graph, and
    the names of those a rebuild left behind (`_new`, `_old`)."""
    rows = conn.execute(
        "SELECT c.relname, c.reloptions FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
        "WHERE i.indrelid = to_regclass('memory_vectors')"
    ).fetchall()
    differing, leftovers = [], []
    for name, options in rows:
        match = _INDEX_NAME.fullmatch(str(name))
        if match is None:
            continue
        if match.group(2) is not None:
            leftovers.append(str(name))
        elif _graph(options) != graph:
            differing.append((str(name), int(match.group(1))))
    return sorted(differing), sorted(leftovers)


def _drop(conn: Connection[Any], name: str) -> None:
    conn.execute(
        sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {name}").format(name=sql.Identifier(name))
    )


class GraphRebuild:
    """The background rebuild of one server: started once, waited for or stopped."""

    def __init__(self, dsn: str, graph: tuple[int, int]) -> None:
        self._dsn = dsn
        self._graph = graph
        self._thread = threading.Thread(target=self._run, name="hnsw-rebuild", daemon=True)
        self._conn: Connection[Any] | None = None
        self._stopping = False
        self._lock = threading.Lock()

    def start(self) -> None:
        """Compare the indexes and rebuild those that differ, in a thread of its own."""
        self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the rebuild is done (True) or `timeout` seconds passed (False)."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        """Cancel a build under way (the old index keeps serving) and wait for the thread."""
        with self._lock:
            self._stopping = True
            conn = self._conn
        if conn is not None:
            conn.cancel_safe(timeout=timeout)
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        name = ""
        try:
            with psycopg.connect(
                self._dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS
            ) as conn:
                with self._lock:
                    if self._stopping:
                        return
                    self._conn = conn
                if _survey(conn, self._graph) == ([], []):
                    return
                taken = conn.execute("SELECT pg_try_advisory_lock(%s)", (REBUILD_LOCK_KEY,))
                if not (row := taken.fetchone()) or not row[0]:
                    return  # another server is rebuilding: it holds the lock until done
                differing, leftovers = _survey(conn, self._graph)  # again, under the lock
                for leftover in leftovers:
                    _drop(conn, leftover)
                for name, dim in differing:
                    self._rebuild(conn, name, dim)
        except psycopg.Error as exc:
            log.warning(
                "hnsw_index_rebuild_failed",
                index=name or None,
                error=type(exc).__name__,
                stopped=self._stopping,
            )
        finally:
            with self._lock:
                self._conn = None

    def _rebuild(self, conn: Connection[Any], name: str, dim: int) -> None:
        started = time.monotonic()
        built = built_graph(conn, name)
        new, old = f"{name}_new", f"{name}_old"
        create_index(conn, new, dim, self._graph, concurrently=True)
        with conn.transaction():
            conn.execute(f"SET LOCAL lock_timeout = '{SWAP_LOCK_TIMEOUT}'")
            for before, after in ((name, old), (new, name)):
                conn.execute(
                    sql.SQL("ALTER INDEX {before} RENAME TO {after}").format(
                        before=sql.Identifier(before), after=sql.Identifier(after)
                    )
                )
        _drop(conn, old)
        log.info(
            "hnsw_index_rebuilt",
            index=name,
            built_m=None if built is None else built[0],
            built_ef_construction=None if built is None else built[1],
            m=self._graph[0],
            ef_construction=self._graph[1],
            duration_ms=round((time.monotonic() - started) * 1000),
        )
