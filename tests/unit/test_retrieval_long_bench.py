"""The long-conversation retrieval bench (bench/retrieval_long.py): its data and statistics."""

from __future__ import annotations

from typing import Any

from bench.retrieval_long import (
    DEFAULT_DATA,
    Outcome,
    bootstrap_interval,
    chat_view,
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


def test_the_chat_view_keeps_user_and_assistant_turns_and_the_questions_they_answer() -> None:
    raw: dict[str, Any] = {
        "name": "c",
        "turns": [
            {"turn": 0, "speaker": "user", "text": "run the tests"},
            {"turn": 1, "speaker": "tool", "text": "Bash pytest"},
            {"turn": 2, "speaker": "command", "text": "$ pytest\n3 passed"},
            {"turn": 3, "speaker": "assistant", "text": "All 3 tests pass."},
        ],
        "questions": [
            {"question": "How many tests passed?", "gold": [2, 3]},
            {"question": "Which command ran?", "gold": [1]},
        ],
    }
    view = chat_view(raw)
    assert [t["turn"] for t in view["turns"]] == [0, 3]
    assert view["questions"] == [{"question": "How many tests passed?", "gold": [3]}]
    assert raw["questions"][0]["gold"] == [2, 3]
    chat = read_conversations(DEFAULT_DATA, chat=True)
    assert (
        0
        < sum(len(c.questions) for c, _ in chat)
        < sum(len(c.questions) for c, _ in read_conversations(DEFAULT_DATA))
    )


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
