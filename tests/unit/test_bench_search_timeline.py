"""bench/search_timeline.py: every mark of a search's critical path is found, in order."""

from __future__ import annotations

from pathlib import Path

from bench.search_timeline import CRITICAL, LEXICAL, format_marks, steps, time_marks
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.retrieval import Retriever
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from tests.unit.test_bench_search_stages import _seeded

QUESTIONS = ["how do I run the build", "which port does the database use", "deploys staging"]


async def test_every_mark_is_found_in_the_order_a_search_passes_them(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    await _seeded(tmp_path / "project", embedder)
    pair, rank = SqliteDatabase.read_pair, Retriever._rank
    p50s = await time_marks(tmp_path / "project", embedder, QUESTIONS, vector_only=False)
    # a renamed function would leave its mark out
    assert set(p50s) == set(CRITICAL) | set(LEXICAL)
    critical = [p50s[name] for name in CRITICAL]
    assert critical == sorted(critical)
    assert p50s["lexical job start"] <= p50s["lexical job end"] <= p50s["loop woken"]
    # the wrapping is undone
    assert (SqliteDatabase.read_pair, Retriever._rank) == (pair, rank)
    assert "embed_query_now" not in vars(embedder)
    shown = format_marks(4, "search", p50s, "1.00 1.00 1.00 -> 1.00 1.00 1.00")
    assert shown.count("\n") == len(p50s)


async def test_with_the_lexical_side_off_no_lexical_mark_is_left(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    await _seeded(tmp_path / "project", embedder)
    p50s = await time_marks(tmp_path / "project", embedder, QUESTIONS, vector_only=True)
    assert not set(LEXICAL) & set(p50s)
    assert {"encoder start", "encoder end", "index end", "ranked", "end"} <= set(p50s)


def test_a_step_is_the_time_from_the_critical_mark_before_it() -> None:
    p50s = {"pair handed off": 0.1, "vector job start": 0.3, "lexical job start": 0.5}
    p50s |= {"lexical job end": 1.5, "end": 2.0}
    got = steps(p50s)
    assert got["pair handed off"] == 0.1
    assert abs(got["vector job start"] - 0.2) < 1e-9
    assert abs(got["end"] - 1.7) < 1e-9  # marks not found are passed over
    assert abs(got["lexical job start"] - 0.4) < 1e-9
    assert got["lexical job end"] == 1.0
