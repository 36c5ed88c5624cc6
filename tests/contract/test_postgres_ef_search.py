"""`storage.postgres_ef_search` sets pgvector's `hnsw.ef_search` of the vector searches on
Postgres (at least the number of results asked for), on a real Postgres."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from psycopg import Connection
from psycopg_pool import ConnectionPool

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.settings import Settings, coerce, lookup
from squirrel_memory.storage.backends import PostgresBackend, backend_from_settings
from squirrel_memory.storage.postgres.database import PostgresDatabase
from squirrel_memory.storage.postgres.vectors import (
    DEFAULT_EF_SEARCH,
    PgVectorIndex,
    vector_pool,
)
from tests.conftest import PATIENCE_SECONDS

DIM = 8
MODEL = "ef-model"


class Recording(Connection[Any]):
    """A real connection that notes the `SET LOCAL hnsw.*` statements it runs."""

    seen: ClassVar[list[str]] = []

    def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
        text = query if isinstance(query, str) else query.as_string(self)
        if text.startswith("SET LOCAL hnsw.ef_search"):
            Recording.seen.append(text)
        return super().execute(query, *args, **kwargs)


def _vectors(count: int) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(3)
    return [(f"mem_{n}", rng.normal(size=DIM).astype(np.float32)) for n in range(count)]


@pytest.fixture
async def migrated(postgres_dsn: str) -> str:
    """The DSN of a database with Squirrel's schema (the `vector` type among it)."""
    database = await PostgresDatabase.open(postgres_dsn, max_size=1)
    await database.close()
    return postgres_dsn


@pytest.fixture
def recorded_pool(migrated: str) -> Any:
    from pgvector.psycopg import register_vector  # noqa: PLC0415

    def configure(conn: Connection[Any]) -> None:
        conn.autocommit = True
        register_vector(conn)

    pool = ConnectionPool(
        migrated,
        min_size=1,
        max_size=1,
        open=False,
        configure=configure,
        connection_class=Recording,
    )
    pool.open(wait=True, timeout=PATIENCE_SECONDS)  # a first connection on a loaded machine
    Recording.seen.clear()
    yield pool
    pool.close()


@pytest.mark.parametrize(("ef_search", "k", "used"), [(120, 10, 120), (120, 200, 200), (40, 5, 40)])
def test_a_search_keeps_ef_search_candidates_or_k_when_more(
    recorded_pool: ConnectionPool, tmp_path: Path, ef_search: int, k: int, used: int
) -> None:
    index = PgVectorIndex.open(
        recorded_pool, f"{tmp_path}/p{ef_search}-{k}", DIM, MODEL, ef_search=ef_search
    )
    items = _vectors(30)
    index.upsert(items)
    hits = index.search(items[0][1], k)
    assert hits[0][0] == "mem_0" and len(hits) == min(k, 30)
    assert Recording.seen == [f"SET LOCAL hnsw.ef_search = {used}"]


@pytest.mark.parametrize("ef_search", [0, 1001])
def test_an_ef_search_out_of_range_is_refused(migrated: str, ef_search: int) -> None:
    pool = vector_pool(migrated, max_size=1)
    try:
        with pytest.raises(InvalidArgumentError, match="ef_search"):
            PgVectorIndex.open(pool, "/p/refused", DIM, MODEL, ef_search=ef_search)
    finally:
        pool.close()


async def _index_ef(settings: Settings, project: str) -> int:
    backend = backend_from_settings(settings)
    assert isinstance(backend, PostgresBackend)
    try:
        store = await backend.open_store(project, None)
        index, _ = await asyncio.to_thread(store.open_vector_index, DIM, MODEL)
        assert isinstance(index, PgVectorIndex)
        return index.ef_search
    finally:
        await backend.close()


async def test_the_setting_reaches_every_vector_index(postgres_dsn: str, tmp_path: Path) -> None:
    base = Settings(tmp_path).with_values(
        storage__backend="postgres", storage__postgres_dsn=postgres_dsn
    )
    project = str(tmp_path / "proj")
    assert await _index_ef(base, project) == DEFAULT_EF_SEARCH
    assert base.int_("storage.postgres_ef_search") == DEFAULT_EF_SEARCH
    tuned = base.with_values(storage__postgres_ef_search=300)
    assert await _index_ef(tuned, project) == 300


@pytest.mark.parametrize(
    ("raw", "ok"), [("9", False), ("10", True), ("1000", True), ("1001", False)]
)
def test_the_setting_takes_only_what_pgvector_takes(raw: str, ok: bool) -> None:
    setting = lookup("storage.postgres_ef_search")
    if ok:
        assert coerce(setting, raw) == int(raw)
    else:
        with pytest.raises(InvalidArgumentError, match=r"storage\.postgres_ef_search"):
            coerce(setting, raw)
