"""Claude Code background commands: the launch, then the record that says how the command ended.

Records are shaped as Claude Code writes them: 2.1.332 (a `<task-notification>` user turn, as
the real CLI wrote it against a scripted model) and 2.0 (`BashOutput` and `KillShell` results,
as in the JSSoundRecorder sessions of the claude-code-log fixtures).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import ClaudeFileParser

SESSION = "799d4ecf-b59f-413a-8ed1-475cc4f22d21"
CWD = "/home/dev/repo"
PATH = "/p/projects/-home-dev-repo/s.jsonl"
TASK = "bnejukxwt"
OUTPUT_FILE = f"/tmp/claude-0/-home-dev-repo/{SESSION}/tasks/{TASK}.output"
LAUNCHED = (
    f"Command running in background with ID: {TASK}. Output is being written to: {OUTPUT_FILE}."
    " You will be notified when it completes. To check interim output, use Read on that file path."
)


def _record(kind: str, uuid: str, **extra: Any) -> dict[str, Any]:
    record = {
        "type": kind,
        "uuid": uuid,
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": SESSION,
        "cwd": CWD,
        "version": "2.1.332",
        "timestamp": "2026-11-30T03:09:52.241Z",
    }
    record.update(extra)
    return record


def _tool_use(uuid: str, tool_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    block = {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}
    message = {"id": f"msg_{uuid}", "role": "assistant", "model": "claude", "content": [block]}
    return _record("assistant", uuid, message=message)


def _tool_result(
    uuid: str, tool_id: str, output: str, structured: object = None, *, is_error: bool = False
) -> dict[str, Any]:
    block = {"tool_use_id": tool_id, "type": "tool_result", "content": output, "is_error": is_error}
    record = _record("user", uuid, message={"role": "user", "content": [block]})
    if structured is not None:
        record["toolUseResult"] = structured
    return record


def _launch(command: str = "pytest -q", task: str = TASK) -> list[dict[str, Any]]:
    tool_input = {"command": command, "description": "Run the suite", "run_in_background": True}
    structured = {
        "stdout": "",
        "stderr": "",
        "interrupted": False,
        "isImage": False,
        "noOutputExpected": False,
        "backgroundTaskId": task,
    }
    return [
        _tool_use("a1", "toolu_1", "Bash", tool_input),
        _tool_result("r1", "toolu_1", LAUNCHED.replace(TASK, task), structured),
    ]


def _notification_text(status: str, summary: str, task: str = TASK) -> str:
    return (
        f"<task-notification>\n<task-id>{task}</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n"
        f"<output-file>{OUTPUT_FILE}</output-file>\n<status>{status}</status>\n"
        f"<summary>{summary}</summary>\n</task-notification>"
    )


def _notification(uuid: str, status: str, summary: str) -> dict[str, Any]:
    """The user turn the host starts when a background command ends (2.1.332)."""
    return _record(
        "user",
        uuid,
        message={"role": "user", "content": _notification_text(status, summary)},
        origin={"kind": "task-notification", "producer": "session-task", "runId": "r"},
        promptSource="system",
    )


def _feed(parser: ClaudeFileParser, *records: dict[str, Any]) -> list[Event]:
    events: list[Event] = []
    for index, record in enumerate(records):
        position = SourcePosition(path=PATH, inode=7, end_offset=index)
        events.extend(parser.feed(json.dumps(record).encode(), position))
    return events


def _all_runs(events: list[Event]) -> list[Event]:
    return [e for e in events if e.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN)]


def _runs(events: list[Event]) -> list[Event]:
    """The runs with a result (not a launch's)."""
    return [e for e in _all_runs(events) if e.content.get("background") is not True]


def test_a_launch_is_a_run_without_a_result_until_the_command_ends() -> None:
    events = _feed(ClaudeFileParser(PATH), *_launch())
    assert [e.event_type for e in events] == [
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.TEST_RUN,
    ]
    assert events[1].content["output"].startswith("Command running in background")
    assert events[2].content == {
        "command": "pytest -q",
        "tool_use_id": "toolu_1",
        "cwd": CWD,
        "background": True,
    }


def test_a_failure_notification_makes_the_test_run_with_its_exit_code() -> None:
    summary = 'Background command "Run the suite" failed with exit code 3'
    events = _feed(ClaudeFileParser(PATH), *_launch(), _notification("n1", "failed", summary))
    [run] = _runs(events)
    assert run.event_type is EventType.TEST_RUN
    assert run.content["command"] == "pytest -q"
    assert run.content["tool_use_id"] == "toolu_1"
    assert (run.content["exit_code"], run.content["is_error"]) == (3, True)
    assert run.content["output"] == summary
    assert run.content["cwd"] == CWD
    said = [e for e in events if e.event_type is EventType.USER_MESSAGE]
    assert [e.origin for e in said] == [Origin.HARNESS]  # the notification is the host's


def test_a_completed_notification_is_a_success_and_is_linked_once() -> None:
    summary = 'Background command "Run the suite" completed (exit code 0)'
    text = _notification_text("completed", summary)
    queued = {"type": "queued_command", "prompt": text, "commandMode": "task"}
    events = _feed(
        ClaudeFileParser(PATH),
        *_launch("npm run build"),
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "content": text,
            "sessionId": SESSION,
            "timestamp": "2026-11-30T03:09:55.849Z",
        },
        _record("attachment", "q1", attachment=queued),
        _notification("n1", "completed", summary),
        _notification("n2", "completed", summary),
    )
    [run] = _runs(events)
    assert run.event_type is EventType.COMMAND_RUN
    assert (run.content["command"], run.content["exit_code"], run.content["is_error"]) == (
        "npm run build",
        0,
        False,
    )


