"""The standing-rules bench's pieces: the neighbour vote, its scores, the kept and usable tests,
and the tuning keys it reads (never a held-out project's)."""

from __future__ import annotations

import numpy as np

from bench.standing_rules import knn, score
from bench.standing_sentences import (
    HELD_OUT,
    STANDING,
    TASK,
    UNLABELLED,
    Sentence,
    says,
    tuning_keys,
    usable,
)


def _unit(*rows: tuple[float, float]) -> np.ndarray:
    vectors = np.asarray(rows, dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


TRAIN = _unit((1, 0), (0.9, 0.1), (0, 1), (0.1, 0.9), (0.7, -0.7))
LABELS = [STANDING, STANDING, TASK, UNLABELLED, UNLABELLED]
ONES = [1.0] * len(LABELS)


def test_knn_picks_where_the_standing_neighbours_outweigh_the_rest() -> None:
    test = _unit((1, 0.05), (0.05, 1))
    assert knn(TRAIN, LABELS, ONES, test, 2) == [True, False]


def test_unlabelled_neighbours_outvote_a_lone_standing_one() -> None:
    test = _unit((0.8, -0.6))
    assert knn(TRAIN, LABELS, ONES, test, 1) == [False]
    # Only labelled exemplars vote: the nearest labelled one is standing.
    assert knn(TRAIN, LABELS, ONES, test, 1, labelled=True) == [True]


def test_the_floor_leaves_a_sentence_far_from_every_exemplar_alone() -> None:
    test = _unit((-1, -0.2))
    assert knn(TRAIN, LABELS, ONES, test, 1, labelled=True, floor=0.5) == [False]


def test_a_weighted_prototype_tips_the_vote() -> None:
    test = _unit((0.5, 0.5))
    train = _unit((0.6, 0.4), (0.4, 0.6), (0.45, 0.55))
    labels = [STANDING, TASK, TASK]
    assert knn(train, labels, [1.0, 1.0, 1.0], test, 3) == [False]
    assert knn(train, labels, [3.0, 1.0, 1.0], test, 3) == [True]


def _sentence(label: str, items: tuple[str, ...] = ()) -> Sentence:
    return Sentence("fourth", "s", "text", label, False, items)


def test_score_counts_hits_task_hits_and_items() -> None:
    test = [
        _sentence(STANDING, ("tests first",)),
        _sentence(STANDING, ("tests first",)),
        _sentence(STANDING, ("small commits",)),
        _sentence(TASK),
        _sentence(UNLABELLED),
    ]
    s = score(test, [True, True, False, True, True])
    assert (s.standing, s.task, s.picked, s.hit, s.task_hits) == (3, 1, 4, 2, 1)
    assert (s.items, s.items_of) == (1, 2)
    assert round(s.precision, 2) == 0.67
    assert round(s.recall, 2) == 0.67


def test_a_memory_says_a_sentence_when_it_holds_most_of_its_words() -> None:
    memory = "Always run cargo clippy before committing a change."
    assert says(memory, "run cargo clippy before committing")
    assert not says(memory, "rename the parser module to lexer")
    # A sentence of short words only is looked for as written.
    assert says("Then go on with it.", "go on")
    assert not says("Use pnpm, never npm.", "go on")


def test_usable_skips_pasted_output_and_single_words() -> None:
    assert usable("always run pytest with -q")
    assert usable("grill me")
    assert not usable("done")
    assert not usable('File "app/main.py", line 3, in <module>')
    assert not usable("src/components/Button.tsx")
    assert not usable("0x7f 0x3a == 12 // 44 ++")


def test_tuning_keys_are_tuning_only() -> None:
    keys = tuning_keys()
    assert keys
    assert all(k.split == "tuning" and k.project not in HELD_OUT for k in keys)
