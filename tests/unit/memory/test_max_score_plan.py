"""MaxScore pruning as a plan (`bm25.max_score`), which both backends answer: which matches it
asks to score, and that its result is the one scoring every match gives."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from squirrel_memory.storage.bm25 import max_score, upper_bound
from squirrel_memory.storage.revisions import drive


def _scorer(
    docs: Mapping[str, Mapping[str, float]], limit: int, asked: list[Sequence[str] | None]
) -> Callable[[Sequence[str] | None], list[tuple[str, float]]]:
    """Answers a step with the `limit` best docs holding a term of it (None: any), each scored
    on every term it holds, best first; records what it was asked."""

    def answer(terms: Sequence[str] | None) -> list[tuple[str, float]]:
        asked.append(terms)
        held = [
            (doc, sum(scores.values()))
            for doc, scores in docs.items()
            if terms is None or set(scores) & set(terms)
        ]
        return sorted(held, key=lambda r: (-r[1], r[0]))[:limit]

    return answer


def _score(row: tuple[str, float]) -> float:
    return row[1]


def test_a_seed_holding_every_term_scores_every_match_at_once() -> None:
    asked: list[Sequence[str] | None] = []
    docs = {"a": {"x": 1.0}, "b": {"y": 2.0}}
    plan = max_score([(1, "x"), (1, "y")], {"x": 5.0, "y": 5.0}, 10, _score)
    assert drive(plan, _scorer(docs, 10, asked)) == [("b", 2.0), ("a", 1.0)]
    assert asked == [None]


def test_too_few_seed_results_score_every_match() -> None:
    # The rarest term's rows reach the seed's size, but fewer than `limit` are live matches.
    asked: list[Sequence[str] | None] = []
    docs = {"a": {"rare": 3.0}, "b": {"common": 1.0}, "c": {"common": 1.0}}
    present = [(12, "rare"), (500, "common")]
    plan = max_score(present, {"rare": 9.0, "common": 0.1}, 2, _score)
    assert drive(plan, _scorer(docs, 2, asked)) == [("a", 3.0), ("b", 1.0)]
    assert asked == [["rare"], None]


def test_terms_that_cannot_beat_the_seed_are_never_scored() -> None:
    asked: list[Sequence[str] | None] = []
    docs = {f"r{i}": {"rare": 5.0 + i} for i in range(12)} | {"c": {"common": 0.2}}
    present = [(12, "rare"), (900, "common")]
    bounds = {"rare": 20.0, "common": upper_bound(1000, 900)}
    plan = max_score(present, bounds, 2, _score)
    found = drive(plan, _scorer(docs, 2, asked))
    assert found == [("r11", 16.0), ("r10", 15.0)]
    assert asked == [["rare"]]


def test_a_term_whose_bound_could_win_is_scored_again_with_the_others() -> None:
    asked: list[Sequence[str] | None] = []
    docs = {f"r{i}": {"rare": 1.0} for i in range(12)} | {"c": {"common": 3.0}}
    present = [(12, "rare"), (900, "common")]
    plan = max_score(present, {"rare": 2.0, "common": 4.0}, 2, _score)
    found = drive(plan, _scorer(docs, 2, asked))
    assert found == [("c", 3.0), ("r0", 1.0)]
    assert asked == [["rare"], ["rare", "common"]]
