"""bench.mem0_side's workload, recall and mem0 hit reading (no mem0 needed)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import numpy as np
import pytest

from bench.common import git_repo
from bench.mem0_cached import Cached, seed_searched
from bench.mem0_child import DATA, _hits, conversations
from bench.mem0_exact import IndexFigures, agreement, by_text, exact_top, index_figures
from bench.mem0_figures import Figures, Query, Round, Side, recall, report
from bench.mem0_side import main, workload
from squirrel_memory.index import FaissIndex
from squirrel_memory.indexer import index_path
from squirrel_memory.models import MemoryItem
from squirrel_memory.storage import SqliteStore


def test_gold_points_at_the_turn_it_names_not_at_that_position() -> None:
    texts, questions = conversations()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    by_number = {
        (n, t["turn"]): t["text"] for n, c in enumerate(data["conversations"]) for t in c["turns"]
    }
    first = data["conversations"][0]["questions"][0]
    assert questions[0][0] == first["question"]
    assert [texts[g] for g in questions[0][1]] == [by_number[(0, t)] for t in first["gold"]]
    # the data's turn numbers are not positions, so an index by position would miss
    turns = data["conversations"][0]["turns"]
    assert any(t["turn"] != n for n, t in enumerate(turns))
    # the second conversation's gold lies after the first conversation's turns
    second = [
        gold for q, gold in questions if q == data["conversations"][1]["questions"][0]["question"]
    ]
    assert second and min(second[0]) >= len(turns)


def test_workload_fills_to_the_size_and_keeps_only_questions_whose_gold_is_stored() -> None:
    turns, questions = conversations()
    texts, queries = workload(len(turns) + 50, 2)
    assert texts[: len(turns)] == turns
    assert len(texts) == len(turns) + 50
    assert len(queries) == 2 * len(questions)
    assert len({q.text for q in queries}) == len(queries)  # tagged: no query cache answers

    small, few = workload(100, 1)
    assert len(small) == 100
    assert few and all(max(q.gold) < 100 for q in few)
    assert len(few) < len(questions)


def test_recall_counts_gold_within_the_first_k_only() -> None:
    gold = frozenset({3, 7})
    assert recall(gold, [3, 1, 2, 4, 5, 7], 5) == 0.5
    assert recall(gold, [3, 1, 2, 4, 5, 7], 10) == 1.0
    assert recall(gold, [], 10) == 0.0
    side = Side([1.0, 2.0], [[3], [9]], 0.0)
    queries = [Query("a", gold), Query("b", frozenset({9}))]
    assert side.recall(queries, 5) == pytest.approx(0.75)


def test_mem0_hits_come_from_metadata_or_else_from_the_text() -> None:
    index_of = {"alpha": 0, "beta": 1}
    found = {
        "results": [
            {"memory": "beta", "metadata": {"n": 5}},
            {"memory": "alpha", "metadata": None},
            {"memory": "unknown"},
        ]
    }
    assert _hits(found, index_of) == [5, 0, -1]
    assert _hits([{"memory": "beta"}], index_of) == [1]


def test_without_mem0_it_says_so_and_measures_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--mem0-python", "/nonexistent/python"]) == 2
    assert "mem0 is not installed" in capsys.readouterr().err


def test_the_seeded_store_keys_each_text_by_its_index_and_indexes_its_own_vector(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((3, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    texts = ["the build uses uv", "tests run with pytest -q", "the API is served by uvicorn"]
    root = git_repo(tmp_path / "repo")
    asyncio.run(seed_searched(root, texts, Cached(vectors, "model-a", 0, 3)))

    async def stored() -> list[MemoryItem]:
        store = await SqliteStore.open(str(root))
        try:
            return await store.get_memories(sorted(await store.live_memory_ids()))
        finally:
            await store.close()

    by_id = {m.id: m for m in asyncio.run(stored())}
    assert sorted((m.key, m.content) for m in by_id.values()) == [
        (f"turn-{n:05d}", text) for n, text in enumerate(texts)
    ]
    index = FaissIndex.load(index_path(str(root)), 384, "model-a")
    for n, vector in enumerate(vectors):
        best = index.search(vector, 1)[0]
        assert by_id[best[0]].key == f"turn-{n:05d}"


def test_exact_truth_is_the_nearest_by_inner_product_best_first() -> None:
    vectors = np.eye(4, dtype=np.float32)
    query = np.array([[0.1, 0.9, 0.0, 0.4]], dtype=np.float32)
    assert exact_top(vectors, query, 3) == [[1, 3, 0]]


def test_agreement_counts_the_exact_top_k_within_the_first_k_only() -> None:
    truth = [[4, 5, 6], [1, 2, 3]]
    assert agreement(truth, [[6, 9, 4], [3, 2, 1]], 3) == pytest.approx((2 / 3 + 1) / 2)
    # found, but past k: not counted
    assert agreement([[4, 5]], [[9, 8, 4, 5]], 2) == 0.0
    side = Side([1.0], [[7, 1, 2]], 0.0)
    assert side.exact([[1, 7]], 2) == 1.0
    with pytest.raises(ValueError):
        agreement([], [], 5)


def test_a_flat_index_agrees_with_exact_search_and_an_off_encoder_does_not() -> None:
    rng = np.random.default_rng(11)
    vectors = rng.standard_normal((500, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = vectors[:20] + 0.05 * rng.standard_normal((20, 384)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    noise = rng.standard_normal((20, 384)).astype(np.float32)
    off = noise / np.linalg.norm(noise, axis=1, keepdims=True)
    truth = exact_top(vectors, queries)
    figures = index_figures(vectors, {"same": queries, "off": off}, truth, "model-a")
    assert [(f.kind, f.encoder) for f in figures] == [
        ("flat", "same"),
        ("flat", "off"),
        ("flat", "same"),
        ("flat", "off"),
    ]
    by_encoder = {f.encoder: f for f in figures}
    assert by_encoder["same"].recall_10 == pytest.approx(1.0)
    assert by_encoder["same"].recall_5 == pytest.approx(1.0)
    assert by_encoder["off"].recall_10 < 0.2


def test_the_report_puts_the_same_end_state_first_and_recall_against_exact_beside_latency() -> None:
    queries = [Query("a", frozenset({0})), Query("b", frozenset({1}))]
    rates = {
        "mem0_one": (4.0, 4.0),
        "mem0_list": (5.0, 5.0),
        "squirrel_many": (400.0, 10.0),
        "squirrel_one": (100.0, 6.0),
    }
    mem0 = Side([30.0, 40.0], [[0, 5], [9, 1]], 20.0)
    squirrel = Side([10.0, 20.0], [[0, 1], [1, 0]], 10.0)
    vectors = Cached(np.zeros((10, 384), dtype=np.float32), "model-a", 8, 2)
    figures = Figures(
        10,
        2,
        {1: 30.0, 2: 90.0},
        rates,
        [Round("int8", mem0, squirrel, 1.0, 1.2)],
        vectors,
        True,
        [[0, 1], [1, 0]],
        [IndexFigures("flat", "int8", 0.5, 0.7, 1.0, 0.9)],
    )
    lines = report(figures, queries, 1.0).splitlines()
    ratios = [line for line in lines if line.startswith(("| same end state", "| acknowledged"))]
    assert len(ratios) == 2 and ratios[0].startswith("| same end state")
    assert "| 2.50x | 1.50x |" in ratios[0]  # 10 / 4 and 6 / 4: vector-searchable rates
    assert "| 100.00x | 25.00x |" in ratios[1]
    assert "torch threads tried (1: 30.0 ms, 2: 90.0 ms): 1 used" in "\n".join(lines)
    rows = {line.split(" | ")[0]: line for line in lines if line.startswith("| mem0 (1")}
    # mem0 found 1 of 2 of each exact top 2 (0.5), Squirrel both (1.0); gold: 1.0 each
    assert rows["| mem0 (1 thread), flat"].endswith("| 0.500 | 0.500 | 1.000 | 1.000 |")
    assert not any(
        line.startswith("| Squirrel `RememberMany`, 100 per call: the") for line in lines
    )


def test_a_text_stored_twice_is_found_whichever_copy_a_side_returns() -> None:
    texts = ["a", "b", "a", "c"]
    vectors = np.array(
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.6, 0.8, 0.0]], dtype=np.float32
    )
    query = np.array([[1.0, 0.1, 0.0]], dtype=np.float32)
    # exact search puts both copies of "a" first (ties by row), then "c"
    truth = [by_text(t, texts) for t in exact_top(vectors, query, 3)]
    assert truth == [[0, 0, 3]]
    # a side that broke the tie the other way found the same texts; an unknown hit is dropped
    assert by_text([2, 0, -1, 3], texts) == [0, 0, 3]
    assert agreement(truth, [by_text([2, 0, 3], texts)], 3) == 1.0
    # one copy of "a" found once is one of the two places it holds
    assert agreement(truth, [by_text([0, 3, 1], texts)], 3) == pytest.approx(2 / 3)
