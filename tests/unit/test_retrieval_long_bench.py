"""The long-conversation retrieval bench (bench/retrieval_long.py): its data and statistics."""

from __future__ import annotations

from bench.retrieval_long import (
    DEFAULT_DATA,
    Outcome,
    bootstrap_interval,
    read_conversations,
    turn_key,
    wins_losses,
)


def _outcome(r5: float) -> Outcome:
    return Outcome("c", "tuning", r5, r5, r5, ())


def test_every_gold_turn_is_a_stored_turn_and_the_splits_are_apart() -> None:
    conversations = read_conversations(DEFAULT_DATA)
    splits = {c.split for c, _ in conversations}
    assert splits == {"tuning", "held-out"}
    names = [c.name for c, _ in conversations]
    assert len(names) == len(set(names))
    for conversation, raw in conversations:
        keys = {turn_key(t["turn"]) for t in raw["turns"]}
        assert conversation.questions
        for question in conversation.questions:
            assert question.gold and question.gold <= keys, (conversation.name, question.text)


def test_bootstrap_interval_holds_the_mean_and_narrows_with_more_questions() -> None:
    few = [1.0, 0.0] * 10
    many = [1.0, 0.0] * 200
    low, high = bootstrap_interval(few)
    assert low < 0.5 < high
    many_low, many_high = bootstrap_interval(many)
    assert low < many_low < 0.5 < many_high < high
    assert bootstrap_interval([0.25] * 7) == (0.25, 0.25)
    assert bootstrap_interval([]) == (0.0, 0.0)


def test_wins_and_losses_are_paired_by_question() -> None:
    mine = [_outcome(1.0), _outcome(0.5), _outcome(0.0), _outcome(0.5)]
    shipped = [_outcome(0.5), _outcome(0.5), _outcome(1.0), _outcome(0.0)]
    assert wins_losses(mine, shipped) == (2, 1)