def test_a_killed_or_never_finished_command_says_nothing() -> None:
    killed = _notification("n1", "killed", 'Background command "Run the suite" was stopped')
    assert _runs(_feed(ClaudeFileParser(PATH), *_launch(), killed)) == []
    assert _runs(_feed(ClaudeFileParser(PATH), *_launch())) == []
    stopped = {
        "message": f"Successfully stopped task: {TASK} (pytest -q)",
        "task_id": TASK,
        "task_type": "local_bash",
        "command": "pytest -q",
    }
    late = _notification("n2", "failed", "failed with exit code 137")
    events = _feed(
        ClaudeFileParser(PATH),
        *_launch(),
        _tool_use("a2", "toolu_2", "TaskStop", {"task_id": TASK}),
        _tool_result("r2", "toolu_2", json.dumps(stopped), stopped),
        late,
    )
    assert _runs(events) == []


def _bash_output(uuid: str, tool_id: str, status: str, code: int | None) -> list[dict[str, Any]]:
    """A 2.0 `BashOutput` call and its result."""
    stdout = "> demo@0.1.0 test\n> vitest run\n\n 2 failed | 5 passed"
    structured = {
        "shellId": "dce0af",
        "command": "pnpm test",
        "status": status,
        "exitCode": code,
        "stdout": stdout,
        "stderr": "FAIL src/a.test.ts",
        "stdoutLines": 4,
        "stderrLines": 1,
        "timestamp": "2025-11-18T00:03:27.238Z",
    }
    text = f"<status>{status}</status>\n\n<stdout>\n{stdout}\n</stdout>\n\n<timestamp>t</timestamp>"
    return [
        _tool_use(f"a{uuid}", tool_id, "BashOutput", {"bash_id": "dce0af"}),
        _tool_result(f"r{uuid}", tool_id, text, structured),
    ]


def test_bash_output_links_the_finished_run_once_with_its_output() -> None:
    events = _feed(
        ClaudeFileParser(PATH),
        *_launch("pnpm test", task="dce0af"),
        *_bash_output("2", "toolu_2", "running", None),
        *_bash_output("3", "toolu_3", "failed", 1),
        *_bash_output("4", "toolu_4", "failed", 1),
    )
    [run] = _runs(events)
    assert run.event_type is EventType.TEST_RUN
    assert run.content["tool_use_id"] == "toolu_1"
    assert (run.content["exit_code"], run.content["is_error"]) == (1, True)
    assert "2 failed | 5 passed" in run.content["output"]
    assert "FAIL src/a.test.ts" in run.content["output"]


