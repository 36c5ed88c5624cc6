"""Codex rollout parsing: both eras, call pairing, exit codes, apply_patch file paths."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import CodexFileParser, parse_bytes
from squirrel_ingest.parsers.patches import patch_paths
from squirrel_ingest.parsers.shell_commands import READ_TOOL
from squirrel_memory.extractors.file_reads import READ_TOOLS

FIXTURES = Path(__file__).parents[2] / "fixtures" / "codex"
OLD = FIXTURES / "rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"
EXCERPT = (
    FIXTURES / "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799-excerpt.jsonl"
)
TS = "2026-05-11T08:27:17.490Z"


def _wrapped(kind: str, payload: dict[str, Any], timestamp: str = TS) -> bytes:
    return json.dumps({"timestamp": timestamp, "type": kind, "payload": payload}).encode()


def _meta(cwd: str = "/work/repo") -> bytes:
    return _wrapped(
        "session_meta", {"id": "sess-1", "cwd": cwd, "cli_version": "0.125.0", "source": "cli"}
    )


def _feed(parser: CodexFileParser, *lines: bytes) -> list[Event]:
    position = SourcePosition(path="rollout-x.jsonl", inode=1, end_offset=0)
    return [event for line in lines for event in parser.feed(line, position)]


def _of(events: list[Event], event_type: EventType) -> list[Event]:
    return [event for event in events if event.event_type is event_type]


def test_older_rollout_pairs_shell_calls_and_reads_exit_codes() -> None:
    result = parse_bytes(CodexFileParser(str(OLD)), OLD.read_bytes(), str(OLD))
    runs = _of(result.events, EventType.COMMAND_RUN)
    assert (runs[0].content["command"], runs[0].content["exit_code"]) == ("ls", 0)
    assert len(runs) == 2  # `ls`, `rg --files`; `sed -n '1,160p' README.md` is a read
    (read,) = [
        e for e in _of(result.events, EventType.TOOL_RESULT) if e.content["tool"] == READ_TOOL
    ]
    assert read.file_paths == ("README.md",)
    assert read.content["output"].startswith("# AI/Run CodeMie CLI\n")
    said = _of(result.events, EventType.USER_MESSAGE)
    (prompt,) = [e for e in said if e.origin is Origin.TYPED]
    assert prompt.content["text"].startswith("what is current repository about?")
    assert {e.origin for e in said} == {Origin.TYPED, Origin.HARNESS}  # AGENTS.md, environment
    assert {(e.session_id, e.source_version) for e in result.events} == {
        ("019b7f94-51b4-7593-922e-ba12b5b73b52", "0.77.0")
    }
    assert {e.cwd for e in result.events} == {
        "/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code"
    }
    assert result.skipped["duplicate_user_message"] >= 1  # the typed prompt, repeated


def test_still_running_command_takes_its_exit_code_from_exec_command_end() -> None:
    result = parse_bytes(CodexFileParser(str(EXCERPT)), EXCERPT.read_bytes(), str(EXCERPT))
    (test,) = _of(result.events, EventType.TEST_RUN)
    assert test.content["command"].startswith("npm test")
    assert (test.content["exit_code"], test.content["is_error"]) == (1, True)
    runs = _of(result.events, EventType.COMMAND_RUN)
    assert [run.content["exit_code"] for run in runs] == [0, 0]
    assert "Process running" not in runs[0].content["output"]


def test_apply_patch_is_a_code_change_per_file_and_patch_end_is_not_repeated() -> None:
    result = parse_bytes(CodexFileParser(str(EXCERPT)), EXCERPT.read_bytes(), str(EXCERPT))
    changes = _of(result.events, EventType.CODE_CHANGE)
    assert [c.content["path"] for c in changes] == [
        "src/agents/plugins/__tests__/codemie-code-reasoning.test.ts"
    ]
    assert result.skipped["duplicate_patch_end"] == 1


def test_failed_patch_changes_nothing_and_absolute_paths_become_relative() -> None:
    patch = (
        "*** Begin Patch\n*** Add File: /work/repo/new.py\n+x\n*** Delete File: old.py\n"
        "*** End Patch"
    )
    failed = json.dumps({"output": "verification failed", "metadata": {"exit_code": 1}})
    ok = json.dumps({"output": "Success.", "metadata": {"exit_code": 0}})
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _wrapped(
            "response_item",
            {"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": patch},
        ),
        _wrapped(
            "response_item", {"type": "custom_tool_call_output", "call_id": "c1", "output": failed}
        ),
        _wrapped(
            "response_item",
            {"type": "custom_tool_call", "call_id": "c2", "name": "apply_patch", "input": patch},
        ),
        _wrapped(
            "response_item", {"type": "custom_tool_call_output", "call_id": "c2", "output": ok}
        ),
    )
    assert [r.content["is_error"] for r in _of(events, EventType.TOOL_RESULT)] == [True, False]
    assert [c.content["path"] for c in _of(events, EventType.CODE_CHANGE)] == ["new.py", "old.py"]


def test_patch_paths_reads_add_update_delete_and_move_headers() -> None:
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** Move to: b.py\n"
        "*** Add File: c/d.ts\n+1\n*** Delete File: e.md\n*** End Patch\n"
    )
    assert patch_paths(patch) == ("a.py", "b.py", "c/d.ts", "e.md")


def test_bare_era_rollout_uses_meta_timestamp_and_marks_injected_context() -> None:
    lines = [
        json.dumps(
            {"id": "bare-1", "timestamp": "2025-08-01T10:00:00Z", "instructions": "", "git": {}}
        ).encode(),
        json.dumps({"record_type": "state"}).encode(),
        json.dumps(
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "<environment_context>cwd</environment_context>"}
                ],
            }
        ).encode(),
        json.dumps(
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "run tests"}],
            }
        ).encode(),
        json.dumps(
            {
                "type": "function_call",
                "name": "shell",
                "call_id": "c1",
                "arguments": json.dumps({"command": ["bash", "-lc", "cargo test"]}),
            }
        ).encode(),
        json.dumps(
            {
                "type": "function_call_output",
                "call_id": "c1",
                "output": json.dumps({"output": "ok", "metadata": {"exit_code": 101}}),
            }
        ).encode(),
    ]
    parser = CodexFileParser("rollout-x.jsonl")
    events = _feed(parser, *lines)
    assert [(e.event_type, e.origin) for e in events] == [
        (EventType.USER_MESSAGE, Origin.HARNESS),
        (EventType.USER_MESSAGE, Origin.TYPED),
        (EventType.TOOL_CALL, Origin.ASSISTANT),
        (EventType.TOOL_RESULT, Origin.TOOL_RESULT),
        (EventType.TEST_RUN, Origin.ASSISTANT),
    ]
    assert events[1].session_id == "bare-1"
    assert events[1].timestamp.isoformat() == "2025-08-01T10:00:00+00:00"
    assert (events[4].content["command"], events[4].content["exit_code"]) == ("cargo test", 101)


def test_compacted_record_is_a_compaction_summary() -> None:
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _wrapped("compacted", {"message": "Summary of the work so far", "replacement_history": []}),
    )
    assert [(e.event_type, e.content["text"]) for e in events] == [
        (EventType.COMPACTION_SUMMARY, "Summary of the work so far")
    ]


def test_assistant_text_comes_from_response_items_not_agent_message_events() -> None:
    parser = CodexFileParser("rollout-x.jsonl")
    events = _feed(
        parser,
        _meta(),
        _wrapped("event_msg", {"type": "agent_message", "message": "Done."}),
        _wrapped(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Done."}],
            },
        ),
    )
    assert [e.content["text"] for e in _of(events, EventType.ASSISTANT_RESPONSE)] == ["Done."]


def test_subagent_rollout_is_marked_sidechain() -> None:
    meta = {
        "id": "child",
        "cwd": "/r",
        "source": {"subagent": {"thread_spawn": {}}},
        "agent_nickname": "scout",
    }
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _wrapped("session_meta", meta),
        _wrapped("event_msg", {"type": "user_message", "message": "look around"}),
    )
    assert [(e.sidechain, e.agent_id) for e in events] == [(True, "scout")]


def test_unpaired_exec_end_still_records_the_command() -> None:
    end = {
        "type": "exec_command_end",
        "call_id": "zz",
        "command": ["/bin/zsh", "-lc", "go test ./..."],
        "exit_code": 0,
    }
    events = _feed(CodexFileParser("rollout-x.jsonl"), _meta(), _wrapped("event_msg", end))
    assert [(e.event_type, e.content["command"]) for e in events] == [
        (EventType.TEST_RUN, "go test ./...")
    ]


@pytest.mark.parametrize(
    "line",
    [
        b"{",
        b"null",
        _wrapped(
            "response_item",
            {"type": "function_call", "call_id": "c", "name": "shell", "arguments": "{bad"},
        ),
        _wrapped(
            "response_item", {"type": "function_call_output", "call_id": 5, "output": {"x": [1]}}
        ),
        _wrapped("event_msg", {"type": "exec_command_end", "command": 12}),
        _wrapped("session_meta", {"id": 3, "source": []}),
        json.dumps({"timestamp": "not a time", "type": "event_msg", "payload": {}}).encode(),
        json.dumps({"type": "response_item", "payload": "text"}).encode(),
    ],
)
def test_malformed_records_never_raise(line: bytes) -> None:
    parser = CodexFileParser("rollout-x.jsonl")
    events = parser.feed(line, SourcePosition(path="p", inode=0, end_offset=0))
    assert parser.skipped["internal_error"] == 0
    assert events or sum(parser.skipped.values()) >= 1


def test_exported_state_lets_a_new_parser_finish_a_running_command() -> None:
    first = CodexFileParser("rollout-x.jsonl")
    call = {
        "type": "function_call",
        "name": "exec_command",
        "call_id": "c1",
        "arguments": json.dumps({"cmd": "pytest"}),
    }
    output = {
        "type": "function_call_output",
        "call_id": "c1",
        "output": "Process running with session ID 7",
    }
    _feed(first, _meta(), _wrapped("response_item", call), _wrapped("response_item", output))
    second = CodexFileParser("rollout-x.jsonl")
    second.restore_state(json.loads(json.dumps(first.export_state())))
    end = {
        "type": "exec_command_end",
        "call_id": "c1",
        "command": ["bash", "-lc", "pytest"],
        "exit_code": 0,
    }
    events = _feed(second, _wrapped("event_msg", end))
    assert [(e.event_type, e.content["exit_code"], e.session_id) for e in events] == [
        (EventType.TEST_RUN, 0, "sess-1")
    ]


def _user_item(text: str) -> bytes:
    item = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    return _wrapped("response_item", item)


def _completed_prompt(text: str) -> bytes:
    item = {"type": "UserMessage", "id": "u1", "content": [{"type": "text", "text": text}]}
    return _wrapped("event_msg", {"type": "item_completed", "turn_id": "t1", "item": item})


def test_codex_0171_prompts_come_from_item_completed_and_usage_records_are_ignored() -> None:
    """0.171 writes no `user_message` event: the prompt is an `item_completed` UserMessage
    (beside its response item), and a `token_usage_record` follows each turn."""
    usage = _wrapped("token_usage_record", {"thread_id": "sess-1", "turn_id": "t1"})
    answer = _wrapped(
        "response_item",
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "ok"}],
        },
    )
    parser = CodexFileParser("rollout-x.jsonl")
    events = _feed(
        parser,
        _meta(),
        _user_item("Run the tests"),
        _completed_prompt("Run the tests"),
        answer,
        usage,
        _user_item("Thanks"),
        _completed_prompt("Thanks"),
        answer,
        usage,
    )
    typed = [e.content["text"] for e in _of(events, EventType.USER_MESSAGE)]
    assert typed == ["Run the tests", "Thanks"]
    assert all(e.origin is Origin.TYPED for e in _of(events, EventType.USER_MESSAGE))
    assert parser.skipped["ignored_token_usage_record"] == 2
    assert "unknown_type" not in parser.skipped


def test_a_prompt_written_in_both_places_is_read_once_and_repeats_are_kept() -> None:
    message = _wrapped("event_msg", {"type": "user_message", "message": "again"})
    parser = CodexFileParser("rollout-x.jsonl")
    events = _feed(
        parser, _meta(), message, _completed_prompt("again"), message, _completed_prompt("again")
    )
    assert [e.content["text"] for e in _of(events, EventType.USER_MESSAGE)] == ["again", "again"]


def test_an_unknown_wrapped_record_is_counted_and_never_switches_to_the_bare_format() -> None:
    parser = CodexFileParser("rollout-x.jsonl")
    events = _feed(
        parser, _meta(), _wrapped("brand_new_record", {"x": 1}), _user_item("not typed here")
    )
    assert _of(events, EventType.USER_MESSAGE) == []
    assert parser.skipped["unknown_type"] == 1


def _shell(
    call_id: str, command: str, output: str, workdir: str = "/work/repo"
) -> tuple[bytes, bytes]:
    arguments = json.dumps({"command": command, "workdir": workdir})
    call = {"type": "function_call", "name": "shell_command", "arguments": arguments}
    return (
        _wrapped("response_item", {**call, "call_id": call_id}),
        _wrapped(
            "response_item", {"type": "function_call_output", "call_id": call_id, "output": output}
        ),
    )


def _ran(command: str, printed: str, workdir: str = "/work/repo") -> list[Event]:
    """The events of one shell call that exited 0 after printing `printed`."""
    report = f"Exit code: 0\nWall time: 0 seconds\nOutput:\n{printed}"
    return _feed(
        CodexFileParser("rollout-x.jsonl"), _meta(), *_shell("c1", command, report, workdir)
    )


def test_a_shell_result_keeps_what_the_command_printed_without_the_report_lines() -> None:
    report = "Exit code: 1\nWall time: 0.1 seconds\nOutput:\nerror: target shim binary not found\n"

    events = _feed(
        CodexFileParser("rollout-x.jsonl"), _meta(), *_shell("c1", "python a.py", report)
    )

    (run,) = _of(events, EventType.COMMAND_RUN)
    (result,) = _of(events, EventType.TOOL_RESULT)
    assert (run.content["exit_code"], run.content["is_error"]) == (1, True)
    assert (
        run.content["output"]
        == result.content["output"]
        == ("error: target shim binary not found\n")
    )


def test_a_shell_result_that_is_not_a_report_is_kept_whole() -> None:
    printed = "Output:\nnot a header above it\n"

    events = _feed(
        CodexFileParser("rollout-x.jsonl"), _meta(), *_shell("c1", "printf notes", printed)
    )

    (run,) = _of(events, EventType.COMMAND_RUN)
    assert run.content["output"] == printed


def test_a_shell_command_that_prints_a_file_from_its_start_is_that_files_read() -> None:
    events = _ran("sed -n '1,200p' /work/repo/README.md", "# Demo\n\nRun `make test`.\n")

    (call,) = _of(events, EventType.TOOL_CALL)
    (result,) = _of(events, EventType.TOOL_RESULT)
    assert (call.content["tool"], call.content["input"]["file_path"]) == (
        READ_TOOL,
        "/work/repo/README.md",
    )
    assert result.file_paths == ("README.md",)
    assert (result.content["tool"], result.content["is_error"]) == (READ_TOOL, False)
    assert result.content["output"] == "# Demo\n\nRun `make test`.\n"
    assert not _of(events, EventType.COMMAND_RUN)
    assert READ_TOOL in READ_TOOLS  # the extractors read it as they read Claude Code's Read


@pytest.mark.parametrize(
    "command",
    ["sed -n '40,80p' README.md", "cat README.md | grep make", "cat a.md b.md", "cat > notes.md"],
)
def test_a_command_that_is_not_a_whole_read_of_one_file_stays_a_command(command: str) -> None:
    events = _ran(command, "some lines\n")

    (run,) = _of(events, EventType.COMMAND_RUN)
    assert run.content["command"] == command
    assert {e.content["tool"] for e in _of(events, EventType.TOOL_RESULT)} == {"shell_command"}


@pytest.mark.parametrize(
    ("workdir", "ran_in"),
    [("/work/repo/web", "/work/repo/web"), ("web", "/work/repo/web"), ("", "/work/repo")],
)
def test_a_shell_command_runs_in_the_folder_its_call_names(workdir: str, ran_in: str) -> None:
    events = _ran("npm run build", "ok\n", workdir)

    (run,) = _of(events, EventType.COMMAND_RUN)
    assert run.content["cwd"] == ran_in
    assert {e.cwd for e in events} == {"/work/repo"}  # the session's folder, as before


def test_a_file_read_in_a_named_folder_is_that_folders_file() -> None:
    events = _ran("cat hoge.py", "print(1 + 1)\n", "/work/repo/myapp")

    (result,) = _of(events, EventType.TOOL_RESULT)
    assert (result.content["tool"], result.file_paths) == (READ_TOOL, ("myapp/hoge.py",))


@pytest.mark.parametrize(
    ("command", "shown", "lines"),
    [
        ("sed -n '1,3p' README.md", 3, [1, 3]),
        ("head -n 2 README.md", 2, [1, 2]),
        ("head README.md", 10, [1, 10]),
        ("nl -ba README.md | sed -n '1,4p'", 4, [1, 4]),
    ],
)
def test_a_read_that_printed_all_the_lines_it_asked_for_is_partial(
    command: str, shown: int, lines: list[int]
) -> None:
    events = _ran(command, "".join(f"line {n}\n" for n in range(1, shown + 1)))

    (result,) = _of(events, EventType.TOOL_RESULT)
    assert (result.content["partial"], result.content["lines"]) == (True, lines)


@pytest.mark.parametrize(
    "command", ["cat README.md", "sed -n '1,200p' README.md", "head README.md"]
)
def test_a_read_that_reached_the_end_of_the_file_is_whole(command: str) -> None:
    events = _ran(command, "# Demo\n\nRun `make test`.\n")

    (result,) = _of(events, EventType.TOOL_RESULT)
    assert "partial" not in result.content and "lines" not in result.content


def test_a_read_awaiting_its_output_keeps_its_line_limit_across_a_restart() -> None:
    call, output = _shell("c1", "head -n 2 README.md", "Exit code: 0\nOutput:\n# Demo\nline two")
    first = CodexFileParser("rollout-x.jsonl")
    _feed(first, _meta(), call)
    second = CodexFileParser("rollout-x.jsonl")
    second.restore_state(json.loads(json.dumps(first.export_state())))

    (result,) = _of(_feed(second, output), EventType.TOOL_RESULT)
    assert (result.content["tool"], result.content.get("lines")) == (READ_TOOL, [1, 2])


@pytest.mark.parametrize(
    ("output", "exit_code"),
    [
        (
            "failed in sandbox: fatal: Unable to create '/work/repo/.git/index.lock': "
            "Operation not permitted\n",
            None,
        ),
        (
            "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit "
            "code: 1, stdout: , stderr: bash: cannot create temp file for here document: Operation "
            "not permitted\n",
            1,
        ),
    ],
    ids=["failed-in-sandbox", "sandbox-denied-exec"],
)
def test_a_command_codex_says_failed_in_its_sandbox_is_a_failure(
    output: str, exit_code: int | None
) -> None:
    call = {
        "type": "function_call",
        "name": "shell",
        "call_id": "c1",
        "arguments": json.dumps({"command": ["bash", "-lc", "git add -A"]}),
    }
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _wrapped("response_item", call),
        _wrapped(
            "response_item", {"type": "function_call_output", "call_id": "c1", "output": output}
        ),
    )
    (run,) = _of(events, EventType.COMMAND_RUN)
    (result,) = _of(events, EventType.TOOL_RESULT)
    assert result.content["is_error"] is True
    assert run.content["exit_code"] == exit_code
    assert result.content["output"] == output


def test_output_that_only_mentions_the_sandbox_is_no_failure() -> None:
    call = {
        "type": "function_call",
        "name": "shell",
        "call_id": "c1",
        "arguments": json.dumps({"command": ["bash", "-lc", "grep -rn sandbox docs"]}),
    }
    output = "docs/security.md:3: commands that failed in sandbox are retried with approval\n"
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _wrapped("response_item", call),
        _wrapped(
            "response_item", {"type": "function_call_output", "call_id": "c1", "output": output}
        ),
    )
    (result,) = _of(events, EventType.TOOL_RESULT)
    assert result.content["is_error"] is False


def _exec_call(call_id: str, cmd: str, workdir: str) -> bytes:
    arguments = json.dumps({"cmd": cmd, "workdir": workdir})
    return _wrapped(
        "response_item",
        {
            "type": "function_call",
            "name": "exec_command",
            "arguments": arguments,
            "call_id": call_id,
        },
    )


def _exec_end(call_id: str, cmd: str, workdir: str, code: int, out: str) -> bytes:
    return _wrapped(
        "event_msg",
        {
            "type": "exec_command_end",
            "call_id": call_id,
            "command": ["/bin/bash", "-lc", cmd],
            "cwd": workdir,
            "aggregated_output": out,
            "exit_code": code,
        },
    )


def _exec_output(call_id: str, text: str) -> bytes:
    return _wrapped(
        "response_item", {"type": "function_call_output", "call_id": call_id, "output": text}
    )


def test_an_end_written_before_its_calls_output_is_one_run_in_the_calls_folder() -> None:
    done = "Chunk ID: 1\nWall time: 0.4 seconds\nProcess exited with code 1\nOutput:\nboom"
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _exec_call("c1", "mvn -q verify", "/work/repo/server"),
        _exec_end("c1", "mvn -q verify", "/work/repo/server", 1, "boom"),
        _exec_output("c1", done),
    )
    runs = [e for e in events if "command" in e.content and "exit_code" in e.content]
    assert [(r.content["command"], r.content["cwd"], r.content["exit_code"]) for r in runs] == [
        ("mvn -q verify", "/work/repo/server", 1)
    ]


def test_an_early_end_whose_output_says_still_running_is_the_run() -> None:
    running = "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 7\nOutput:\n"
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _exec_call("c1", "make check", "/work/repo"),
        _exec_end("c1", "make check", "/work/repo", 2, "failed"),
        _exec_output("c1", running),
    )
    runs = [e for e in events if "command" in e.content and "exit_code" in e.content]
    assert [(r.content["command"], r.content["exit_code"]) for r in runs] == [("make check", 2)]


def test_an_end_of_no_open_call_is_still_a_run() -> None:
    # Must not be held back: no call awaits an output (a command only the end records).
    events = _feed(
        CodexFileParser("rollout-x.jsonl"), _meta(), _exec_end("c9", "ls", "/work/repo", 0, "a")
    )
    runs = [e for e in events if "command" in e.content and "exit_code" in e.content]
    assert [(r.content["command"], r.content["exit_code"]) for r in runs] == [("ls", 0)]


def test_an_early_end_of_a_shell_read_leaves_the_read_alone() -> None:
    done = "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n[tool]\nx = 1"
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _exec_call("c1", "cat conf.toml", "/work/repo"),
        _exec_end("c1", "cat conf.toml", "/work/repo", 0, "[tool]\nx = 1"),
        _exec_output("c1", done),
    )
    assert [e for e in events if "command" in e.content and "exit_code" in e.content] == []
    (read,) = [e for e in events if e.event_type is EventType.TOOL_RESULT]
    assert (read.content["tool"], read.content["output"]) == (READ_TOOL, "[tool]\nx = 1")


def _poll(call_id: str, session: int) -> bytes:
    arguments = json.dumps({"session_id": session, "chars": "", "yield_time_ms": 30000})
    item = {"type": "function_call", "name": "write_stdin", "arguments": arguments}
    return _wrapped("response_item", {**item, "call_id": call_id})


def _runs(events: list[Event]) -> list[tuple[str, int | None, str]]:
    return [
        (e.content["command"], e.content["exit_code"], e.content["output"])
        for e in events
        if "command" in e.content and "exit_code" in e.content
    ]


_STARTED = "Chunk ID: a\nWall time: 10.0 seconds\nProcess running with session ID 7\nOutput:\n"
_STILL = "Chunk ID: b\nWall time: 30.0 seconds\nProcess running with session ID 7\nOutput:\n"
_EXITED = "Chunk ID: c\nWall time: 4.2 seconds\nProcess exited with code {code}\nOutput:\n"


def test_a_polled_command_whose_end_record_is_missing_takes_the_last_polls_exit_code() -> None:
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _exec_call("c1", "cargo test", "/work/repo"),
        _exec_output("c1", _STARTED + "Compiling app v0.1.0"),
        _poll("p1", 7),
        _exec_output("p1", _STILL + "running 12 tests"),
        _poll("p2", 7),
        _exec_output("p2", _EXITED.format(code=101) + "test result: FAILED. 11 passed; 1 failed"),
    )
    assert _runs(events) == [
        (
            "cargo test",
            101,
            "Compiling app v0.1.0\nrunning 12 tests\ntest result: FAILED. 11 passed; 1 failed",
        )
    ]
    (run,) = [e for e in events if "exit_code" in e.content and "command" in e.content]
    assert (run.event_type, run.content["tool_use_id"], run.content["is_error"]) == (
        EventType.TEST_RUN,
        "c1",
        True,
    )


@pytest.mark.parametrize("end_first", [True, False])
def test_a_polled_command_with_its_end_record_is_one_run(end_first: bool) -> None:
    end = _exec_end("c1", "cargo test", "/work/repo", 0, "test result: ok")
    last = [_exec_output("p1", _EXITED.format(code=0) + "test result: ok")]
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _exec_call("c1", "cargo test", "/work/repo"),
        _exec_output("c1", _STARTED),
        _poll("p1", 7),
        *([end, *last] if end_first else [*last, end]),
    )
    assert [(command, code) for command, code, _ in _runs(events)] == [("cargo test", 0)]


@pytest.mark.parametrize(
    "polls",
    [
        # cut while it still runs: no exit code anywhere
        [_poll("p1", 7), _exec_output("p1", _STILL + "running 12 tests")],
        # the exit code is only in what the command printed, not in the host's header
        [_poll("p1", 7), _exec_output("p1", _STILL + "Process exited with code 0\nExit code: 0")],
        # a poll of another session
        [_poll("p1", 8), _exec_output("p1", _EXITED.format(code=0))],
        # a poll whose session is a boolean, not a number
        [
            _wrapped(
                "response_item",
                {
                    "type": "function_call",
                    "name": "write_stdin",
                    "call_id": "p1",
                    "arguments": json.dumps({"session_id": True, "chars": ""}),
                },
            ),
            _exec_output("p1", _EXITED.format(code=0)),
        ],
    ],
)
def test_a_poll_that_does_not_say_the_command_exited_makes_no_run(polls: list[bytes]) -> None:
    events = _feed(
        CodexFileParser("rollout-x.jsonl"),
        _meta(),
        _exec_call("c1", "cargo test", "/work/repo"),
        _exec_output("c1", _STARTED),
        *polls,
    )
    assert _runs(events) == []


def test_a_new_parser_finishes_a_polled_command_from_the_exported_state() -> None:
    first = CodexFileParser("rollout-x.jsonl")
    _feed(
        first,
        _meta(),
        _exec_call("c1", "cargo test", "/work/repo"),
        _exec_output("c1", _STARTED + "Compiling app"),
        _poll("p1", 7),
    )
    second = CodexFileParser("rollout-x.jsonl")
    second.restore_state(json.loads(json.dumps(first.export_state())))
    events = _feed(second, _exec_output("p1", _EXITED.format(code=0) + "ok"))
    assert _runs(events) == [("cargo test", 0, "Compiling app\nok")]
