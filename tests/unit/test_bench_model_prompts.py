"""bench.model_prompts counts what of the work's findings reaches the model's prompt."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bench import model_prompts
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _event(n: int, kind: str, content: dict[str, Any]) -> StoredEvent:
    return StoredEvent(
        id=f"e{n:03d}",
        project_id="/p",
        user_id="",
        source_tool="claude_code",
        session_id="s",
        timestamp=T0 + timedelta(seconds=n),
        event_type=kind,
        content=content,
        file_paths=(),
        hash="",
    )


def test_measure_counts_replies_conclusions_and_reports() -> None:
    long_reply = "I read the router. " * 40 + "The routes live in app/routes.py."
    events = [
        _event(1, "user_message", {"text": "map the routes"}),
        _event(2, "assistant_response", {"text": long_reply}),
        _event(3, "assistant_response", {"text": "Done."}),
        _event(4, "tool_result", {"tool": "Agent", "output": "Report: all fine."}),
        _event(5, "tool_result", {"tool": "Agent", "output": "boom", "is_error": True}),
    ]
    tally = model_prompts.Tally()
    lengths = model_prompts.measure(events, 24_000, tally)
    assert len(lengths) == tally.episodes == 1
    assert (tally.replies, tally.replies_given) == (2, 2)
    assert (tally.long_replies, tally.conclusions_given) == (1, 1)
    assert (tally.reports, tally.reports_given) == (1, 1)
    assert tally.cut == 0

    small = model_prompts.Tally()
    model_prompts.measure(events, 40, small)
    assert small.replies_given == 0 and small.reports_given == 0


def test_a_bound_that_is_not_positive_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        model_prompts.main(["--max-chars", "0"])
    assert stopped.value.code == 2
    assert "--max-chars must be positive" in capsys.readouterr().err
