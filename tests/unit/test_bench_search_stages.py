"""bench/search_stages.py: every stage of a search is found and timed on a real store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.search_stages import STAGES, StageTimes, format_budget, format_rows_read, time_stages
from bench.stage_floor import IDS_LOOKED_UP, ROWS_KEPT
from bench.stage_probes import ROWS_ASKED, ROWS_READ, Clocks, rows_counted
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite import reads
from squirrel_memory.storage.sqlite import search as search_module

TEXTS = [
    ("build", "Run the build with make before pushing the branch"),
    ("tests", "The tests need a running database on port 5432"),
    ("style", "Prefer short functions and typed signatures"),
    ("deploy", "Deploys go through the staging cluster first"),
]


async def _seeded(root: Path, embedder: FakeEmbedder) -> None:
    root.mkdir()
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
    await _seeded(tmp_path / "project", embedder)
    questions = ["how do I run the build", "which port does the database use", "zebra"]
    (times,) = await time_stages(tmp_path / "project", embedder, questions, 4, "this")
    stages = {stage for stage, _ in STAGES}
    # every stage's code was found (a renamed function would leave its stage out), and the
    # rows asked were counted (the warm-up read every row from the file: none is read now)
    assert set(times.millis) == stages | {ROWS_ASKED, ROWS_READ}
    assert all(len(values) == len(questions) for values in times.millis.values())
    assert times.millis[ROWS_ASKED][0] > 0
    assert sum(times.millis[ROWS_READ]) == 0
    shown = format_rows_read(times)
    assert "memory rows per search, p50 (mean): asked" in shown
    assert shown.endswith("read from the file 0.0 (0.0)")
    # the stages a search always reaches cost some CPU on every question
    for stage in ("encoder", "vector index", "bm25", "fusion", "placing", "event loop"):
        assert all(v > 0 for v in times.millis[stage]), stage
    # a job holds its parts
    for n in range(len(questions)):
        assert times.millis["vector job"][n] >= times.millis["encoder"][n]
        assert times.millis["lexical job"][n] >= times.millis["bm25"][n]
    # the floor's two parts, each question
    for stage in ("empty search", "encoder alone"):
        assert all(v > 0 for v in times.millis[stage]), stage


async def test_rows_kept_asks_every_question_again_with_every_row_in_the_cache(
    tmp_path: Path,
) -> None:
    embedder = FakeEmbedder()
    await _seeded(tmp_path / "project", embedder)
    questions = ["how do I run the build", "which port does the database use"]
    shipped, kept = await time_stages(
        tmp_path / "project", embedder, questions, 4, "this", rows_kept=True
    )
    assert (shipped.side, kept.side) == ("this", ROWS_KEPT)
    assert set(kept.millis) == set(shipped.millis)
    assert all(len(v) == len(questions) for v in kept.millis.values())


async def test_ids_looked_up_asks_every_question_again_without_the_index_memory_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = FakeEmbedder()
    await _seeded(tmp_path / "project", embedder)
    looked_up: list[int] = []
    original = reads.memories_of_docs

    def counted(conn: Any, rows: Any, generation: int, ranked: Any, **kw: Any) -> Any:
        looked_up.append(sum(1 for _, _, memory_id in ranked if memory_id is None))
        return original(conn, rows, generation, ranked, **kw)

    monkeypatch.setattr(search_module, "memories_of_docs", counted)
    questions = ["how do I run the build", "which port does the database use"]
    shipped, hidden = await time_stages(
        tmp_path / "project", embedder, questions, 4, "this", ids_looked_up=True
    )
    assert (shipped.side, hidden.side) == ("this", IDS_LOOKED_UP)
    assert set(hidden.millis) == set(shipped.millis)
    assert all(len(v) == len(questions) for v in hidden.millis.values())
    # every search's hits came with their ids on one side and without them on the other
    assert 0 in looked_up and any(n > 0 for n in looked_up)


def _times(**p50: float) -> StageTimes:
    return StageTimes(4, "this", {k.replace("_", " "): [v] for k, v in p50.items()}, "1", "1")


def test_the_budget_line_sets_the_search_against_its_floor() -> None:
    line = format_budget(
        _times(
            empty_search=2.0,
            encoder_alone=6.0,
            search_cpu=12.0,
            vector_index=1.5,
            bm25=0.5,
        )
    )
    # floor 8, ratio 12 / 8, 1.3x leaves 0.3 x 8 = 2.4 ms, index + bm25 2.0
    assert "floor 8.00 ms (empty 2.00 + encoder 6.00)" in line
    assert "search 12.00 ms = 1.50x" in line
    assert "leaves 2.40 ms above the floor, vector index + bm25 take 2.00" in line


def test_a_side_without_the_floor_says_so() -> None:
    assert "not measured" in format_budget(_times(search_cpu=12.0))


async def test_the_rows_a_read_asks_for_and_reads_from_the_file_are_counted(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    await _seeded(tmp_path / "project", embedder)
    store = await SqliteStore.open(str(tmp_path / "project"))
    try:
        ids = await store._db.read(
            lambda conn: [r[0] for r in conn.execute("SELECT id FROM memory_items")]
        )
        clocks = Clocks()
        with rows_counted(clocks):
            for _ in range(2):
                await store._db.read(
                    lambda conn: reads.read_memories(conn, store._db.rows, ids + ids[:1])
                )
                # each id once; read from the file the first time only (then the row cache)
                read = len(TEXTS) if _ == 0 else 0
                assert clocks.take_counts() == {ROWS_ASKED: len(TEXTS), ROWS_READ: read}
        # outside, nothing is counted
        await store._db.read(lambda conn: reads.read_memories(conn, store._db.rows, ids))
        assert clocks.take_counts() == {ROWS_ASKED: 0, ROWS_READ: 0}
    finally:
        await store.close()
