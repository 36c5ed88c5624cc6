"""`Reindex` (`ProjectIndexes.rebuild`) gives the same vectors, to the bit, whatever the index
was doing when it was asked: changes queued before it are covered by its own batches, never
embedded again in a batch of their own after it.

An embedding model's vector for a text moves by a few ulps with the batch it is embedded in
(MiniLM pads each chunk to its longest text; the matrix shapes change the BLAS blocking), so a
memory embedded again alone after a rebuild had a vector a second rebuild would not give, and a
search could rank two close memories in either order from run to run."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np

from squirrel_memory.embedding.base import Vectors
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.indexer import ProjectIndexes
from squirrel_memory.models import MemoryType, Scope
from squirrel_memory.storage import SqliteStore
from tests.conftest import PATIENCE_SECONDS


class BatchShaped(FakeEmbedder):
    """A fake model whose vector for a text depends, by about an ulp, on the size of the batch
    it came in (as a real model's does), and that can be paused mid-embedding."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()
        self.go.set()
        self.batches: list[int] = []
        self.waiting = 0

    async def embed(self, texts: Sequence[str]) -> Vectors:
        self.waiting += 1
        await self.go.wait()
        self.waiting -= 1
        self.batches.append(len(texts))
        vectors = await super().embed(texts)
        vectors[:, 0] += np.float32(1e-7) * len(texts)
        return vectors


async def _remember(store: SqliteStore, n: int) -> str:
    item = await store.remember(
        store.project_id,
        type=MemoryType.PROJECT_FACT,
        key=f"fact-{n}",
        content=f"Fact number {n} about the build and its tests",
        tags=[],
        importance=0.8,
        scope=Scope.PROJECT,
        user_id="u",
    )
    return item.id


async def _settled(indexes: ProjectIndexes, project_id: str) -> None:
    """Until nothing is queued, in flight or syncing (a worker done with what it held)."""
    assert await indexes.caught_up(project_id, timeout=PATIENCE_SECONDS)
    for _ in range(50):  # a held worker wakes at the end of its hold, then finds nothing
        await asyncio.sleep(0.02)
    assert await indexes.caught_up(project_id, timeout=PATIENCE_SECONDS)


async def _vectors(store: SqliteStore, indexes: ProjectIndexes) -> dict[str, bytes]:
    index = indexes.get(store.project_id)
    assert index is not None
    return {m: index.vector(m).tobytes() for m in sorted(index.memory_ids())}  # type: ignore[attr-defined]


async def _clean_rebuild(store: SqliteStore) -> tuple[dict[str, bytes], list[str]]:
    """The vectors and a search's order after a rebuild with nothing else going on."""
    indexes = ProjectIndexes(BatchShaped(), save_delay=3600)
    await indexes.attach(store)
    await _settled(indexes, store.project_id)
    await indexes.rebuild(store)
    await _settled(indexes, store.project_id)
    found = await _vectors(store, indexes)
    order = _order(indexes, store.project_id)
    await indexes.close()
    return found, order


def _order(indexes: ProjectIndexes, project_id: str) -> list[str]:
    index = indexes.get(project_id)
    assert index is not None
    query = FakeEmbedder().embed_now(["build tests fact number"])[0]
    return [memory_id for memory_id, _ in index.search(query, 20)]


async def test_changes_queued_before_a_rebuild_are_not_embedded_again_after_it(
    store: SqliteStore,
) -> None:
    for n in range(10):
        await _remember(store, n)
    embedder = BatchShaped()
    # the worker holds the queued changes for a while: the rebuild comes first
    indexes = ProjectIndexes(embedder, save_delay=3600, quiet=3600.0, max_hold=3600.0)
    await indexes.attach(store)
    await _settled(indexes, store.project_id)
    written = [await _remember(store, n) for n in range(10, 13)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert indexes.pending(store.project_id) == len(written)
    embedder.batches.clear()
    await indexes.rebuild(store)
    await _settled(indexes, store.project_id)
    assert embedder.batches == [13]  # the rebuild's one batch; nothing after it
    after = await _vectors(store, indexes)
    order = _order(indexes, store.project_id)
    await indexes.close()
    assert (after, order) == await _clean_rebuild(store)


async def test_a_batch_taken_before_a_rebuild_and_waiting_for_it_is_dropped(
    store: SqliteStore,
) -> None:
    """The worker took queued changes off the queue and waits for the index while the rebuild
    holds it: the rebuild read those memories after they were written, so it covers them."""
    for n in range(10):
        await _remember(store, n)
    embedder = BatchShaped()
    indexes = ProjectIndexes(embedder, save_delay=3600, quiet=0.01, max_hold=0.01)
    await indexes.attach(store)
    await _settled(indexes, store.project_id)
    embedder.go.clear()  # the next embedding waits: a write's batch holds the index meanwhile
    first = await _remember(store, 10)
    while not embedder.waiting:  # the worker is in its batch of `first`, holding the index
        await asyncio.sleep(0.01)
    rebuild = asyncio.create_task(indexes.rebuild(store))  # waits for the index
    await asyncio.sleep(0.05)
    more = [await _remember(store, n) for n in range(11, 14)]
    await asyncio.sleep(0.2)  # the worker takes them off the queue and waits behind the rebuild
    embedder.batches.clear()
    embedder.go.set()
    await rebuild
    await _settled(indexes, store.project_id)
    assert embedder.batches == [1, 14]  # `first`'s batch, then the rebuild's; nothing after
    assert {first, *more} <= indexes.get(store.project_id).memory_ids()  # type: ignore[union-attr]
    after = await _vectors(store, indexes)
    order = _order(indexes, store.project_id)
    await indexes.close()
    assert (after, order) == await _clean_rebuild(store)


async def test_a_change_made_while_the_rebuild_embeds_is_embedded_after_it(
    store: SqliteStore,
) -> None:
    """Must not drop: a memory changed after the rebuild read the store is queued again and
    reaches the index with its new text."""
    for n in range(10):
        await _remember(store, n)
    embedder = BatchShaped()
    indexes = ProjectIndexes(embedder, save_delay=3600, quiet=0.01, max_hold=0.01)
    await indexes.attach(store)
    await _settled(indexes, store.project_id)
    embedder.go.clear()
    rebuild = asyncio.create_task(indexes.rebuild(store))
    while not embedder.waiting:  # the rebuild read the store and embeds what it read
        await asyncio.sleep(0.01)
    late = await _remember(store, 99)  # written after the rebuild read the store
    await asyncio.sleep(0.1)
    embedder.go.set()
    await rebuild
    await _settled(indexes, store.project_id)
    index = indexes.get(store.project_id)
    assert index is not None and late in index.memory_ids()
    await indexes.close()
