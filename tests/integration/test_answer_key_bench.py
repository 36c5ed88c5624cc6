"""The answer-key benchmark end to end on one small fixture project: the real memory service,
rules extraction, SearchMemory and the views (skipped without ../shared/fixtures)."""

from __future__ import annotations

import pytest

from bench import answer_key, answer_key_table, fixture_pipeline
from bench.answer_key_gold import AnswerKeyError

PROJECT = "-Users-dain-workspace-JSSoundRecorder"


def test_one_project_is_scored_with_its_questions_and_views() -> None:
    fixtures = fixture_pipeline.DEFAULT_FIXTURES
    if not fixtures.is_dir():
        pytest.skip(f"no fixture transcripts at {fixtures}")

    measured = answer_key.measure(fixtures, "rules", True, [PROJECT], hook_text=True)
    scores, events, views = measured.scores, measured.events, measured.views

    (result,) = scores
    assert result.project == PROJECT
    assert result.split == "tuning"
    assert events[PROJECT] > 100
    assert result.memories == len(result.verdicts) > 0
    assert result.questions == 11 == len(result.question_hits)
    assert 0 <= result.high_covered <= result.high_total == 5
    assert measured.search.startswith(("hybrid", "lexical"))
    assert "## Project Overview" in views[PROJECT]
    assert "## Known Pitfalls" in views[PROJECT]
    # The session-start text comes from the gateway's hook service: framed as remembered notes.
    assert measured.hook_text[PROJECT].startswith("Squirrel memory:")
    assert result.hook is not None and result.hook.needed == ("pnpm",)
    text = answer_key_table.tables(scores, events)
    assert PROJECT in text and "all (pooled)" in text and "wrong facts" in text
    assert "held-out" not in text  # a split without projects gets no table


def test_an_unknown_project_is_refused() -> None:
    with pytest.raises(AnswerKeyError, match="no answer key"):
        answer_key.measure(fixture_pipeline.DEFAULT_FIXTURES, "rules", only=["nope"])
