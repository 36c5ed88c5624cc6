"""Fusion of BM25 and cosine lists, recency decay, path matching and the spec's final score."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from squirrel_memory.scoring import (
    RECENCY_HALF_LIFE_DAYS,
    RRF_K,
    FusionWeights,
    ScoreWeights,
    memory_score,
    part_scorer,
    path_match_score,
    rank_fusion,
    recency_days,
    recency_score,
    score_fusion,
    score_fusion_parts,
    score_parts,
)

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


# -- reciprocal-rank fusion -------------------------------------------------------------------


def test_rank_fusion_gives_one_to_an_item_first_in_both_lists() -> None:
    fused = rank_fusion([("a", 9.0), ("b", 3.0)], [("a", 0.9), ("c", 0.5)])
    assert fused["a"] == pytest.approx(1.0)


def test_rank_fusion_matches_the_reciprocal_rank_formula() -> None:
    lexical = [("a", 9.0), ("b", 3.0), ("c", 1.0)]
    vector = [("c", 0.8), ("b", 0.7)]
    fused = rank_fusion(lexical, vector, FusionWeights(lexical=1.0, vector=1.0), k=RRF_K)
    best = 2 / (RRF_K + 1)
    assert fused["b"] == pytest.approx((1 / (RRF_K + 2) + 1 / (RRF_K + 2)) / best)
    assert fused["c"] == pytest.approx((1 / (RRF_K + 3) + 1 / (RRF_K + 1)) / best)
    assert fused["a"] == pytest.approx((1 / (RRF_K + 1)) / best)


def test_rank_fusion_orders_an_item_found_by_both_lists_above_single_list_leaders() -> None:
    lexical = [("lex_only", 10.0), ("both", 8.0)]
    vector = [("vec_only", 0.9), ("both", 0.85)]
    fused = rank_fusion(lexical, vector)
    ranking = sorted(fused, key=lambda m: -fused[m])
    assert ranking[0] == "both"


def test_rank_fusion_uses_ranks_not_input_order() -> None:
    shuffled = rank_fusion([("low", 1.0), ("high", 5.0)], [])
    assert shuffled["high"] > shuffled["low"]


def test_rank_fusion_weights_tilt_the_ranking() -> None:
    lexical = [("L", 5.0), ("V", 1.0)]
    vector = [("V", 0.9), ("L", 0.1)]
    lexical_heavy = rank_fusion(lexical, vector, FusionWeights(lexical=0.8, vector=0.2))
    vector_heavy = rank_fusion(lexical, vector, FusionWeights(lexical=0.2, vector=0.8))
    assert lexical_heavy["L"] > lexical_heavy["V"]
    assert vector_heavy["V"] > vector_heavy["L"]


def test_rank_fusion_with_zero_weight_ignores_that_list() -> None:
    fused = rank_fusion([("a", 1.0)], [("b", 0.9)], FusionWeights(lexical=0.0, vector=1.0))
    assert set(fused) == {"b"}
    assert fused["b"] == pytest.approx(1.0)


def test_rank_fusion_of_empty_lists_is_empty() -> None:
    assert rank_fusion([], []) == {}


def test_rank_fusion_counts_a_repeated_id_once_at_its_best_score() -> None:
    fused = rank_fusion([("a", 1.0), ("a", 5.0), ("b", 3.0)], [])
    # First in the lexical list only, with half the weight: half the best possible score.
    assert fused["a"] == pytest.approx(0.5)
    assert fused["b"] == pytest.approx(0.5 * (RRF_K + 1) / (RRF_K + 2))


# -- normalised score fusion ------------------------------------------------------------------


def test_score_fusion_scales_bm25_by_the_best_hit_and_keeps_cosines() -> None:
    fused = score_fusion([("a", 10.0), ("b", 5.0)], [("a", 0.8), ("c", 0.4)])
    assert fused["a"] == pytest.approx(0.5 * 1.0 + 0.5 * 0.8)
    assert fused["b"] == pytest.approx(0.5 * 0.5)
    assert fused["c"] == pytest.approx(0.5 * 0.4)


def test_score_fusion_keeps_unrelated_vector_hits_low() -> None:
    fused = score_fusion([], [("a", 0.12), ("b", -0.3)])
    assert fused["a"] == pytest.approx(0.06)
    assert fused["b"] == 0.0


def test_score_fusion_gives_full_lexical_credit_when_fts5_scores_are_all_zero() -> None:
    fused = score_fusion([("a", 0.0), ("b", -0.0)], [], FusionWeights(lexical=1.0, vector=0.0))
    assert fused == {"a": 1.0, "b": 1.0}


def test_score_fusion_saturation_does_not_depend_on_other_hits() -> None:
    alone = score_fusion([("a", 3.0)], [], lexical_saturation=3.0)
    crowded = score_fusion([("a", 3.0), ("b", 30.0)], [], lexical_saturation=3.0)
    assert alone["a"] == crowded["a"] == pytest.approx(0.5 * 0.5)


@pytest.mark.parametrize("saturation", [None, 3.0])
def test_score_fusion_parts_give_the_fused_and_the_lexical_only_scores_of_one_pass(
    saturation: float | None,
) -> None:
    lexical = [("a", 4.0), ("b", 0.5), ("a", 1.0), ("c", 0.0), ("d", math.nan)]
    vector = [("a", 0.7), ("e", 0.4), ("b", 1.3)]
    weights = FusionWeights(lexical=0.3, vector=0.7)
    fused, lexical_part = score_fusion_parts(
        lexical, vector, weights, lexical_saturation=saturation
    )
    assert fused == score_fusion(lexical, vector, weights, lexical_saturation=saturation)
    alone = score_fusion(lexical, [], FusionWeights(1.0, 0.0), lexical_saturation=saturation)
    assert lexical_part == alone


def test_score_fusion_stays_within_unit_interval_for_hostile_scores() -> None:
    fused = score_fusion(
        [("a", math.inf), ("b", math.nan), ("c", -5.0)],
        [("a", 7.0), ("b", math.nan), ("d", -math.inf)],
    )
    assert all(0.0 <= v <= 1.0 for v in fused.values())


@pytest.mark.parametrize(
    ("lexical", "vector"), [(-0.1, 0.5), (0.0, 0.0), (math.nan, 1.0), (math.inf, 1.0)]
)
def test_fusion_weights_reject_negative_zero_sum_and_non_finite(
    lexical: float, vector: float
) -> None:
    with pytest.raises(ValueError):
        FusionWeights(lexical=lexical, vector=vector)


def test_score_fusion_rejects_a_non_positive_saturation() -> None:
    with pytest.raises(ValueError):
        score_fusion([("a", 1.0)], [], lexical_saturation=0.0)


# -- recency ----------------------------------------------------------------------------------


def test_recency_halves_after_one_half_life() -> None:
    then = NOW - timedelta(days=RECENCY_HALF_LIFE_DAYS)
    assert recency_score(then, NOW) == pytest.approx(0.5)


def test_recency_is_one_for_now_and_for_future_timestamps() -> None:
    assert recency_score(NOW, NOW) == 1.0
    assert recency_score(NOW + timedelta(days=3), NOW) == 1.0


def test_recency_decreases_with_age() -> None:
    week = recency_score(NOW - timedelta(days=7), NOW)
    year = recency_score(NOW - timedelta(days=365), NOW)
    assert 1.0 > week > year > 0.0
    assert year == pytest.approx(0.5 ** (365 / RECENCY_HALF_LIFE_DAYS))


def test_recency_treats_naive_timestamps_as_utc() -> None:
    naive = (NOW - timedelta(days=30)).replace(tzinfo=None)
    assert recency_score(naive, NOW) == pytest.approx(recency_score(NOW - timedelta(days=30), NOW))


def test_recency_rejects_a_non_positive_half_life() -> None:
    with pytest.raises(ValueError):
        recency_score(NOW, NOW, half_life_days=0)


def test_recency_days_counts_whole_days_and_never_goes_negative() -> None:
    assert recency_days(NOW - timedelta(days=5, hours=3), NOW) == 5
    assert recency_days(NOW + timedelta(days=2), NOW) == 0


# -- path match -------------------------------------------------------------------------------


def test_path_match_exact_file_scores_one() -> None:
    assert path_match_score(["src/auth.py"], active_paths=["./src/auth.py"]) == 1.0


def test_path_match_same_directory_scores_half() -> None:
    assert path_match_score(["src/routes/users.py"], ["src/routes/inventory.py"]) == 0.5


def test_path_match_repository_root_siblings_do_not_count_as_same_directory() -> None:
    assert path_match_score(["README.md"], ["setup.py"]) == 0.0


def test_path_match_directory_memory_holding_the_active_file_scores_in_scope() -> None:
    assert path_match_score(["src/routes"], ["src/routes/inventory.py"]) == 0.75


def test_path_match_scope_prefix_and_glob() -> None:
    assert path_match_score(["src/auth/jwt.py"], scope_paths=["src/auth/"]) == 0.75
    assert path_match_score(["src/auth/jwt.py"], scope_paths=["src/**/*.py"]) == 0.75
    assert path_match_score(["src/auth/jwt.py"], scope_paths=["src/auth/jwt.py"]) == 1.0
    assert path_match_score(["src/authx/jwt.py"], scope_paths=["src/auth"]) == 0.0


def test_path_match_compares_absolute_paths_relative_to_the_root() -> None:
    score = path_match_score(["/repo/src/auth.py"], active_paths=["src/auth.py"], root="/repo")
    assert score == 1.0


def test_path_match_unrelated_or_empty_paths_score_zero() -> None:
    assert path_match_score([], ["src/a.py"]) == 0.0
    assert path_match_score(["docs/a.md"], ["src/a.py"]) == 0.0
    assert path_match_score(["src/a.py"]) == 0.0


def test_path_match_ignores_blank_and_hostile_paths() -> None:
    paths: list[Any] = ["", "   ", "src/\x00evil.py", 42]
    assert path_match_score(paths, ["src/evil.py"]) == 0.0


def test_path_match_normalises_windows_separators_and_dot_segments() -> None:
    assert path_match_score(["src\\auth\\jwt.py"], ["src/x/../auth/jwt.py"]) == 1.0


# -- final score ------------------------------------------------------------------------------


def test_memory_score_applies_the_spec_weights() -> None:
    score = memory_score(similarity=0.5, importance=0.9, recency=0.25, path_match=1.0)
    assert score.total == pytest.approx(0.6 * 0.5 + 0.2 * 0.9 + 0.1 * 0.25 + 0.1 * 1.0)
    assert (score.similarity, score.importance, score.recency, score.path_match) == (
        0.5,
        0.9,
        0.25,
        1.0,
    )


def test_memory_score_is_one_at_best_and_clips_out_of_range_parts() -> None:
    assert memory_score(1.0, 1.0, 1.0, 1.0).total == pytest.approx(1.0)
    clipped = memory_score(2.0, -1.0, math.nan, 1.5)
    assert clipped.total == pytest.approx(0.6 + 0.1)


@pytest.mark.parametrize(
    "part",
    [0.0, -0.0, 0.25, 1.0, 1.0000001, -1e-300, 5e-324, math.inf, -math.inf, math.nan, 1, True],
)
def test_memory_score_parts_are_plain_floats_in_range_whatever_the_input(part: Any) -> None:
    number = float(part)
    expected = min(1.0, max(0.0, number)) if math.isfinite(number) else 0.0
    score = memory_score(part, part, part, part)
    for value in (score.similarity, score.importance, score.recency, score.path_match):
        assert type(value) is float
        assert value == expected
        assert math.copysign(1.0, value) == 1.0  # never -0.0


def test_memory_score_with_custom_weights() -> None:
    weights = ScoreWeights(similarity=1.0, importance=0.0, recency=0.0, path_match=0.0)
    assert memory_score(0.3, 1.0, 1.0, 1.0, weights).total == pytest.approx(0.3)


def test_score_weights_reject_negative_values() -> None:
    with pytest.raises(ValueError):
        ScoreWeights(similarity=-0.1)


# -- the scorer of many candidates and fusion, against the formulas written out ------------


def _reference_parts(
    similarity: float, importance: float, updated_at: datetime, path_match: float
) -> tuple[float, float, float, float, float]:
    """The spec's weighted sum written out: every part clipped to [0, 1] (NaN as 0), recency
    halving every `RECENCY_HALF_LIFE_DAYS`, 1.0 for a moment not past."""

    def clipped(value: float) -> float:
        number = float(value)
        return 0.0 if not math.isfinite(number) else min(1.0, max(0.0, number))

    aware = updated_at if updated_at.tzinfo else updated_at.replace(tzinfo=UTC)
    age = (NOW - aware).total_seconds() / 86_400
    recency = 1.0 if age <= 0 else math.exp(-math.log(2) * age / RECENCY_HALF_LIFE_DAYS)
    s, i, r, p = clipped(similarity), clipped(importance), clipped(recency), clipped(path_match)
    weights = ScoreWeights()
    total = (
        weights.similarity * s + weights.importance * i + weights.recency * r
    ) + weights.path_match * p
    return total, s, i, r, p


def test_part_scorer_gives_score_parts_of_recency_to_the_bit() -> None:
    rng = random.Random(5)
    scorer = part_scorer(None, NOW)
    odd = [0.0, -0.0, 1.0, -3.0, 2.5, math.nan, math.inf, -math.inf, 1, 0, True]
    moments = [
        NOW,
        NOW + timedelta(days=3),
        NOW - timedelta(seconds=1),
        (NOW - timedelta(days=400)).replace(tzinfo=None),
        NOW.astimezone(timezone(timedelta(hours=5))) - timedelta(days=7),
    ]
    cases = [
        (rng.choice(odd), rng.choice(odd), rng.choice(moments), rng.choice(odd)) for _ in range(300)
    ] + [
        (rng.random(), rng.random(), NOW - timedelta(days=rng.uniform(0, 900)), rng.random())
        for _ in range(2000)
    ]
    for similarity, importance, updated_at, path in cases:
        got = scorer(similarity, importance, updated_at, path)
        want = score_parts(
            similarity, importance, recency_score(updated_at, NOW), path, ScoreWeights()
        )
        assert got == want
        assert [math.copysign(1.0, v) for v in got] == [math.copysign(1.0, v) for v in want]
        assert got == pytest.approx(_reference_parts(similarity, importance, updated_at, path))


def test_part_scorer_uses_the_weights_it_is_given() -> None:
    weights = ScoreWeights(similarity=0.1, importance=0.7, recency=0.0, path_match=0.2)
    updated = NOW - timedelta(days=60)
    got = part_scorer(weights, NOW)(0.5, 0.25, updated, 1.0)
    assert got == score_parts(0.5, 0.25, recency_score(updated, NOW), 1.0, weights)
    assert got[0] == pytest.approx(0.1 * 0.5 + 0.7 * 0.25 + 0.2 * 1.0)


def _reference_fusion(
    lexical: list[tuple[str, float]], vector: list[tuple[str, float]], weights: FusionWeights
) -> dict[str, float]:
    """Score fusion written out: each id's best finite score per list (else 0), BM25 over the
    list's best, cosines clipped, the weighted mean clipped to [0, 1]."""

    def best(hits: list[tuple[str, float]]) -> dict[str, float]:
        out: dict[str, float] = {}
        for memory_id, score in hits:
            value = float(score) if math.isfinite(float(score)) else 0.0
            out[memory_id] = max(out.get(memory_id, value), value)
        return out

    lexical_best = {m: max(0.0, s) for m, s in best(lexical).items()}
    top = max(lexical_best.values(), default=0.0)
    lexical_norm = {m: (s / top if top > 0 else 1.0) for m, s in lexical_best.items()}
    vector_norm = {m: min(1.0, max(0.0, s)) for m, s in best(vector).items()}
    return {
        m: min(
            1.0,
            max(
                0.0,
                (
                    weights.lexical * lexical_norm.get(m, 0.0)
                    + weights.vector * vector_norm.get(m, 0.0)
                )
                / weights.total,
            ),
        )
        for m in lexical_norm.keys() | vector_norm.keys()
    }


def test_score_fusion_matches_the_formula_on_random_and_hostile_lists() -> None:
    rng = random.Random(11)
    odd = [0.0, -0.0, -1.0, 1.0, 1.5, math.nan, math.inf, -math.inf, 3, 0]
    for _ in range(400):
        ids = [f"m{n}" for n in range(rng.randint(0, 12))]
        lexical = [(rng.choice(ids), rng.choice([*odd, rng.uniform(0, 9)])) for _ in ids]
        vector = [(rng.choice(ids), rng.choice([*odd, rng.uniform(-1, 1)])) for _ in ids]
        weights = FusionWeights(lexical=rng.uniform(0, 1), vector=rng.uniform(0.01, 1))
        fused = score_fusion(lexical, vector, weights)
        assert fused == pytest.approx(_reference_fusion(lexical, vector, weights))
        assert all(math.copysign(1.0, v) == 1.0 for v in fused.values())  # no -0.0