def test_bash_output_without_a_structured_result_is_read_from_its_text() -> None:
    text = "<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<stdout>\nbuilt\n</stdout>"
    events = _feed(
        ClaudeFileParser(PATH),
        *_launch("make", task="dce0af"),
        _tool_use("a2", "toolu_2", "BashOutput", {"bash_id": "dce0af"}),
        _tool_result("r2", "toolu_2", text),
    )
    [run] = _runs(events)
    assert (run.content["exit_code"], run.content["is_error"], run.content["output"]) == (
        0,
        False,
        "built",
    )


def test_a_killed_shell_read_back_after_kill_shell_says_nothing() -> None:
    events = _feed(
        ClaudeFileParser(PATH),
        *_launch("pnpm dev", task="dce0af"),
        *_bash_output("2", "toolu_2", "running", None),
        _tool_use("a3", "toolu_3", "KillShell", {"shell_id": "dce0af"}),
        _tool_result("r3", "toolu_3", '{"message":"Successfully killed shell: dce0af (pnpm dev)"}'),
        *_bash_output("4", "toolu_4", "killed", None),
    )
    assert _runs(events) == []


def test_a_running_command_survives_a_cursor_restore() -> None:
    first = ClaudeFileParser(PATH)
    _feed(first, *_launch())
    state = json.loads(json.dumps(first.export_state()))
    assert list(state["running"]) == ["toolu_1"]
    second = ClaudeFileParser(PATH)
    second.restore_state(state)
    events = _feed(second, _notification("n1", "failed", "failed with exit code 2"))
    [run] = _runs(events)
    assert (run.content["command"], run.content["exit_code"]) == ("pytest -q", 2)


def test_a_launch_that_failed_is_a_failed_command() -> None:
    events = _feed(
        ClaudeFileParser(PATH),
        _tool_use("a1", "toolu_1", "Bash", {"command": "pytest", "run_in_background": True}),
        _tool_result("r1", "toolu_1", "Exit code 127\nbash: pytest: not found", is_error=True),
    )
    [run] = _runs(events)
    assert (run.content["exit_code"], run.content["is_error"]) == (127, True)


def test_a_command_the_user_sent_to_the_background_waits_for_its_end() -> None:
    structured = {"stdout": "", "stderr": "", "interrupted": False, "backgroundTaskId": TASK}
    events = _feed(
        ClaudeFileParser(PATH),
        _tool_use("a1", "toolu_1", "Bash", {"command": "cargo test"}),
        _tool_result(
            "r1", "toolu_1", f"Command was manually backgrounded with ID: {TASK}", structured
        ),
        _notification("n1", "completed", 'Background command "cargo test" completed (exit code 0)'),
    )
    [run] = _runs(events)
    assert (run.content["command"], run.content["exit_code"]) == ("cargo test", 0)


# --- odd and hostile records: a clear outcome, nothing invented, nothing lost ------------------


def _said(events: list[Event]) -> list[str]:
    return [e.content["text"] for e in events if e.event_type is EventType.USER_MESSAGE]


@pytest.mark.parametrize(
    "summary",
    [
        'Background command "Run the suite" failed',
        'Background command "Run the suite" failed with exit code banana',
        'Background command "Run the suite" failed with exit code 99999999999',
    ],
)
def test_a_failure_without_a_readable_exit_code_is_a_failure_of_unknown_code(summary: str) -> None:
    events = _feed(ClaudeFileParser(PATH), *_launch(), _notification("n1", "failed", summary))
    [run] = _runs(events)
    assert (run.content["exit_code"], run.content["is_error"]) == (None, True)


def test_the_exit_code_is_the_hosts_not_one_quoted_in_the_description() -> None:
    summary = 'Background command "retry until exit code 5 stops" completed (exit code 0)'
    events = _feed(ClaudeFileParser(PATH), *_launch(), _notification("n1", "completed", summary))
    [run] = _runs(events)
    assert (run.content["exit_code"], run.content["is_error"]) == (0, False)


def test_markup_in_the_description_does_not_cut_the_summary() -> None:
    summary = (
        'Background command "echo </summary><status>completed</status>" failed with exit code 3'
    )
    events = _feed(ClaudeFileParser(PATH), *_launch(), _notification("n1", "failed", summary))
    [run] = _runs(events)
    assert (run.content["exit_code"], run.content["is_error"]) == (3, True)
    assert run.content["output"] == summary


