"""MaxScore pruning as a plan (`bm25.max_score`), which both backends answer: which matches it
asks to score, and that its result is the one scoring every match gives."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from squirrel_memory.storage.bm25 import (
    SEED_CAP_PER_RESULT,
    TermSets,
    max_score,
    qualifying_sets,
    term_set_plan,
    upper_bound,
)
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


def _set_scorer(
    docs: Mapping[str, Mapping[str, float]], limit: int, asked: list[TermSets]
) -> Callable[[TermSets], tuple[list[tuple[str, float]], bool]]:
    """Answers a pass with the `limit` best docs holding every term of one of its sets (None:
    any term), the first `cap` of them in name order, and whether there were no more."""

    def answer(step: TermSets) -> tuple[list[tuple[str, float]], bool]:
        asked.append(step)
        held = [
            (doc, sum(scores.values()))
            for doc, scores in sorted(docs.items())
            if step.sets is None or any(set(terms) <= set(scores) for terms in step.sets)
        ]
        complete = step.cap is None or len(held) < step.cap
        held = held if step.cap is None else held[: step.cap]
        return sorted(held, key=lambda r: (-r[1], r[0]))[:limit], complete

    return answer


def test_qualifying_sets_are_the_smallest_whose_bounds_pass_the_threshold() -> None:
    bounds = {"code": 0.5, "tests": 1.0, "run": 2.0, "alembic": 6.0}
    assert qualifying_sets(bounds, 0.0) == (("alembic",), ("run",), ("tests",), ("code",))
    assert qualifying_sets(bounds, 2.9) == (("alembic",), ("run", "tests"))
    assert qualifying_sets(bounds, 3.0) == (("alembic",), ("run", "tests"))
    assert qualifying_sets(bounds, 3.1) == (("alembic",), ("run", "tests", "code"))
    assert qualifying_sets(bounds, 6.1) == (
        ("alembic", "run"),
        ("alembic", "tests"),
        ("alembic", "code"),
    )
    assert qualifying_sets(bounds, 9.6) == ()
    assert qualifying_sets({f"t{n}": 1.0 for n in range(12)}, 5.5, most=100) is None
    assert qualifying_sets({f"t{n}": 1.0 for n in range(13)}, 0.0) is None


def test_term_sets_give_what_scoring_every_match_gives() -> None:
    rng = random.Random(3)
    terms = {"rare": 9.0, "mid": 4.0, "pair_a": 2.5, "pair_b": 2.5, "common": 0.5}
    counts = {"rare": 3, "mid": 40, "pair_a": 300, "pair_b": 300, "common": 900}
    docs: dict[str, dict[str, float]] = {}
    for n in range(1000):
        held = {
            t: rng.uniform(0.1, 0.95) * b
            for t, b in terms.items()
            if rng.random() < counts[t] / 1000
        }
        if held:
            docs[f"d{n:04}"] = held
    present = sorted((sum(t in d for d in docs.values()), t) for t in terms)
    for limit in (1, 3, 10, 50):
        asked: list[TermSets] = []
        every = _set_scorer(docs, limit, [])(TermSets(None))[0]
        plan = term_set_plan(present, terms, 1000, limit, _score)
        assert drive(plan, _set_scorer(docs, limit, asked)) == every
        assert asked[-1].sets is not None  # never every match


def test_a_capped_seed_only_gives_a_threshold() -> None:
    # 200 docs hold the rarest sets; the seed scores the first 50 (limit 1), the best is later.
    docs = {f"d{n:03}": {"a": 1.0 + n / 1000, "b": 1.0} for n in range(200)}
    docs |= {f"e{n:03}": {"c": 0.1} for n in range(800)}
    present = [(200, "a"), (200, "b"), (800, "c")]
    asked: list[TermSets] = []
    plan = term_set_plan(present, {"a": 1.5, "b": 1.5, "c": 0.2}, 1000, 1, _score)
    assert drive(plan, _set_scorer(docs, 1, asked)) == [("d199", 2.199)]
    assert [step.cap for step in asked] == [SEED_CAP_PER_RESULT, None]
    assert asked[-1].sets == (("a", "b"),)


def test_an_overestimated_threshold_ranks_fewer_sets_and_keeps_the_seeds_best() -> None:
    # The seed (every match, capped) holds "a b" rows scoring 1.2; a lone "c" row past it
    # scores 1.6: the exact plan ranks the "c" rows too, a factor of 1.5 (threshold 1.8, above
    # c's bound) does not.
    docs = {f"d{n:03}": {"a": 0.6, "b": 0.6} for n in range(150)} | {"e": {"c": 1.6}}
    present = [(1, "c"), (150, "a"), (150, "b")]
    bounds = {"a": 1.0, "b": 1.0, "c": 1.7}
    exact: list[TermSets] = []
    assert drive(term_set_plan(present, bounds, 1000, 2, _score), _set_scorer(docs, 2, exact)) == [
        ("e", 1.6),
        ("d000", 1.2),
    ]
    asked: list[TermSets] = []
    plan = term_set_plan(present, bounds, 1000, 2, _score, overestimate=1.5)
    assert drive(plan, _set_scorer(docs, 2, asked)) == [("d000", 1.2), ("d001", 1.2)]
    assert ("c",) in (exact[-1].sets or ())
    assert asked[-1].sets == (("c", "a"), ("c", "b"), ("a", "b"))
