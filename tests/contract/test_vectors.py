"""Vector index contract: the store's index (FAISS file or pgvector rows) finds nearest memories."""

from __future__ import annotations

import asyncio

import numpy as np
import numpy.typing as npt
import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.index import VectorIndex, VectorRefusedError
from squirrel_memory.storage import Store

from .conftest import Opener

DIM = 8
MODEL = "test-model"


def unit(*values: float) -> npt.NDArray[np.float32]:
    vector = np.zeros(DIM, dtype=np.float32)
    vector[: len(values)] = values
    return vector / np.linalg.norm(vector)


async def index_of(store: Store) -> VectorIndex:
    index, _ = await asyncio.to_thread(store.open_vector_index, DIM, MODEL)
    return index


async def test_nearest_memories_come_first_with_their_cosine(store: Store) -> None:
    index = await index_of(store)
    assert len(index) == 0 and index.search(unit(1), 3) == []
    written = index.upsert(
        [("mem_a", unit(1, 0)), ("mem_b", unit(1, 1)), ("mem_c", unit(0, 1)), ("mem_d", unit(-1))]
    )
    assert written == 4 and len(index) == 4 and "mem_a" in index and "mem_x" not in index
    hits = index.search(unit(1, 0.1), 3)
    assert [memory_id for memory_id, _ in hits] == ["mem_a", "mem_b", "mem_c"]
    assert hits[0][1] == pytest.approx(float(unit(1, 0.1) @ unit(1, 0)), abs=1e-5)
    cosines = index.similarities(unit(0, 1), ["mem_c", "mem_d", "mem_unknown"])
    assert cosines == {"mem_c": pytest.approx(1.0, abs=1e-5), "mem_d": pytest.approx(0.0, abs=1e-5)}


async def test_upsert_replaces_and_remove_forgets(store: Store) -> None:
    index = await index_of(store)
    index.upsert([("mem_a", unit(1)), ("mem_b", unit(0, 1))])
    index.upsert([("mem_a", unit(0, 1))])
    assert index.similarities(unit(0, 1), ["mem_a"])["mem_a"] == pytest.approx(1.0, abs=1e-5)
    assert index.remove(["mem_a", "mem_missing"]) == 1
    assert index.memory_ids() == {"mem_b"} and len(index) == 1
    assert index.rebuild([("mem_c", unit(1)), ("mem_d", unit(1, 1))]) == 2
    assert index.memory_ids() == {"mem_c", "mem_d"}


async def test_vectors_survive_reopening(store: Store) -> None:
    index = await index_of(store)
    index.upsert([("mem_a", unit(1)), ("mem_b", unit(0, 1))])
    index.save()
    again = await index_of(store)
    assert again.memory_ids() == {"mem_a", "mem_b"}
    assert again.search(unit(0, 1), 1)[0][0] == "mem_b"


async def test_bad_vectors_are_refused(store: Store) -> None:
    index = await index_of(store)
    # The embedder's vectors, never a caller's: refused as the service's fault, not an argument.
    with pytest.raises(VectorRefusedError):
        index.upsert([("mem_a", np.ones(DIM + 1, dtype=np.float32))])
    with pytest.raises(VectorRefusedError):
        index.search(np.full(DIM, np.nan, dtype=np.float32), 1)
    with pytest.raises(InvalidArgumentError):
        index.search(unit(1), 0)
    assert len(index) == 0


async def test_each_project_searches_its_own_vectors(
    opener: Opener, project: str, other_project: str
) -> None:
    mine = await index_of(await opener.open(project))
    theirs = await index_of(await opener.open(other_project))
    mine.upsert([("mem_mine", unit(1))])
    theirs.upsert([(f"mem_theirs_{n}", unit(1, n / 10)) for n in range(50)])
    assert [m for m, _ in mine.search(unit(1), 5)] == ["mem_mine"]
    assert len(theirs.search(unit(1), 10)) == 10
