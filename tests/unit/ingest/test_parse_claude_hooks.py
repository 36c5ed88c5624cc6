"""Claude Code hook output: a failing hook is a failed result of the session, in every shape.

Claude Code 2.1 writes what its hooks did as `attachment` records: `hook_non_blocking_error`
(`stderr`, `stdout`, `exitCode`, `command`), `hook_blocking_error` (the reason in
`blockingError.blockingError`), `hook_error_during_execution` (`content`), `hook_success`; a stop
hook's errors arrive in a `system` record (`stop_hook_summary`, `hookErrors`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import ClaudeFileParser

PATH = "/p/projects/-home-dev-repo/s.jsonl"


def _attachment(attachment: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "attachment",
        "attachment": attachment,
        "uuid": "00000000-0000-4000-8000-000000000010",
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": "5d1e0a52-8c1b-4f7e-9a43-2b6f0c9d7e11",
        "cwd": "/home/dev/repo",
        "version": "2.1.7",
        "timestamp": "2026-01-08T21:01:10.100Z",
    }


def _events(record: dict[str, Any]) -> list[Event]:
    parser = ClaudeFileParser(PATH)
    events = parser.feed(json.dumps(record).encode(), SourcePosition(PATH, 7, 1))
    assert parser.skipped["internal_error"] == 0
    return events


NON_BLOCKING = {
    "type": "hook_non_blocking_error",
    "hookName": "PostToolUse:Edit",
    "toolUseID": "toolu_1",
    "hookEvent": "PostToolUse",
    "stderr": "ruff: 2 errors (E501 in src/app.py)",
    "stdout": "",
    "exitCode": 1,
    "command": "ruff check --fix",
    "durationMs": 812,
}
BLOCKING = {
    "type": "hook_blocking_error",
    "hookName": "PreToolUse:Bash",
    "toolUseID": "toolu_2",
    "hookEvent": "PreToolUse",
    "blockingError": {
        "blockingError": "[guard.sh]: pushing to main is not allowed",
        "command": "guard.sh",
    },
}
DURING = {
    "type": "hook_error_during_execution",
    "hookName": "SessionStart:startup",
    "toolUseID": "toolu_3",
    "hookEvent": "SessionStart",
    "content": "Failed with non-blocking status code: /bin/sh: squirrel-hook: not found",
}


@pytest.mark.parametrize(
    ("attachment", "tool", "said", "exit_code"),
    [
        (NON_BLOCKING, "hook:PostToolUse:Edit", "ruff: 2 errors", 1),
        (BLOCKING, "hook:PreToolUse:Bash", "pushing to main is not allowed", None),
        (DURING, "hook:SessionStart:startup", "squirrel-hook: not found", None),
    ],
)
def test_a_failing_hook_is_a_failed_result_with_what_it_said(
    attachment: dict[str, Any], tool: str, said: str, exit_code: int | None
) -> None:
    [event] = _events(_attachment(attachment))
    assert event.event_type is EventType.TOOL_RESULT
    assert event.origin is Origin.HOOK
    assert event.content["is_error"] is True
    assert (event.content["tool"], event.content["exit_code"]) == (tool, exit_code)
    assert said in event.content["output"]


@pytest.mark.parametrize(("extra", "said"), [({}, "cancelled"), ({"timedOut": True}, "timed out")])
def test_a_hook_the_host_cancelled_is_a_failed_result(extra: dict[str, Any], said: str) -> None:
    cancelled = {"type": "hook_cancelled", "hookName": "PreToolUse:Bash", "toolUseID": "toolu_4"}
    [event] = _events(_attachment({**cancelled, "hookEvent": "PreToolUse", **extra}))
    assert (event.content["tool"], event.content["is_error"]) == ("hook:PreToolUse:Bash", True)
    assert event.origin is Origin.HOOK
    assert f"was {said}" in event.content["output"]


def test_a_blocking_error_given_as_text_is_read_too() -> None:
    [event] = _events(_attachment({**BLOCKING, "blockingError": "no force pushes"}))
    assert (event.content["is_error"], event.content["output"]) == (True, "no force pushes")


def test_a_stop_hook_that_reported_errors_is_a_failed_result() -> None:
    record = _attachment({})
    del record["attachment"]
    record.update(type="system", subtype="stop_hook_summary", hookErrors=["3 TODO items left"])
    [event] = _events(record)
    assert (event.content["tool"], event.content["is_error"]) == ("hook:Stop", True)
    assert event.content["output"] == "3 TODO items left"


@pytest.mark.parametrize(
    "attachment",
    [
        {**NON_BLOCKING, "type": "hook_success", "exitCode": 0, "stderr": ""},
        {"type": "hook_success", "hookName": "PostToolUse:Bash", "content": "Success"},
    ],
)
def test_a_hook_that_succeeded_is_no_failure(attachment: dict[str, Any]) -> None:
    assert not any(e.content.get("is_error") for e in _events(_attachment(attachment)))


@pytest.mark.parametrize(
    ("hook", "content"),
    [
        ("SessionStart:startup", "[tracker] 3 open issues: run `tk ready` to pick one"),
        ("UserPromptSubmit", "Branch feature/x is 2 commits behind main"),
        # the host kept only a preview of a long output: still what the assistant got
        ("SessionStart:resume", "<persisted-output>\nOutput too large (11.5KB).\nPreview:\nAlways"),
    ],
)
def test_the_plain_output_of_a_hook_the_assistant_is_given_is_the_hooks_words(
    hook: str, content: str
) -> None:
    attachment = {
        "type": "hook_success",
        "hookName": hook,
        "hookEvent": hook.split(":", maxsplit=1)[0],
        "stdout": content + "\n",
        "content": content,
        "exitCode": 0,
    }
    [event] = _events(_attachment(attachment))
    assert (event.event_type, event.origin) == (EventType.USER_MESSAGE, Origin.HOOK)
    assert event.content["text"] == content


@pytest.mark.parametrize(
    "attachment",
    [
        # a JSON answer: its context comes in its own `hook_additional_context` record
        {
            "type": "hook_success",
            "hookName": "SessionStart:startup",
            "hookEvent": "SessionStart",
            "stdout": '{"hookSpecificOutput": {"additionalContext": "x"}}\n',
            "content": "",
            "exitCode": 0,
        },
        {"type": "hook_success", "hookName": "SessionStart:startup", "content": '{"a": 1}'},
        # output of hooks the assistant never sees
        {"type": "hook_success", "hookName": "Stop", "hookEvent": "Stop", "content": "idle"},
        {"type": "hook_success", "hookName": "PostToolUse:Edit", "content": "formatted 1 file"},
        {"type": "hook_success", "hookName": "SessionStart:startup", "content": "  \n"},
    ],
)
def test_other_hook_successes_say_nothing(attachment: dict[str, Any]) -> None:
    assert _events(_attachment(attachment)) == []


def _system_line(content: str) -> dict[str, Any]:
    """A hook's outcome as Claude Code 1.0 wrote it: a `system` record's text, name in bold."""
    record = _attachment({})
    del record["attachment"]
    record.update(type="system", content=content, level="warning", toolUseID="toolu_1")
    return record


def test_a_hook_failure_as_claude_code_1_0_wrote_it_is_a_failed_result() -> None:
    text = (
        "\u001b[1mPostToolUse:Edit\u001b[22m [uv run ruff check] failed with non-blocking status"
        " code 1: src/app.py:3:1: F401 `os` imported but unused"
    )
    [event] = _events(_system_line(text))
    assert event.origin is Origin.HOOK
    assert (event.content["tool"], event.content["is_error"]) == ("hook:PostToolUse:Edit", True)
    assert event.content["exit_code"] == 1
    assert event.content["output"] == "src/app.py:3:1: F401 `os` imported but unused"


@pytest.mark.parametrize(
    "text",
    [
        "\u001b[1mPostToolUse:Edit\u001b[22m [uv run ruff format] completed successfully: 1 file"
        " reformatted",
        "Running \u001b[1mPostToolUse:Edit\u001b[22m...",
        "Stop [bash -c 'echo failed with non-blocking status code 1'] completed successfully: ok",
    ],
)
def test_a_hook_that_ran_or_succeeded_in_claude_code_1_0_is_no_failure(text: str) -> None:
    assert _events(_system_line(text)) == []
