"""The team benchmark's bulk load drops the loaded tables' indexes (all but their keys) and
makes each again from its own definition after the body ran, and builds the HNSW index with
the graph parameters asked for; on a real Postgres, in a database of its own."""

from __future__ import annotations

from pathlib import Path

import psycopg

from bench.postgres_server import hnsw_built_after, secondary_indexes_built_after
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.storage import PostgresBackend

DIM = 16
TABLES = ["memory_items", "memory_history", "memory_vectors"]


def _indexes(dsn: str) -> dict[str, str]:
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s)", (TABLES,)
        ).fetchall()
    return {str(name): str(definition) for name, definition in rows}


async def _schema(dsn: str, tmp_path: Path) -> None:
    backend = PostgresBackend(dsn, pool_size=2)
    try:
        store = await backend.open_store(str(tmp_path), None)
        store.open_vector_index(DIM, FakeEmbedder(dim=DIM).model_id)
    finally:
        await backend.close()


async def test_the_other_indexes_are_dropped_for_the_load_and_made_again_after(
    database: str, tmp_path: Path
) -> None:
    await _schema(database, tmp_path)
    before = _indexes(database)
    assert {"memory_items_search", "memory_items_paths", "memory_vectors_project"} <= set(before)
    with secondary_indexes_built_after(database):
        during = _indexes(database)
        # The keys stay (a load still refuses a duplicate), and the HNSW index is left to
        # `hnsw_built_after`.
        assert set(during) == {
            "memory_items_pkey",
            "memory_history_pkey",
            "memory_vectors_pkey",
            f"memory_vectors_hnsw_{DIM}",
        }
    assert _indexes(database) == before


async def test_the_hnsw_index_is_built_with_the_graph_parameters_asked_for(
    database: str, tmp_path: Path
) -> None:
    await _schema(database, tmp_path)
    name = f"memory_vectors_hnsw_{DIM}"
    default = _indexes(database)[name]
    with hnsw_built_after(database, DIM):
        assert name not in _indexes(database)
    assert _indexes(database)[name] == default  # as the product builds it
    with hnsw_built_after(database, DIM, m=24, ef_construction=100):
        pass
    built = _indexes(database)[name]
    assert "m='24'" in built and "ef_construction='100'" in built
