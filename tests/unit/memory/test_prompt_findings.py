"""The model sees what the work found: an assistant's conclusion and a subagent's report, kept
longest after the user's words, commands and commits when an episode does not fit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from squirrel_memory.extractors.prompts import (
    EXTRACTION_SYSTEM_PROMPT,
    MAX_ASSISTANT_CHARS,
    MAX_REPORT_CHARS,
    MAX_SHORT_CHARS,
    render_events,
)
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CONCLUSION = "So the cause is the missing index on orders.user_id."


def _event(n: int, kind: str, content: dict[str, Any], **extra: Any) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n}",
        project_id="/home/dev/shop",
        user_id="dev",
        source_tool="claude_code",
        session_id="s",
        timestamp=T0 + timedelta(seconds=n),
        event_type=kind,
        content=content,
        hash=f"h{n}",
        **{"file_paths": (), **extra},
    )


def _long_reply(n: int) -> StoredEvent:
    return _event(n, "assistant_response", {"text": "I read the query planner. " * 80 + CONCLUSION})


def test_a_long_reply_keeps_its_conclusion() -> None:
    text, _ = render_events([_long_reply(1)], 10_000)
    assert text.startswith("[e1] assistant: I read the query planner.")
    assert text.endswith(CONCLUSION)
    assert len(text) <= len("[e1] assistant: ") + MAX_ASSISTANT_CHARS


def test_a_subagent_report_is_given_with_its_conclusion() -> None:
    report = "## Layout\n" + "- src/ holds the code\n" * 200 + "Tests run with `make check`."
    events = [
        _event(1, "tool_call", {"tool": "Agent", "input": {"prompt": "map the repo"}}),
        _event(2, "tool_result", {"tool": "Agent", "output": report, "is_error": False}),
        _event(3, "tool_result", {"tool": "Agent", "output": "boom", "is_error": True}),
        _event(4, "tool_result", {"tool": "Read", "output": "file text", "is_error": False}),
    ]
    text, refs = render_events(events, 10_000)
    lines = text.splitlines()
    assert lines[1].startswith("[e2] subagent report: ## Layout - src/ holds the code")
    assert lines[1].endswith("Tests run with `make check`.")
    assert len(lines) == 2  # a failed delegation and a plain file read are not reports
    assert len(refs) == 2
    assert "subagent report" in EXTRACTION_SYSTEM_PROMPT


def test_long_lines_are_cut_short_before_any_line_is_dropped() -> None:
    events = [_long_reply(n) for n in range(1, 6)]
    whole, _ = render_events(events, 100_000)
    assert len(whole) > 5 * MAX_SHORT_CHARS + 100
    text, refs = render_events(events, 5 * (MAX_SHORT_CHARS + 10))
    lines = text.splitlines()
    assert len(lines) == 5 == len(refs)
    assert all(line.endswith(CONCLUSION) for line in lines)
    assert all(len(line) <= len("[e1] ") + MAX_SHORT_CHARS for line in lines)


def test_plain_tool_calls_go_before_the_assistants_prose() -> None:
    events = [
        _event(1, "tool_call", {"tool": "Grep", "input": {}}, file_paths=("src/a.py",)),
        _event(2, "assistant_response", {"text": CONCLUSION}),
        _event(3, "tool_call", {"tool": "Read", "input": {}}, file_paths=("src/b.py",)),
    ]
    whole, _ = render_events(events, 10_000)
    assert "[e1] tool Grep src/a.py" in whole
    text, _ = render_events(events, len(CONCLUSION) + 30)
    assert text == f"[e2] assistant: {CONCLUSION}"


def test_the_users_words_outlast_a_report() -> None:
    events = [
        _event(1, "user_message", {"text": "keep me"}, origin="typed"),
        _event(2, "tool_result", {"tool": "Agent", "output": "r" * 200, "is_error": False}),
    ]
    text, _ = render_events(events, 40)
    assert text == "[e1] user (typed): keep me"


def test_a_compaction_summary_is_given_with_what_it_found_when_there_is_room() -> None:
    """The host's summary of earlier work records its diagnoses and what was learnt (the
    lessons a model can write and the rules cannot): cut to 300 characters it lost them; it
    is given head and tail like a report, and still goes first when the episode does not fit."""
    found = "Key lesson: the flaky test came from the shared tmp dir; each test now gets its own."
    summary = "Primary request: fix CI. " + "Files touched: src/ci.py, tests/ci_test.py. " * 40
    events = [
        _event(1, "user_message", {"text": "keep me"}, origin="typed"),
        _event(2, "compaction_summary", {"text": summary + found}, origin="compaction"),
    ]
    text, refs = render_events(events, 10_000)
    line = text.splitlines()[1]
    assert line.startswith("[e2] compaction summary (restates earlier work): Primary request")
    assert line.endswith(found) and MAX_SHORT_CHARS < len(line) <= MAX_REPORT_CHARS + 60
    assert len(refs) == 2
    tight, _ = render_events(events, 60)
    assert tight == "[e1] user (typed): keep me"
