"""The standing-sentence probe's folds: a held-out unit's scores never depend on its own labels;
its features and gain."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from bench.fact_probe import NEGATIVE_STRIDE, UNUSED, project, thinned
from bench.standing_probe import OBJECTIVES, folds, gain, structure, table, unit
from bench.standing_sentences import STANDING, TASK, TUNING, UNLABELLED, Sentence


def _sentence(group: str, session: str, label: str, text: str = "keep it short") -> Sentence:
    return Sentence(group, session, text, label, kept=False)


def _world() -> tuple[np.ndarray, list[Sentence]]:
    """Three sets and two tuning projects; column 0 carries the label, plus noise."""
    rng = np.random.default_rng(3)
    sentences: list[Sentence] = []
    rows: list[list[float]] = []
    units = [("first", "a"), ("second", "b"), ("third", "c"), (TUNING, "p"), (TUNING, "q")]
    for group, session in units:
        for i in range(12):
            label = STANDING if i % 4 == 0 else TASK if i % 4 == 1 else UNLABELLED
            sentences.append(_sentence(group, session, label))
            signal = 2.0 if label == STANDING else -1.0
            rows.append([signal + 0.3 * rng.normal(), rng.normal()])
    return np.asarray(rows), sentences


def test_a_unit_is_a_habits_set_or_one_tuning_project() -> None:
    assert unit(_sentence("third", "s1", UNLABELLED)) == "third"
    assert unit(_sentence(TUNING, "proj", UNLABELLED)) == f"{TUNING}:proj"


def test_every_unit_is_held_out_once_and_its_scores_ignore_its_own_labels() -> None:
    x, sentences = _world()
    found = folds(x, sentences)
    assert [f.name for f in found] == ["first", "second", "third", "tuning:p", "tuning:q"]
    assert [f.kind for f in found] == ["set", "set", "set", "project", "project"]
    assert sorted(i for f in found for i in f.rows) == list(range(len(sentences)))
    # relabel the second set's sentences: only the other folds may change
    flipped = [
        replace(s, label=UNLABELLED if s.label == STANDING else STANDING)
        if s.group == "second"
        else s
        for s in sentences
    ]
    again = folds(x, flipped)
    for before, after in zip(found, again, strict=True):
        same = before.scores == after.scores
        assert same == (before.name == "second"), before.name


def test_a_separable_signal_is_found_on_every_held_out_unit() -> None:
    x, sentences = _world()
    for fold in folds(x, sentences):
        for objective in OBJECTIVES:
            picked = [
                sentences[i] for i, p in zip(fold.rows, fold.probe[objective], strict=True) if p
            ]
            assert picked and all(s.label == STANDING for s in picked), (fold.name, objective)
    lines = table(sentences, folds(x, sentences))
    assert any(line.startswith("POOLED sets") for line in lines)
    assert any(line.startswith("POOLED projects") for line in lines)


def test_gain_costs_a_task_twice_and_an_unlabelled_pick_by_the_objective() -> None:
    rows = [
        _sentence("first", "a", STANDING),
        _sentence("first", "a", TASK),
        _sentence("first", "a", UNLABELLED),
    ]
    assert gain(rows, [True, True, True], OBJECTIVES["strict"]) == 1 - 2 - 1
    assert gain(rows, [True, True, True], OBJECTIVES["lenient"]) == 1 - 2
    assert gain(rows, [True, False, False], 1.0) == 1


def test_structure_reads_place_length_recurrence_and_code() -> None:
    plain = Sentence(
        "first", "a", "always run the tests first", STANDING, False, (), 0.5, True, True, 2
    )
    turn, first, after, words, recurs, code = structure(plain)
    assert (turn, first, after) == (0.5, 1.0, 1.0)
    assert words == math.log(5) and recurs == math.log1p(2)
    assert code == 0.0
    pasted = replace(plain, text="edit src/app/main.rs and set MAX_SIZE=4")
    assert structure(pasted)[5] == 2 / 5  # the path and the assignment, of five tokens


def test_the_fact_probe_holds_out_projects_and_thins_only_unlabelled_sentences() -> None:
    rows = [_sentence("first", "s", UNLABELLED) for _ in range(2 * NEGATIVE_STRIDE)]
    rows.insert(1, _sentence("first", "s", STANDING))
    kept = thinned(rows)
    assert kept[1].label == STANDING
    assert sum(s.label == UNUSED for s in kept) == 2 * NEGATIVE_STRIDE - 2
    assert project(rows[0]) == "first:s"