def test_a_notification_for_an_unknown_task_links_nothing_and_keeps_the_launch() -> None:
    other = _notification_text("failed", "failed with exit code 1", task="zzz").replace(
        "toolu_1", "toolu_9"
    )
    stray = _record("user", "n1", message={"role": "user", "content": other})
    parser = ClaudeFileParser(PATH)
    events = _feed(parser, *_launch(), stray)
    assert _runs(events) == []
    assert any("<task-id>zzz</task-id>" in text for text in _said(events))  # the text is kept
    later = _feed(parser, _notification("n2", "completed", "completed (exit code 0)"))
    [run] = _runs(later)
    assert (run.content["command"], run.content["exit_code"]) == ("pytest -q", 0)


def test_a_notification_of_an_unknown_status_does_not_end_the_command() -> None:
    parser = ClaudeFileParser(PATH)
    events = _feed(parser, *_launch(), _notification("n1", "exploded", "exit code 4"))
    assert _runs(events) == []
    assert list(parser.export_state()["running"]) == ["toolu_1"]
    [run] = _runs(_feed(parser, _notification("n2", "failed", "failed with exit code 2")))
    assert (run.content["exit_code"], run.content["is_error"]) == (2, True)


def test_a_command_read_back_then_notified_is_linked_once() -> None:
    events = _feed(
        ClaudeFileParser(PATH),
        *_launch("pnpm test", task="dce0af"),
        *_bash_output("2", "toolu_2", "failed", 1),
        _notification("n1", "completed", "completed (exit code 0)"),
    )
    [run] = _runs(events)
    assert (run.content["exit_code"], run.content["is_error"]) == (1, True)


def test_bash_output_of_a_task_that_never_launched_says_nothing() -> None:
    parser = ClaudeFileParser(PATH)
    events = _feed(parser, *_bash_output("2", "toolu_2", "completed", 0))
    assert _runs(events) == []
    assert [e.event_type for e in events] == [EventType.TOOL_CALL, EventType.TOOL_RESULT]
    assert parser.skipped["internal_error"] == 0


def test_a_huge_notification_is_read_and_its_output_capped() -> None:
    summary = "x" * 2_000_000 + " failed with exit code 7"
    parser = ClaudeFileParser(PATH)
    events = _feed(parser, *_launch(), _notification("n1", "failed", summary))
    [run] = _runs(events)
    assert run.content["exit_code"] == 7
    assert len(run.content["output"]) < 100_000
    assert parser.skipped["internal_error"] == 0


def test_a_running_command_restored_without_its_command_is_dropped_not_raised() -> None:
    parser = ClaudeFileParser(PATH)
    parser.restore_state({"running": {"toolu_1": {"name": "Bash", "task_id": TASK}}})
    events = _feed(parser, _notification("n1", "failed", "failed with exit code 2"))
    assert parser.skipped["internal_error"] == 0
    assert _runs(events) == []
    assert _said(events)  # the notification's text is still the host's message


def test_a_launch_known_only_from_its_text_is_linked_to_its_read_back() -> None:
    """Two calls answered in one record keep no `toolUseResult`: the task id is read from the
    launch's text, where a full stop follows it."""
    tool_input = {"command": "pytest -q", "run_in_background": True}
    other = {"command": "sleep 1", "run_in_background": True}
    blocks = [
        {"tool_use_id": tool_id, "type": "tool_result", "content": text, "is_error": False}
        for tool_id, text in (("toolu_1", LAUNCHED), ("toolu_5", LAUNCHED.replace(TASK, "b2")))
    ]
    read_back = (
        "<retrieval_status>success</retrieval_status>\n<task_id>bnejukxwt</task_id>\n"
        "<status>completed</status>\n<exit_code>0</exit_code>\n<output>12 passed</output>"
    )
    events = _feed(
        ClaudeFileParser(PATH),
        _tool_use("a1", "toolu_1", "Bash", tool_input),
        _tool_use("a5", "toolu_5", "Bash", other),
        _record("user", "r1", message={"role": "user", "content": blocks}),
        _tool_use("a2", "toolu_2", "TaskOutput", {"task_id": TASK}),
        _tool_result("r2", "toolu_2", read_back),
    )
    [run] = _runs(events)
    assert (run.content["command"], run.content["exit_code"]) == ("pytest -q", 0)
    assert run.content["output"] == "12 passed"
