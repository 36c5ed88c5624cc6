"""bench/index_costs.py: every way is timed on every question, and its answers are the index's."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any, cast

import numpy as np

from bench.index_costs import (
    baseline_index,
    format_costs,
    lexical_ways,
    recalls,
    timed,
    vector_ways,
)
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.index import FaissIndex, IndexKind
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import SqliteStore

WORDS = [
    "cache",
    "redis",
    "parser",
    "token",
    "deploy",
    "docker",
    "retry",
    "timeout",
    "schema",
    "index",
    "queue",
    "worker",
]
COUNT = 2_600  # above the size where a flat index searches its int8 copy first


async def _store(root: Path) -> tuple[SqliteStore, list[Any]]:
    rng = random.Random(3)
    store = await SqliteStore.open(str(root))
    decisions = [
        UpdateDecision(
            UpdateAction.ADD_NEW,
            MemoryCandidate(
                type=MemoryType.PROJECT_FACT,
                key=f"k{n}",
                content=" ".join(rng.choices(WORDS, k=rng.randint(3, 9))),
                tags=(),
                importance=0.5,
            ),
        )
        for n in range(COUNT)
    ]
    result = await store.apply_processing_result([], decisions, [], user_id="bench")
    store.wait_lexical_index(60)
    return store, result.memories


async def test_every_way_is_timed_and_answers_as_its_index(tmp_path: Path) -> None:
    embedder = FakeEmbedder(dim=32)
    store, memories = await _store(tmp_path)
    try:
        vectors = embedder.embed_now([embedding_text(m) for m in memories])
        texts = ["redis cache timeout", "docker deploy worker", "schema index zebra"]
        queries = np.stack([embedder.embed_query_now(t).reshape(-1) for t in texts])
        for approximate_above in (COUNT + 1, 500):  # flat, then IVF
            index = FaissIndex(embedder.dim, embedder.model_id, approximate_above=approximate_above)
            index.rebuild(zip([m.id for m in memories], vectors, strict=True))
            ivf = index.kind is IndexKind.IVF

            def run(conn: sqlite3.Connection, index: FaissIndex = index) -> tuple[Any, Any]:
                ways = {
                    **vector_ways(index, queries, index),
                    **lexical_ways(store, conn, texts, str(tmp_path)),
                }
                answers = {
                    name: [way(n) for n in range(len(texts))] for name, (way, _) in ways.items()
                }
                times = timed(ways, cast(MiniLmEmbedder, embedder), texts)
                recalls(index, ways, queries, queries, times)
                return answers, times

            answers, times = await store._db.read(run)
            assert ("ivf own" in times) is ivf
            # the exact scan finds the exact top 10 (the float queries are the int8 ones here)
            assert times["float flat"].recall == times["float flat"].recall_float == 1.0
            assert 0.0 < times["shipped"].recall <= 1.0
            assert times["baseline"].recall == times["shipped"].recall
            assert np.isnan(times["int8 pass"].recall)
            assert all(len(t.cpu) == len(t.wall) == len(texts) for t in times.values())
            assert all(v >= 0 for t in times.values() for v in t.cpu)
            for n, query in enumerate(queries):
                assert answers["shipped"][n] == index.search(query, 50)
                # The in-memory index and FTS5's own query rank the same memories, in order.
                read = [m.id for m, _ in answers["lexical read"][n]]
                assert read and read == [row[2] for row in answers["fts5 query"][n]]
            shown = format_costs([])
            assert "cpu p50" in shown and "rec flt" in shown
    finally:
        await store.close()


def test_a_baseline_tree_searches_the_same_files_with_its_own_code(tmp_path: Path) -> None:
    """This tree as the baseline: its own index module, loaded apart, answers as this one."""
    tree = Path(__file__).resolve().parents[2]
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((300, 16)).astype(np.float32)
    index = FaissIndex(16, "m", tmp_path / "i.faiss")
    index.rebuild((f"m{n}", v) for n, v in enumerate(vectors))
    index.save()
    other = baseline_index(tree)
    assert other is not FaissIndex and other.__module__ == "baseline_faiss_index"
    loaded = other.load(tmp_path / "i.faiss", 16, "m")
    assert loaded.search(vectors[3], 5) == index.search(vectors[3], 5)


def test_a_flat_index_is_timed_against_the_same_memories_in_ivf() -> None:
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((COUNT, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    names = [f"m{n}" for n in range(COUNT)]
    queries = vectors[:4] + 0.1 * rng.standard_normal((4, 32)).astype(np.float32)
    flat = FaissIndex(32, "fake", approximate_above=COUNT + 1)
    flat.rebuild(zip(names, vectors, strict=True))
    ways = vector_ways(flat, queries, ivf_above=1_000)
    stored, held = flat._all_vectors()  # the flat index's own (unit) vectors
    ivf = FaissIndex(32, "fake", approximate_above=COUNT - 1)
    ivf.rebuild(zip([f"m{i}" for i in held], stored, strict=True))
    assert ivf.kind is IndexKind.IVF
    for n, query in enumerate(queries):
        assert ways["ivf here"][0](n) == ivf.search(query, 50)
    times = {name: cast(Any, type("T", (), {})()) for name in ways}
    recalls(flat, ways, queries, queries, times)
    assert 0.0 < times["ivf here"].recall <= 1.0
    # not above the size asked, nor for an index that is IVF already
    assert "ivf here" not in vector_ways(flat, queries)
    assert "ivf here" not in vector_ways(ivf, queries, ivf_above=1_000)
