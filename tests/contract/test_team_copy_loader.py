"""The team benchmark's `COPY` loader writes exactly the rows the product writes: the same
memories loaded both ways (through `apply_processing_result` and the vector index, and with
`bench.team_copy`) give equal rows in every table, full text and vectors included, on a real
Postgres; and `verify` notices a row that differs."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector

from bench.memory_text import MemoryGenerator
from bench.team_copy import CopyBatches, HashingVectors, copy_rows, planned_inserts, verify
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.models import MemoryItem, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import PostgresBackend, Store

DIM = 32
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _decisions(count: int) -> list[UpdateDecision]:
    generator = MemoryGenerator(11)
    return [UpdateDecision(UpdateAction.ADD_NEW, generator.candidate(n)) for n in range(count)]


def _rows(dsn: str, project_id: str) -> list[tuple[Any, ...]]:
    """Every stored row of a project's memories, history and vectors, ids left out, in the
    memories' key order."""
    with psycopg.connect(dsn) as conn:
        register_vector(conn)
        found = conn.execute(
            "SELECT to_jsonb(m) - 'id' - 'project_id' - 'search', m.search::text, "
            "to_jsonb(h) - 'memory_id', to_jsonb(v) - 'memory_id' - 'project_id' - 'embedding', "
            "v.embedding FROM memory_items m JOIN memory_history h ON h.memory_id = m.id "
            "JOIN memory_vectors v ON v.memory_id = m.id WHERE m.project_id = %s ORDER BY m.key",
            (project_id,),
        ).fetchall()
    return [(*row[:4], np.asarray(row[4]).tolist()) for row in found]


async def _by_the_product(store: Store, count: int) -> None:
    result = await store.apply_processing_result([], _decisions(count), [], user_id="bench")
    embedder = FakeEmbedder(dim=DIM)
    vectors = await embedder.embed([embedding_text(m) for m in result.memories])
    index, _ = await asyncio.to_thread(store.open_vector_index, DIM, embedder.model_id)
    items = list(zip([m.id for m in result.memories], vectors, strict=True))
    await asyncio.to_thread(index.upsert, items)


async def test_copied_rows_are_the_rows_the_product_writes(
    postgres_dsn: str, tmp_path: Path
) -> None:
    backend = PostgresBackend(postgres_dsn, pool_size=2, clock=lambda: NOW)
    try:
        product = await backend.open_store(str(tmp_path / "product"), None)
        copied = await backend.open_store(str(tmp_path / "copied"), None)
        await _by_the_product(product, 40)
        inserts = await planned_inserts(copied, _decisions(40), "bench", NOW)
        vectors = HashingVectors(DIM).embed([embedding_text(s.item) for s in inserts])
        with psycopg.connect(postgres_dsn) as conn:
            register_vector(conn)
            with conn.transaction():
                copy_rows(conn, inserts, vectors, FakeEmbedder(dim=DIM).model_id)
        expected = _rows(postgres_dsn, product.project_id)
        assert len(expected) == 40
        assert _rows(postgres_dsn, copied.project_id) == expected
        model = FakeEmbedder(dim=DIM).model_id
        assert await verify(copied, postgres_dsn, inserts, list(vectors), model) == 40
    finally:
        await backend.close()


async def test_verify_notices_a_row_that_differs(postgres_dsn: str, tmp_path: Path) -> None:
    backend = PostgresBackend(postgres_dsn, pool_size=2, clock=lambda: NOW)
    try:
        store = await backend.open_store(str(tmp_path / "changed"), None)
        inserts = await planned_inserts(store, _decisions(5), "bench", NOW)
        vectors = HashingVectors(DIM).embed([embedding_text(s.item) for s in inserts])
        model = FakeEmbedder(dim=DIM).model_id
        with psycopg.connect(postgres_dsn) as conn:
            register_vector(conn)
            with conn.transaction():
                copy_rows(conn, inserts, vectors, model)
            conn.execute(
                "UPDATE memory_items SET search = to_tsvector('english', 'other words') "
                "WHERE id = %s",
                (inserts[2].item.id,),
            )
        assert await verify(store, postgres_dsn, [], [], model) == 0  # nothing to read back
        with pytest.raises(AssertionError, match="full-text column"):
            await verify(store, postgres_dsn, inserts, list(vectors), model)
        item: MemoryItem = inserts[0].item
        assert [m.id for m in await store.get_memories([item.id])] == [item.id]
    finally:
        await backend.close()


async def test_batches_across_projects_are_all_sent_with_their_samples(
    database: str, tmp_path: Path
) -> None:
    """Batches smaller than a project, each sent while the next is planned: every memory of
    every project arrives, the last batch included, with the sample asked for."""
    backend = PostgresBackend(database, pool_size=2, clock=lambda: NOW)
    model = FakeEmbedder(dim=DIM).model_id
    try:
        stores = [await backend.open_store(str(tmp_path / f"p{n}"), None) for n in range(3)]
        with psycopg.connect(database) as conn:
            register_vector(conn)
            batches = CopyBatches(conn, HashingVectors(DIM), model, deadline=1e12, rows=30)
            for n, store in enumerate(stores):
                assert await batches.add(store, 45, n * 45, check=5 if n == 0 else 0) == 45
            await batches.flush()
            await batches.sent()
        assert batches.loaded == 135
        for store in stores:
            assert len(_rows(database, store.project_id)) == 45
        ((sampled, inserts, vectors),) = batches.samples
        assert sampled is stores[0]
        assert len(inserts) == 5
        assert await verify(sampled, database, inserts, vectors, model) == 5
    finally:
        await backend.close()
