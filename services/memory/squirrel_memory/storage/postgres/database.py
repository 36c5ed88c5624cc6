"""One Postgres database behind a psycopg 3 async connection pool, errors mapped once."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
import structlog
from psycopg import AsyncConnection
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import AsyncConnectionPool, ConnectionPool, PoolTimeout

from squirrel_core.errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    SquirrelError,
    UnavailableError,
)
from squirrel_memory.storage.postgres.graph_rebuild import GraphRebuild
from squirrel_memory.storage.postgres.hnsw import DEFAULT_EF_CONSTRUCTION, DEFAULT_HNSW_M
from squirrel_memory.storage.postgres.online import Progress
from squirrel_memory.storage.postgres.schema import migrate
from squirrel_memory.storage.postgres.vectors import DEFAULT_EF_SEARCH

log = structlog.get_logger()

CONNECT_TIMEOUT_SECONDS = 10.0


def describe_dsn(dsn: str) -> str:
    """`host:port/dbname` of a DSN, for logs and messages: never the user or the password."""
    try:
        parts = conninfo_to_dict(dsn)
    except psycopg.ProgrammingError:
        return "(unreadable DSN)"
    host = str(parts.get("host") or "localhost")
    port = str(parts.get("port") or "5432")
    return f"{host}:{port}/{parts.get('dbname') or ''}"


def _mapped(exc: psycopg.Error) -> SquirrelError:
    if isinstance(exc, psycopg.DataError):
        return InvalidArgumentError(f"the database refused a value ({type(exc).__name__})")
    if isinstance(exc, psycopg.OperationalError):
        return UnavailableError(f"the Postgres database is unavailable ({type(exc).__name__})")
    return FailedPreconditionError(
        f"the Postgres database refused a statement ({type(exc).__name__})"
    )


async def _configure(conn: AsyncConnection) -> None:
    """Every pooled connection: autocommit outside `transaction()`, times read back in UTC."""
    await conn.set_autocommit(True)
    await conn.execute("SET TIME ZONE 'UTC'")


class PostgresDatabase:
    """A pool of connections to one database; `transaction()` hands out one in a transaction."""

    def __init__(
        self,
        pool: AsyncConnectionPool,
        where: str,
        dsn: str = "",
        *,
        vector_pool_size: int = 4,
        ef_search: int = DEFAULT_EF_SEARCH,
        hnsw_m: int = DEFAULT_HNSW_M,
        hnsw_ef_construction: int = DEFAULT_EF_CONSTRUCTION,
    ) -> None:
        self._pool = pool
        self.ef_search = ef_search
        """`hnsw.ef_search` of the vector indexes' searches (`storage.postgres_ef_search`)."""
        self.hnsw_graph = (hnsw_m, hnsw_ef_construction)
        """`m` and `ef_construction` of an HNSW index made from now on
        (`storage.postgres_hnsw_m`, `storage.postgres_hnsw_ef_construction`)."""
        self._vector_pool_size = max(1, vector_pool_size)
        self.where = where
        self._dsn = dsn
        self._vector_pool: ConnectionPool | None = None
        self._vector_lock = threading.Lock()
        self.graph_rebuild: GraphRebuild | None = None
        """The rebuild of the HNSW indexes built with another graph, started by `open`."""

    def vector_pool(self) -> ConnectionPool:
        """The blocking pool the vector indexes share (pgvector adapters registered), made on
        first use with as many connections as the rows' pool (`storage.postgres_pool_size`);
        it blocks, so call it from a thread."""
        with self._vector_lock:
            if self._vector_pool is None:
                from squirrel_memory.storage.postgres.vectors import vector_pool  # noqa: PLC0415

                try:
                    self._vector_pool = vector_pool(self._dsn, max_size=self._vector_pool_size)
                except PoolTimeout as exc:
                    raise UnavailableError(f"cannot connect to Postgres at {self.where}") from exc
            return self._vector_pool

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        ef_search: int = DEFAULT_EF_SEARCH,
        hnsw_m: int = DEFAULT_HNSW_M,
        hnsw_ef_construction: int = DEFAULT_EF_CONSTRUCTION,
        progress: Progress | None = None,
    ) -> PostgresDatabase:
        """Bring the schema to this version (`schema.migrate`: a count of the memories runs
        in batches while other servers write, telling `progress` how far it is), then open
        the pool."""
        if not isinstance(dsn, str) or not dsn.strip():
            raise FailedPreconditionError("storage.postgres_dsn is empty; set it to a Postgres DSN")
        where = describe_dsn(dsn)
        try:
            conninfo_to_dict(dsn)
        except psycopg.ProgrammingError as exc:
            raise FailedPreconditionError(
                "storage.postgres_dsn is not a valid Postgres DSN"
            ) from exc
        try:
            async with await psycopg.AsyncConnection.connect(
                dsn, autocommit=True, connect_timeout=int(CONNECT_TIMEOUT_SECONDS)
            ) as conn:
                version = await migrate(conn, progress=progress)
        except psycopg.OperationalError as exc:
            raise UnavailableError(f"cannot connect to Postgres at {where}") from exc
        except psycopg.Error as exc:
            raise _mapped(exc) from exc
        pool = AsyncConnectionPool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            open=False,
            timeout=CONNECT_TIMEOUT_SECONDS,
            kwargs={"connect_timeout": int(CONNECT_TIMEOUT_SECONDS)},
            configure=_configure,
        )
        try:
            await pool.open(wait=True, timeout=CONNECT_TIMEOUT_SECONDS)
        except PoolTimeout as exc:
            await pool.close()
            raise UnavailableError(f"cannot connect to Postgres at {where}") from exc
        db = cls(
            pool,
            where,
            dsn,
            vector_pool_size=max_size,
            ef_search=ef_search,
            hnsw_m=hnsw_m,
            hnsw_ef_construction=hnsw_ef_construction,
        )
        log.info("postgres_opened", where=where, schema_version=version, max_size=max_size)
        db.graph_rebuild = GraphRebuild(dsn, db.hnsw_graph)
        db.graph_rebuild.start()
        return db

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A pooled connection inside one transaction (committed on success, else rolled back)."""
        try:
            async with self._pool.connection() as conn, conn.transaction():
                yield conn
        except PoolTimeout as exc:
            raise UnavailableError(f"no Postgres connection free at {self.where}") from exc
        except psycopg.Error as exc:
            raise _mapped(exc) from exc

    async def close(self) -> None:
        """Stop a rebuild under way, then close every pooled connection."""
        if self.graph_rebuild is not None:
            await asyncio.to_thread(self.graph_rebuild.stop)
        await self._pool.close()
        with self._vector_lock:
            vectors, self._vector_pool = self._vector_pool, None
        if vectors is not None:
            await asyncio.to_thread(vectors.close)
