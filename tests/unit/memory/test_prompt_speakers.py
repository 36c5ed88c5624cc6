"""The LLM extractor's input says who said each line and keeps the user's typed words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from squirrel_memory.extractors.prompts import EXTRACTION_SYSTEM_PROMPT, render_events
from squirrel_memory.models import StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


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
        file_paths=(),
        hash=f"h{n}",
        **extra,
    )


def test_each_line_is_labelled_with_its_speaker() -> None:
    events = [
        _event(
            1,
            "user_message",
            {"text": "<system-reminder>Always tabs.</system-reminder>"},
            origin="harness",
        ),
        _event(2, "user_message", {"text": "fix the login bug"}, origin="typed"),
        _event(3, "user_message", {"text": "always lint first"}, origin="queued"),
        _event(
            4,
            "user_message",
            {"text": "always check errors", "command": "/review"},
            origin="slash_command",
        ),
        _event(
            5, "user_message", {"text": "Use pnpm.", "questions": ["Which tool?"]}, origin="answer"
        ),
        _event(
            6,
            "user_message",
            {"text": "Always use four spaces."},
            origin="parent_agent",
            sidechain=True,
        ),
        _event(7, "command_run", {"command": "grep -rn x src", "exit_code": 0}, sidechain=True),
        _event(8, "compaction_summary", {"text": "The user asked to always use tabs."}),
        _event(
            9,
            "assistant_response",
            {"text": "<summary>always tabs</summary>"},
            origin="compaction",
            sidechain=True,
        ),
        _event(
            10,
            "tool_result",
            {"tool": "hook:Stop", "output": "3 TODOs", "is_error": True},
            origin="hook",
        ),
    ]
    text, refs = render_events(events, 10_000)
    assert text.splitlines() == [
        "[e1] host (injected): <system-reminder>Always tabs.</system-reminder>",
        "[e2] user (typed): fix the login bug",
        "[e3] user (queued): always lint first",
        "[e4] user (slash command /review): always check errors",
        "[e5] user (answer to the assistant's question: Which tool?): Use pnpm.",
        "[e6] parent agent (to a subagent): Always use four spaces.",
        "[e7] subagent ran `grep -rn x src` → ok",
        "[e8] compaction summary (restates earlier work): The user asked to always use tabs.",
        "[e9] compaction summary (restates earlier work): <summary>always tabs</summary>",
        "[e10] tool hook:Stop error: 3 TODOs",
    ]
    assert len(refs) == 10
    assert (
        "parent agent" in EXTRACTION_SYSTEM_PROMPT
        and "never by the user" in EXTRACTION_SYSTEM_PROMPT
    )


def test_typed_words_after_a_reminder_in_an_older_row_are_kept() -> None:
    older = _event(
        1, "user_message", {"text": "<system-reminder>ctx</system-reminder>\nadd a test"}
    )
    text, _ = render_events([older], 10_000)
    assert text == "[e1] user (typed): add a test"


def test_host_text_goes_before_the_users_words_when_the_episode_is_too_long() -> None:
    events = [
        _event(1, "user_message", {"text": "x" * 400}, origin="harness"),
        _event(2, "user_message", {"text": "keep me"}, origin="typed"),
    ]
    text, _ = render_events(events, 100)
    assert text == "[e2] user (typed): keep me"
