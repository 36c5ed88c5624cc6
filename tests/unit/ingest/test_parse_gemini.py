"""Gemini CLI parsing: rewritten legacy documents yield only new messages; JSONL is last-wins."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourcePosition
from squirrel_ingest.parsers import (
    GeminiJsonlParser,
    cursor_extra_for_document,
    parse_bytes,
    parse_gemini_json_document,
    seen_ids_from_cursor,
)
from squirrel_ingest.parsers.shell_commands import READ_TOOL

FIXTURES = Path(__file__).parents[2] / "fixtures" / "gemini"
REAL = FIXTURES / "session-2026-01-16T11-01-file-ops-37b7abef.json"
PATH = "/h/.gemini/tmp/proj/chats/session-2026-01-16T11-01-37b7abef.json"


def _doc(messages: list[dict[str, Any]], **extra: Any) -> bytes:
    return json.dumps(
        {"sessionId": "s-1", "projectHash": "ab", "messages": messages, **extra}
    ).encode()


def _call(
    status: str, output: str = "ok", name: str = "run_shell_command", **args: Any
) -> dict[str, Any]:
    result = [{"functionResponse": {"id": "t1", "name": name, "response": {"output": output}}}]
    return {
        "id": "t1",
        "name": name,
        "args": args or {"command": "pytest -q"},
        "status": status,
        "result": result,
    }


def _message(
    message_id: str, kind: str, content: str, calls: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "id": message_id,
        "type": kind,
        "timestamp": "2026-01-16T11:01:22Z",
        "content": content,
    }
    if calls is not None:
        message["toolCalls"] = calls
    return message


def _keys(events: list[Event]) -> list[tuple[Any, ...]]:
    return [(e.event_type, json.dumps(e.content, sort_keys=True)) for e in events]


def test_rewritten_document_yields_only_messages_not_seen_before() -> None:
    document = json.loads(REAL.read_bytes())
    whole, _ = parse_gemini_json_document(REAL.read_bytes(), PATH, 1, set())
    early = json.dumps({**document, "messages": document["messages"][:6]}).encode()

    first, seen = parse_gemini_json_document(early, PATH, 1, set())
    second, seen = parse_gemini_json_document(REAL.read_bytes(), PATH, 1, seen)
    third, _ = parse_gemini_json_document(REAL.read_bytes(), PATH, 1, seen)

    assert first and second
    assert _keys(first + second) == _keys(whole)
    assert third == []


def test_tool_call_is_emitted_once_it_finishes_in_a_later_rewrite() -> None:
    running = _doc(
        [_message("m1", "user", "run tests"), _message("m2", "gemini", "", [_call("executing")])]
    )
    finished = _doc(
        [
            _message("m1", "user", "run tests"),
            _message("m2", "gemini", "", [_call("success", "Exit Code: 1")]),
        ]
    )
    first, seen = parse_gemini_json_document(running, PATH, 1, set())
    second, seen = parse_gemini_json_document(finished, PATH, 1, seen)
    again, _ = parse_gemini_json_document(finished, PATH, 1, seen)
    assert [e.event_type for e in first] == [EventType.USER_MESSAGE]
    assert [e.event_type for e in second] == [
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.TEST_RUN,
    ]
    assert (second[2].content["exit_code"], second[2].content["is_error"]) == (1, True)
    assert again == []


def test_bounded_cursor_extra_restores_the_seen_set() -> None:
    data = REAL.read_bytes()
    _, seen = parse_gemini_json_document(data, PATH, 1, set())
    extra = json.loads(json.dumps(cursor_extra_for_document(data, seen)))
    assert extra["gemini_done_count"] == 14
    assert extra["gemini_tail_seen"] == []
    restored = seen_ids_from_cursor(data, extra)
    assert parse_gemini_json_document(data, PATH, 1, restored)[0] == []


def test_cursor_survives_a_chat_that_was_rewound_and_continued() -> None:
    original = _doc([_message(f"m{i}", "user", f"q{i}") for i in range(5)])
    _, seen = parse_gemini_json_document(original, PATH, 1, set())
    extra = cursor_extra_for_document(original, seen)
    rewound = _doc(
        [_message(f"m{i}", "user", f"q{i}") for i in range(5)] + [_message("m9", "user", "new")]
    )
    restored = seen_ids_from_cursor(rewound, extra)
    events, _ = parse_gemini_json_document(rewound, PATH, 1, restored)
    assert [e.content["text"] for e in events] == ["new"]


def test_gemini_edits_are_code_changes_relative_to_the_given_cwd() -> None:
    calls = [
        {**_call("success", name="write_file", file_path="/repo/src/a.py"), "id": "w1"},
        {**_call("error", name="replace", file_path="/repo/src/b.py"), "id": "w2"},
    ]
    events, _ = parse_gemini_json_document(
        _doc([_message("m1", "gemini", "", calls)]), PATH, 1, set(), cwd="/repo"
    )
    changes = [e for e in events if e.event_type is EventType.CODE_CHANGE]
    assert [(c.content["path"], c.file_paths) for c in changes] == [("src/a.py", ("src/a.py",))]


def test_drifted_legacy_document_with_model_parts_is_read() -> None:
    counter: Counter[str] = Counter()
    events, _ = parse_gemini_json_document(
        (FIXTURES / "large.json").read_bytes(), PATH, 1, set(), skipped=counter
    )
    texts = [e.content["text"] for e in events if e.event_type is EventType.ASSISTANT_RESPONSE]
    assert texts == ["Captured multiline output.", "Ok"]
    assert counter["ignored_info"] == 1


def test_unreadable_document_yields_nothing_and_keeps_the_seen_set() -> None:
    counter: Counter[str] = Counter()
    events, seen = parse_gemini_json_document(b'{"messages": [', PATH, 1, {"m:a"}, skipped=counter)
    assert (events, seen, counter["malformed_json"]) == ([], {"m:a"}, 1)


def test_jsonl_fixture_reads_messages_and_skips_metadata_patches() -> None:
    path = FIXTURES / "jsonl_v040.jsonl"
    result = parse_bytes(GeminiJsonlParser(str(path)), path.read_bytes(), str(path))
    assert [e.event_type for e in result.events] == [
        EventType.USER_MESSAGE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.COMMAND_RUN,
        EventType.ASSISTANT_RESPONSE,
    ]
    assert {e.session_id for e in result.events} == {"gemini_stage0_jsonl"}
    assert result.skipped["metadata_patch"] == 1


def test_jsonl_reappended_message_is_emitted_once_and_its_tool_call_once_finished() -> None:
    parser = GeminiJsonlParser("/h/.gemini/tmp/p/chats/session-x.jsonl", cwd="/repo")
    position = SourcePosition(path="session-x.jsonl", inode=1, end_offset=0)
    lines = [
        {"sessionId": "s-2", "projectHash": "p", "startTime": "2026-04-29T21:39:22Z"},
        _message("g1", "gemini", "Let me run it.", [_call("executing")]),
        _message("g1", "gemini", "Let me run it, revised.", [_call("success", "Exit Code: 0")]),
        _message("g1", "gemini", "Let me run it, revised.", [_call("success", "Exit Code: 0")]),
        {"$rewindTo": "g1"},
    ]
    events = [e for line in lines for e in parser.feed(json.dumps(line).encode(), position)]
    assert [e.event_type for e in events] == [
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.TEST_RUN,
    ]
    assert events[0].content["text"] == "Let me run it."
    assert (parser.skipped["repeated_message"], parser.skipped["rewind"]) == (2, 1)


def test_jsonl_checkpoint_set_emits_only_unseen_messages() -> None:
    parser = GeminiJsonlParser("session-x.jsonl")
    position = SourcePosition(path="session-x.jsonl", inode=1, end_offset=0)
    parser.feed(json.dumps(_message("u1", "user", "first")).encode(), position)
    checkpoint = {
        "$set": {"messages": [_message("u1", "user", "first"), _message("u2", "user", "second")]}
    }
    events = parser.feed(json.dumps(checkpoint).encode(), position)
    assert [e.content["text"] for e in events] == ["second"]


def test_jsonl_subagent_chat_is_marked_sidechain() -> None:
    parser = GeminiJsonlParser("/h/.gemini/tmp/p/chats/parent-1/child-1.jsonl")
    position = SourcePosition(path="child-1.jsonl", inode=1, end_offset=0)
    parser.feed(json.dumps({"sessionId": "child-1", "kind": "subagent"}).encode(), position)
    (event,) = parser.feed(json.dumps(_message("u1", "user", "task")).encode(), position)
    assert (event.sidechain, event.agent_id, event.session_id) == (True, "child-1", "parent-1")


def test_jsonl_state_round_trip_prevents_repeats_after_restart() -> None:
    position = SourcePosition(path="session-x.jsonl", inode=1, end_offset=0)
    first = GeminiJsonlParser("session-x.jsonl")
    first.feed(json.dumps(_message("u1", "user", "first")).encode(), position)
    second = GeminiJsonlParser("session-x.jsonl")
    second.restore_state(json.loads(json.dumps(first.export_state())))
    assert second.feed(json.dumps(_message("u1", "user", "first")).encode(), position) == []


def test_a_shell_result_keeps_what_the_command_printed_without_the_report_lines() -> None:
    report = (
        "Command: python hoge.py\nDirectory: (root)\nOutput: error: target shim binary not found\n"
        "Error: (none)\nExit Code: 1\nSignal: 0\nBackground PIDs: (none)\nProcess Group PGID: 7"
    )
    data = _doc(
        [_message("m1", "gemini", "", [_call("success", report, command="python hoge.py")])]
    )

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    (run,) = [e for e in events if e.event_type is EventType.COMMAND_RUN]
    (result,) = [e for e in events if e.event_type is EventType.TOOL_RESULT]
    assert (run.content["exit_code"], run.content["is_error"]) == (1, True)
    assert (
        run.content["output"] == result.content["output"] == ("error: target shim binary not found")
    )


def test_a_report_keeps_both_streams_and_a_real_error_but_no_placeholders() -> None:
    report = (
        "Command: npm t\nDirectory: app\nStdout: Error: Cannot find module 'x'\n  at load\n"
        "Stderr: (empty)\nError: Command failed\nExit Code: 1\nSignal: (none)\n"
        "Background PIDs: (none)\nProcess Group PGID: 9"
    )
    data = _doc([_message("m1", "gemini", "", [_call("success", report, command="npm t")])])

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    (run,) = [e for e in events if e.event_type is EventType.TEST_RUN]
    assert run.content["output"] == "Error: Cannot find module 'x'\n  at load\nCommand failed"


def test_the_short_report_of_later_versions_is_unwrapped_and_its_exit_code_read() -> None:
    failed = "Output: build.zig:5:60: error: no field named 'path'\n   ^~~~\nExit Code: 1\nProcess Group PGID: 41"
    passed = "Output: All 12 tests passed.\nProcess Group PGID: 42"
    first = _call("success", failed, command="zig build test")
    second = _call("success", passed, command="zig build test")
    second["id"] = "t2"
    data = _doc([_message("m1", "gemini", "", [first, second])])

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    runs = [e for e in events if e.event_type is EventType.TEST_RUN]
    assert [(r.content["output"], r.content["exit_code"]) for r in runs] == [
        ("build.zig:5:60: error: no field named 'path'\n   ^~~~", 1),
        ("All 12 tests passed.", 0),
    ]


def test_output_that_only_opens_on_output_is_not_taken_for_a_short_report() -> None:
    # No closing PGID line: a command that printed "Output: ..." itself, kept whole.
    printed = "Output: 3 files\nExit Code: 0 means fine"
    data = _doc([_message("m1", "gemini", "", [_call("success", printed, command="./count")])])

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    (run,) = [e for e in events if e.event_type is EventType.COMMAND_RUN]
    assert run.content["output"] == printed


def test_a_tool_answer_that_is_not_a_shell_report_is_kept_whole() -> None:
    answer = "Command: is a word\nOutput: here"
    data = _doc([_message("m1", "gemini", "", [_call("success", answer, name="read_file")])])

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    (result,) = [e for e in events if e.event_type is EventType.TOOL_RESULT]
    assert result.content["output"] == answer


def test_a_shell_command_runs_in_the_directory_its_call_names() -> None:
    report = "Command: npm run build\nDirectory: app\nOutput: ok\nError: (none)\nExit Code: 0"
    here = _call("success", report, command="npm run build", directory="app")
    root = _call("success", report, command="npm run build")
    root["id"] = "t2"
    data = _doc([_message("m1", "gemini", "", [here, root])])

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    runs = [e for e in events if e.event_type is EventType.COMMAND_RUN]
    assert [run.content["cwd"] for run in runs] == ["/w/app", "/w"]


def test_a_later_versions_dir_path_names_the_shell_commands_folder_too() -> None:
    report = "Output: ok\nProcess Group PGID: 3"
    here = _call("success", report, command="npm test", dir_path="web")
    empty = _call("success", report, command="npm test", dir_path="")
    empty["id"] = "t2"
    data = _doc([_message("m1", "gemini", "", [here, empty])])

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    runs = [e for e in events if e.event_type is EventType.TEST_RUN]
    assert [run.content["cwd"] for run in runs] == ["/w/web", "/w"]


@pytest.mark.parametrize(
    ("command", "printed", "lines"),
    [
        ("cat README.md", "# Demo\n\nRun it.", None),
        ("head -n 2 README.md", "# Demo\nline two", [1, 2]),
    ],
)
def test_a_shell_command_that_prints_a_file_is_that_files_read(
    command: str, printed: str, lines: list[int] | None
) -> None:
    report = f"Command: {command}\nDirectory: app\nOutput: {printed}\nError: (none)\nExit Code: 0"
    call = _call("success", report, command=command, directory="app")
    data = _doc([_message("m1", "gemini", "", [call])])

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    (tool_call,) = [e for e in events if e.event_type is EventType.TOOL_CALL]
    (result,) = [e for e in events if e.event_type is EventType.TOOL_RESULT]
    assert tool_call.content["input"]["file_path"] == "/w/app/README.md"
    assert (result.content["tool"], result.file_paths) == (READ_TOOL, ("app/README.md",))
    assert (result.content["output"], result.content.get("lines")) == (printed, lines)
    assert not [e for e in events if e.event_type is EventType.COMMAND_RUN]


@pytest.mark.parametrize(
    ("args", "lines"),
    [
        ({"offset": 40, "limit": 2}, [41, 42]),
        ({"limit": 2}, [1, 2]),
        ({"limit": 50}, None),
        ({}, None),
    ],
)
def test_a_read_file_with_an_offset_or_a_limit_it_filled_is_partial(
    args: dict[str, Any], lines: list[int] | None
) -> None:
    call = _call("success", "one\ntwo", name="read_file", file_path="README.md", **args)
    data = _doc([_message("m1", "gemini", "", [call])])

    events, _ = parse_gemini_json_document(data, PATH, 1, set(), cwd="/w")

    (result,) = [e for e in events if e.event_type is EventType.TOOL_RESULT]
    assert result.content.get("lines") == lines
    assert result.content.get("partial", False) is (lines is not None)
