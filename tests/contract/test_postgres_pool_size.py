"""`storage.postgres_pool_size` sizes both of the memory service's pools on Postgres: the rows'
(async) and the vector indexes' (blocking, made on first use), on a real Postgres."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from psycopg_pool import PoolTimeout

from squirrel_core.settings import Settings
from squirrel_memory.storage.backends import PostgresBackend, backend_from_settings


async def _pools(settings: Settings) -> tuple[int, int, PostgresBackend]:
    backend = backend_from_settings(settings)
    assert isinstance(backend, PostgresBackend)
    database = await backend.database()
    vectors = await asyncio.to_thread(database.vector_pool)
    return database._pool.max_size, vectors.max_size, backend


@pytest.mark.parametrize("size", [1, 6])
async def test_the_pool_size_setting_sizes_the_rows_and_the_vectors_pools(
    postgres_dsn: str, tmp_path: Path, size: int
) -> None:
    settings = Settings(tmp_path).with_values(
        storage__backend="postgres",
        storage__postgres_dsn=postgres_dsn,
        storage__postgres_pool_size=size,
    )
    rows, vectors, backend = await _pools(settings)
    try:
        assert (rows, vectors) == (size, size)
        if size == 1:
            # The bound holds: with its one connection taken, the vectors' pool has no other.
            pool = (await backend.database()).vector_pool()
            held = await asyncio.to_thread(pool.getconn)
            try:
                with pytest.raises(PoolTimeout):
                    await asyncio.to_thread(pool.getconn, 0.2)
            finally:
                pool.putconn(held)
    finally:
        await backend.close()


async def test_without_the_setting_both_pools_have_the_default_size(
    postgres_dsn: str, tmp_path: Path
) -> None:
    settings = Settings(tmp_path).with_values(
        storage__backend="postgres", storage__postgres_dsn=postgres_dsn
    )
    rows, vectors, backend = await _pools(settings)
    try:
        assert rows == vectors == settings.int_("storage.postgres_pool_size") == 10
    finally:
        await backend.close()
