"""bench/search_stages.py: every stage of a search is found and timed on a real store."""

from __future__ import annotations

from pathlib import Path

from bench.search_stages import STAGES, time_stages
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.storage import SqliteStore

TEXTS = [
    ("build", "Run the build with make before pushing the branch"),
    ("tests", "The tests need a running database on port 5432"),
    ("style", "Prefer short functions and typed signatures"),
    ("deploy", "Deploys go through the staging cluster first"),
]


async def _seeded(root: Path, embedder: FakeEmbedder) -> None:
    store = await SqliteStore.open(str(root))
    try:
        decisions = [
            UpdateDecision(
                UpdateAction.ADD_NEW,
                MemoryCandidate(
                    type=MemoryType.PROJECT_FACT, key=key, content=text, tags=(), importance=0.5
                ),
            )
            for key, text in TEXTS
        ]
        result = await store.apply_processing_result([], decisions, [], user_id="bench")
        memories = result.memories
    finally:
        await store.close()
    index = FaissIndex(embedder.dim, embedder.model_id, index_path(str(root)))
    index.rebuild((m.id, embedder.embed_now([m.content])[0]) for m in memories)
    index.save()


async def test_every_stage_of_a_search_is_timed(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    await _seeded(tmp_path, embedder)
    questions = ["how do I run the build", "which port does the database use", "zebra"]
    times = await time_stages(tmp_path, embedder, questions, 4, "this")
    stages = {stage for stage, _ in STAGES}
    # every stage's code was found (a renamed function would leave its stage out)
    assert set(times.millis) == stages
    assert all(len(values) == len(questions) for values in times.millis.values())
    # the stages a search always reaches cost some CPU on every question
    for stage in ("encoder", "vector index", "bm25", "fusion", "placing", "event loop"):
        assert all(v > 0 for v in times.millis[stage]), stage
    # a job holds its parts
    for n in range(len(questions)):
        assert times.millis["vector job"][n] >= times.millis["encoder"][n]
        assert times.millis["lexical job"][n] >= times.millis["bm25"][n]
