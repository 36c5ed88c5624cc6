"""Claude Code transcript parsing: pairing, split messages, sidechains, compaction, resume."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import ClaudeFileParser, parse_bytes

FIXTURES = Path(__file__).parents[2] / "fixtures" / "claude"
SHARED = Path(__file__).resolve().parents[3].parent / "shared/fixtures/claude/codemie-code/claude"
SESSION = "11111111-2222-3333-4444-555555555555"
CWD = "/home/dev/repo"


def _position(offset: int = 0) -> SourcePosition:
    return SourcePosition(path="/p/projects/-x/s.jsonl", inode=7, end_offset=offset)


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record).encode()


def _record(kind: str, uuid: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    record = {
        "type": kind,
        "uuid": uuid,
        "parentUuid": None,
        "sessionId": SESSION,
        "cwd": CWD,
        "version": "2.1.7",
        "isSidechain": False,
        "timestamp": "2026-02-10T21:11:56.846Z",
        "message": message,
    }
    record.update(extra)
    return record


def _tool_use(uuid: str, tool_id: str, name: str, tool_input: dict[str, Any]) -> bytes:
    block = {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}
    message = {"id": f"msg_{uuid}", "role": "assistant", "model": "claude", "content": [block]}
    return _line(_record("assistant", uuid, message))


def _tool_result(
    uuid: str, tool_id: str, output: str, *, is_error: bool = False, extra: Any = None
) -> bytes:
    block = {"type": "tool_result", "tool_use_id": tool_id, "content": output, "is_error": is_error}
    record = _record("user", uuid, {"role": "user", "content": [block]})
    if extra is not None:
        record["toolUseResult"] = extra
    return _line(record)


def _feed(parser: ClaudeFileParser, *lines: bytes) -> list[Event]:
    events: list[Event] = []
    for index, line in enumerate(lines):
        events.extend(parser.feed(line, _position(index)))
    return events


def _of(events: list[Event], event_type: EventType) -> list[Event]:
    return [event for event in events if event.event_type is event_type]


def _key(event: Event) -> tuple[Any, ...]:
    return (
        event.event_type,
        event.timestamp,
        json.dumps(event.content, sort_keys=True),
        event.agent_id,
    )


def test_tool_result_is_paired_with_its_tool_use_by_id() -> None:
    parser = ClaudeFileParser("/p/projects/-x/s.jsonl")
    events = _feed(
        parser,
        _tool_use("u1", "toolu_1", "Read", {"file_path": f"{CWD}/src/app.py"}),
        _tool_use("u2", "toolu_2", "Grep", {"pattern": "x", "path": "/elsewhere"}),
        _tool_result("u3", "toolu_2", "no matches"),
        _tool_result("u4", "toolu_1", "     1→print()"),
    )
    results = _of(events, EventType.TOOL_RESULT)
    assert [(r.content["tool"], r.content["tool_use_id"]) for r in results] == [
        ("Grep", "toolu_2"),
        ("Read", "toolu_1"),
    ]
    assert results[1].file_paths == ("src/app.py",)
    assert results[0].file_paths == ("/elsewhere",)
    assert parser.skipped["unpaired_tool_result"] == 0


def test_every_tool_result_in_a_real_session_finds_its_tool_use() -> None:
    path = FIXTURES / "tmp-private" / "4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl"
    parser = ClaudeFileParser(str(path))
    result = parse_bytes(parser, path.read_bytes(), str(path))
    tool_results = _of(result.events, EventType.TOOL_RESULT)
    assert tool_results
    assert all(event.content["tool"] for event in tool_results)
    assert "unpaired_tool_result" not in result.skipped


def test_bash_command_becomes_command_run_with_exit_code() -> None:
    events = _feed(
        ClaudeFileParser("/p/projects/-x/s.jsonl"),
        _tool_use("u1", "toolu_1", "Bash", {"command": "ls -la"}),
        _tool_result("u2", "toolu_1", "total 0", extra={"stdout": "total 0", "interrupted": False}),
        _tool_use("u3", "toolu_2", "Bash", {"command": "cd src && python -m pytest -q"}),
        _tool_result("u4", "toolu_2", "Exit code 2\nE   assert 1 == 2", is_error=True),
    )
    (run,) = _of(events, EventType.COMMAND_RUN)
    (test,) = _of(events, EventType.TEST_RUN)
    assert (run.content["command"], run.content["exit_code"], run.content["is_error"]) == (
        "ls -la",
        0,
        False,
    )
    assert (test.content["exit_code"], test.content["is_error"]) == (2, True)
    assert test.content["tool_use_id"] == "toolu_2"


def test_interrupted_or_background_bash_has_unknown_exit_code() -> None:
    events = _feed(
        ClaudeFileParser("/p/projects/-x/s.jsonl"),
        _tool_use("u1", "toolu_1", "Bash", {"command": "npm run dev", "run_in_background": True}),
        _tool_result("u2", "toolu_1", "Command running in background with ID: 1"),
        _tool_use("u3", "toolu_2", "Bash", {"command": "sleep 100"}),
        _tool_result(
            "u4",
            "toolu_2",
            "[Request interrupted by user]",
            is_error=True,
            extra={"interrupted": True},
        ),
    )
    runs = _of(events, EventType.COMMAND_RUN)
    assert [(event.content["command"], event.content.get("exit_code")) for event in runs] == [
        ("npm run dev", None),
        ("sleep 100", None),
    ]
    assert "is_error" not in runs[0].content  # launched in the background: no result yet


def test_successful_edit_is_a_code_change_and_a_rejected_one_is_not() -> None:
    events = _feed(
        ClaudeFileParser("/p/projects/-x/s.jsonl"),
        _tool_use(
            "u1",
            "toolu_1",
            "Edit",
            {"file_path": f"{CWD}/a.py", "old_string": "a", "new_string": "b"},
        ),
        _tool_result("u2", "toolu_1", "The file has been updated."),
        _tool_use("u3", "toolu_2", "Write", {"file_path": "/tmp/outside.txt", "content": "x"}),
        _tool_result("u4", "toolu_2", "User rejected tool use", is_error=True),
        _tool_use(
            "u5",
            "toolu_3",
            "NotebookEdit",
            {"notebook_path": f"{CWD}/nb/n.ipynb", "new_source": "1"},
        ),
        _tool_result("u6", "toolu_3", "Updated cell"),
    )
    changes = _of(events, EventType.CODE_CHANGE)
    assert [(c.content["tool"], c.content["path"]) for c in changes] == [
        ("Edit", "a.py"),
        ("NotebookEdit", "nb/n.ipynb"),
    ]
    assert len(_of(events, EventType.TOOL_CALL)) == 3


def test_split_assistant_message_yields_one_event_per_block_without_repeating() -> None:
    usage = {"input_tokens": 10, "output_tokens": 3}
    lines = [
        _line(
            _record(
                "assistant",
                f"u{i}",
                {"id": "msg_1", "role": "assistant", "usage": usage, "content": [block]},
            )
        )
        for i, block in enumerate(
            [
                {"type": "thinking", "thinking": "hmm", "signature": "sig"},
                {"type": "text", "text": "Here is the plan."},
                {"type": "tool_use", "id": "toolu_9", "name": "Glob", "input": {"pattern": "*.py"}},
            ]
        )
    ]
    parser = ClaudeFileParser("/p/projects/-x/s.jsonl")
    events = _feed(parser, *lines)
    assert [event.event_type for event in events] == [
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
    ]
    assert events[0].content["message_id"] == "msg_1"
    assert parser.skipped["thinking_block"] == 1


def test_real_split_message_gives_a_single_response_per_text_line() -> None:
    path = FIXTURES / "incremental-simple" / "turn-1.jsonl"
    result = parse_bytes(ClaudeFileParser(str(path)), path.read_bytes(), str(path))
    assert [event.event_type for event in result.events] == [
        EventType.USER_MESSAGE,
        EventType.ASSISTANT_RESPONSE,
    ]
    assert result.events[0].content["text"] == "show tools"
    assert result.events[0].cwd == "/Users/User/repo/codemie-ai/codemie-code"
    assert result.events[0].source_version == "2.1.7"


def test_legacy_agent_file_is_marked_sidechain_with_parent_session_and_agent_id() -> None:
    path = FIXTURES / "tmp-private" / "agent-36541525.jsonl"
    result = parse_bytes(ClaudeFileParser(str(path)), path.read_bytes(), str(path))
    assert result.events
    assert all(event.sidechain and event.agent_id == "36541525" for event in result.events)
    assert {event.session_id for event in result.events} == {"4c2ddfdc-b619-4525-8d03-1950fb1b0257"}


def test_warmup_prompt_of_a_prewarmed_agent_is_skipped() -> None:
    path = FIXTURES / "tmp-private" / "agent-50243ee8.jsonl"
    result = parse_bytes(ClaudeFileParser(str(path)), path.read_bytes(), str(path))
    assert result.skipped.get("warmup_prompt") == 1
    assert not _of(result.events, EventType.USER_MESSAGE)


def test_subagents_folder_file_takes_agent_id_from_records() -> None:
    path = FIXTURES / "subagents-2.1" / "agent-a485154.jsonl"
    result = parse_bytes(ClaudeFileParser(str(path)), path.read_bytes(), str(path))
    assert result.events
    assert {(event.sidechain, event.agent_id) for event in result.events} == {(True, "a485154")}


def test_main_file_lines_with_is_sidechain_are_marked_sidechain() -> None:
    line = _line(
        _record("user", "u1", {"role": "user", "content": "go"}, isSidechain=True, agentId="a1")
    )
    (event,) = _feed(ClaudeFileParser("/p/projects/-x/s.jsonl"), line)
    assert (event.sidechain, event.agent_id) == (True, "a1")


def test_compaction_summary_is_its_own_event_type() -> None:
    path = FIXTURES / "compaction-excerpt.jsonl"
    result = parse_bytes(ClaudeFileParser(str(path)), path.read_bytes(), str(path))
    (summary,) = _of(result.events, EventType.COMPACTION_SUMMARY)
    assert summary.content["text"].startswith("This session is being continued")
    assert not any(
        event.content.get("text", "").startswith("This session is being continued")
        for event in _of(result.events, EventType.USER_MESSAGE)
    )
    assert result.skipped["ignored_system"] == 1


def test_history_repeated_in_the_same_file_is_emitted_once() -> None:
    data = (FIXTURES / "incremental-simple" / "turn-2.jsonl").read_bytes()
    parser = ClaudeFileParser("s.jsonl")
    first = parse_bytes(parser, data, "s.jsonl")
    again = parse_bytes(parser, data, "s.jsonl")
    assert first.events
    assert again.events == []
    records = [json.loads(line) for line in data.splitlines()]
    uuids = {
        r["uuid"]
        for r in records
        if r.get("type") in ("user", "assistant", "system", "attachment") and "uuid" in r
    }
    assert parser.skipped["duplicate_uuid"] == len(uuids)


def test_incremental_growth_yields_exactly_the_new_events() -> None:
    turn_1 = (FIXTURES / "incremental-simple" / "turn-1.jsonl").read_bytes()
    turn_2 = (FIXTURES / "incremental-simple" / "turn-2.jsonl").read_bytes()
    assert turn_2.startswith(turn_1)
    full = parse_bytes(ClaudeFileParser("s.jsonl"), turn_2, "s.jsonl").events

    parser = ClaudeFileParser("s.jsonl")
    before = parse_bytes(parser, turn_1, "s.jsonl").events
    added: list[Event] = []
    offset = len(turn_1)
    for line in turn_2[len(turn_1) :].splitlines(keepends=True):
        offset += len(line)
        added.extend(parser.feed(line.rstrip(b"\n"), _position(offset)))

    assert next(e.content["text"] for e in _of(added, EventType.USER_MESSAGE)) == "hi"
    assert not {_key(e) for e in added} & {_key(e) for e in before}
    assert [_key(e) for e in added] == [_key(e) for e in full[len(before) :]]
    assert [e.position.end_offset for e in added if e.position] == [
        e.position.end_offset for e in full[len(before) :] if e.position
    ]


@pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not present")
@pytest.mark.parametrize("name", ["turn-1/subagents/agent-a485154.jsonl", ""])
def test_incremental_subagent_fixture_yields_only_unseen_records(name: str) -> None:
    folder = SHARED / "incremental-subagents"
    first = (folder / (name or "turn-1.jsonl")).read_bytes()
    second = (folder / (name.replace("turn-1", "turn-2") or "turn-2.jsonl")).read_bytes()
    parser = ClaudeFileParser(name or "s.jsonl")
    before = parse_bytes(parser, first, "s").events
    added = [event for line in second.splitlines() for event in parser.feed(line, _position())]
    fresh = parse_bytes(ClaudeFileParser(name or "s.jsonl"), second, "s").events
    assert sorted(map(_key, before + added)) == sorted(map(_key, fresh))
    assert len(before + added) == len(fresh)


def test_progress_records_are_not_counted_as_conversation() -> None:
    copy = {
        "type": "assistant",
        "message": {"role": "assistant", "content": [{"type": "text", "text": "dup"}]},
    }
    line = _line(
        {
            "type": "progress",
            "uuid": "p1",
            "timestamp": "2026-02-10T21:11:56Z",
            "data": {"type": "agent_progress", "agentId": "a1", "message": copy},
            "toolUseID": "toolu_1",
        }
    )
    parser = ClaudeFileParser("s.jsonl")
    assert _feed(parser, line) == []
    assert parser.skipped["ignored_progress"] == 1


@pytest.mark.parametrize(
    "record",
    [
        {"type": "mode", "mode": "normal", "sessionId": "s"},
        {"type": "permission-mode", "permissionMode": "acceptEdits", "sessionId": "s"},
        {"type": "last-prompt", "lastPrompt": "run the tests", "sessionId": "s"},
        # Claude Code 2.1.332 (what it wrote in tests/e2e/test_claude_code.py):
        {"type": "atis-latch", "atis": "", "sessionId": "s"},
        {"type": "api-request", "sessionId": "s", "id": "r1", "version": "2.1.332"},
        {"type": "api-request-shape", "sessionId": "s", "shapeHash": "d5", "version": "2.1.332"},
        {
            "type": "api-request-blob",
            "sessionId": "s",
            "hash": "2f",
            "message": {"role": "user", "content": [{"type": "text", "text": "a copy"}]},
        },
        {"type": "tools-used", "tools": ["mcp__ctx-memory__get_task_context"], "sessionId": "s"},
        {"type": "cost-state", "sessionId": "s", "totalCostUSD": 0.0024},
    ],
)
def test_records_without_conversation_are_ignored_by_name_not_unknown(
    record: dict[str, Any],
) -> None:
    parser = ClaudeFileParser("s.jsonl")
    assert _feed(parser, _line(record)) == []
    assert parser.skipped == {f"ignored_{record['type']}": 1}


def test_meta_and_harness_user_text_keeps_its_speaker() -> None:
    parser = ClaudeFileParser("s.jsonl")
    events = _feed(
        parser,
        _line(_record("user", "u1", {"role": "user", "content": "skill body"}, isMeta=True)),
        _line(
            _record(
                "user", "u2", {"role": "user", "content": "<command-name>/clear</command-name>"}
            )
        ),
        _line(
            _record(
                "user", "u3", {"role": "user", "content": [{"type": "text", "text": "fix the bug"}]}
            )
        ),
    )
    assert [(e.content["text"], e.origin) for e in events] == [
        ("skill body", Origin.HARNESS),
        ("/clear", Origin.SLASH_COMMAND),
        ("fix the bug", Origin.TYPED),
    ]


def test_timestamps_are_aware_utc_and_records_without_one_are_skipped() -> None:
    parser = ClaudeFileParser("s.jsonl")
    good = _line(
        _record(
            "user", "u1", {"role": "user", "content": "a"}, timestamp="2026-02-10T23:11:56+02:00"
        )
    )
    bad = _line(_record("user", "u2", {"role": "user", "content": "b"}, timestamp="yesterday"))
    missing = _record("user", "u3", {"role": "user", "content": "c"})
    del missing["timestamp"]
    events = _feed(parser, good, bad, _line(missing))
    assert len(events) == 1
    assert events[0].timestamp.tzinfo is UTC
    assert events[0].timestamp.hour == 21
    assert parser.skipped["missing_timestamp"] == 2


def test_cwd_comes_from_the_record_not_the_folder_name() -> None:
    line = _line(_record("user", "u1", {"role": "user", "content": "hi"}, cwd="/srv/real-repo"))
    (event,) = _feed(ClaudeFileParser("/h/.claude/projects/-wrong-folder/s.jsonl"), line)
    assert event.cwd == "/srv/real-repo"


@pytest.mark.parametrize(
    "line",
    [
        b"{not json",
        b"[1, 2, 3]",
        b'"just a string"',
        b'{"type": 5}',
        b'{"type": "mystery-record", "uuid": "x"}',
        b'{"type": "user", "uuid": "u", "timestamp": "2026-01-01T00:00:00Z", "message": []}',
        b'{"type": "user", "uuid": "u", "timestamp": "2026-01-01", "message": {"content": 7}}',
        b'{"type": "assistant", "uuid": "u", "timestamp": "2026", "message": {"content": [1]}}',
        b'{"type": "assistant", "uuid": "u", "timestamp": 1e400, "message": {}}',
        b"\xff\xfe\x00garbage",
        b"[" * 100_000,
        b"",
    ],
)
def test_malformed_records_are_counted_and_never_raise(line: bytes) -> None:
    parser = ClaudeFileParser("s.jsonl")
    assert parser.feed(line, _position()) == []
    assert sum(parser.skipped.values()) >= 1
    assert parser.skipped["internal_error"] == 0


def test_torn_line_keeps_the_complete_record_after_the_stub() -> None:
    stub = b'{"type":"pr-link","sessionId":"s","prNu'
    whole = _line(_record("user", "u1", {"role": "user", "content": "after the tear"}))
    parser = ClaudeFileParser("s.jsonl")
    (event,) = parser.feed(stub + whole, _position())
    assert event.content["text"] == "after the tear"
    assert parser.skipped["torn_line_prefix"] == 1


def test_a_subagent_brief_is_kept_past_the_first_input_bound() -> None:
    ending = "You may run the build and tests (`dotnet build`, `dotnet test`) to check."
    brief = "Review the branch. " + "Scope and focus. " * 200 + ending
    events = _feed(
        ClaudeFileParser("s.jsonl"),
        _tool_use("u1", "toolu_1", "Agent", {"prompt": brief, "description": "d" * 17_000}),
    )
    given = _of(events, EventType.TOOL_CALL)[0].content["input"]
    assert given["prompt"] == brief
    # A field longer than the input bound is still cut, with a marker.
    assert "truncated 1000 chars" in given["description"]


def test_a_brief_longer_than_the_input_bound_is_capped_with_a_marker() -> None:
    events = _feed(
        ClaudeFileParser("s.jsonl"),
        _tool_use("u1", "toolu_1", "Agent", {"prompt": "x" * 17_000}),
    )
    prompt = _of(events, EventType.TOOL_CALL)[0].content["input"]["prompt"]
    assert "truncated 1000 chars" in prompt


def test_a_subagents_report_is_kept_longer_than_a_tools_output() -> None:
    report = "## Overview\n" + "Architecture notes. " * 700 + "- Unit tests: `vitest run src`\n"
    events = _feed(
        ClaudeFileParser("s.jsonl"),
        _tool_use("u1", "toolu_1", "Agent", {"prompt": "Explore the repository."}),
        _tool_result("u2", "toolu_1", report),
        _tool_use("u3", "toolu_2", "Grep", {"pattern": "notes"}),
        _tool_result("u4", "toolu_2", report),
    )
    agent, read = (e.content["output"] for e in _of(events, EventType.TOOL_RESULT))
    assert agent == report
    assert "truncated" in read and "vitest" not in read


def test_huge_tool_output_is_capped_with_a_marker() -> None:
    big = "x" * 5_000_000
    events = _feed(
        ClaudeFileParser("s.jsonl"),
        _tool_use("u1", "toolu_1", "Bash", {"command": "make logs"}),
        _tool_result("u2", "toolu_1", big),
        _tool_use("u3", "toolu_2", "Bash", {"command": "cat big.log"}),
        _tool_result("u4", "toolu_2", big),
    )
    run, read = _of(events, EventType.TOOL_RESULT)
    assert len(run.content["output"]) < 8_100
    assert "truncated 4992000 chars" in run.content["output"]
    # a file read (`cat` alone is one) keeps more, cut at the end as well
    assert len(read.content["output"]) < 24_100
    assert read.content["output"].endswith("…[truncated 4976000 chars]")


def test_pending_tool_calls_survive_a_restart_through_exported_state() -> None:
    first = ClaudeFileParser("s.jsonl")
    _feed(first, _tool_use("u1", "toolu_1", "Bash", {"command": "pytest"}))
    state = json.loads(json.dumps(first.export_state()))
    second = ClaudeFileParser("s.jsonl")
    second.restore_state(state)
    events = _feed(second, _tool_result("u2", "toolu_1", "1 passed"))
    (test,) = _of(events, EventType.TEST_RUN)
    assert (test.content["command"], test.content["exit_code"]) == ("pytest", 0)


@pytest.mark.parametrize(
    ("start", "shown", "total", "lines"),
    [(1, 40, 300, [1, 40]), (230, 23, 252, [230, 252]), (1, 12, 12, None)],
)
def test_a_read_says_when_it_returned_only_part_of_the_file(
    start: int, shown: int, total: int, lines: list[int] | None
) -> None:
    file = {"filePath": f"{CWD}/README.md", "numLines": shown, "startLine": start}
    events = _feed(
        ClaudeFileParser("s.jsonl"),
        _tool_use("a1", "toolu_r", "Read", {"file_path": f"{CWD}/README.md"}),
        _tool_result(
            "u1",
            "toolu_r",
            "     1→x",
            extra={"type": "text", "file": file | {"totalLines": total}},
        ),
    )

    (result,) = _of(events, EventType.TOOL_RESULT)
    assert result.content.get("lines") == lines
    assert result.content.get("partial", False) is (lines is not None)


@pytest.mark.parametrize(
    ("command", "printed", "path", "lines"),
    [
        ("cat README.md", "# Demo\n\nRun it.", "README.md", None),
        (f"cat {CWD}/docs/usage.md", "# Usage", "docs/usage.md", None),
        ("cat 'docs/notes.md'", "notes", "docs/notes.md", None),
        ('cat "pkg/setup.cfg"', "[metadata]", "pkg/setup.cfg", None),
        ("cat ../repo/README.md", "# Demo", "README.md", None),
        ("head -n 2 README.md", "# Demo\nline two", "README.md", [1, 2]),
        ("head -n 50 README.md", "# Demo\nline two", "README.md", None),
        ("sed -n '1,3p' src/app.py", "import os\nimport re\nimport sys", "src/app.py", [1, 3]),
        ("nl -ba Makefile | sed -n '1,120p'", "     1\tall:", "Makefile", None),
    ],
)
def test_a_bash_command_that_prints_a_file_is_that_files_read(
    command: str, printed: str, path: str, lines: list[int] | None
) -> None:
    events = _feed(
        ClaudeFileParser("s.jsonl"),
        _tool_use("a1", "toolu_c", "Bash", {"command": command}),
        _tool_result("u1", "toolu_c", printed, extra={"stdout": printed, "interrupted": False}),
    )

    (call,) = _of(events, EventType.TOOL_CALL)
    (result,) = _of(events, EventType.TOOL_RESULT)
    assert (call.content["tool"], call.file_paths) == ("read_file", (path,))
    assert call.content["input"] == {"file_path": f"{CWD}/{path}", "command": command}
    assert (result.content["tool"], result.file_paths) == ("read_file", (path,))
    assert (result.content["output"], result.content["is_error"]) == (printed, False)
    assert result.content.get("lines") == lines
    assert result.content.get("partial", False) is (lines is not None)
    assert not _of(events, EventType.COMMAND_RUN)


@pytest.mark.parametrize(
    "command",
    [
        "cat README.md | grep x",
        "cat a.md b.md",
        "cat > notes.md",
        "cat README.md > copy.md",
        "cat <<'EOF' > notes.md\nhello\nEOF",
        "sed -n '5,9p' README.md",
        "tail -n 5 README.md",
    ],
)
def test_a_bash_command_that_does_more_than_print_one_file_stays_a_command(command: str) -> None:
    events = _feed(
        ClaudeFileParser("s.jsonl"),
        _tool_use("a1", "toolu_c", "Bash", {"command": command}),
        _tool_result("u1", "toolu_c", "x"),
    )

    (result,) = _of(events, EventType.TOOL_RESULT)
    (run,) = _of(events, EventType.COMMAND_RUN)
    assert result.content["tool"] == "Bash"
    assert run.content["command"] == command


@pytest.mark.parametrize(
    ("output", "is_error"),
    [
        ("Exit code 1\ncat: NOTES.md: No such file or directory", True),
        ("cat: NOTES.md: No such file or directory", False),
    ],
)
def test_a_failed_cat_stays_a_failed_command(output: str, is_error: bool) -> None:
    events = _feed(
        ClaudeFileParser("s.jsonl"),
        _tool_use("a1", "toolu_c", "Bash", {"command": "cat NOTES.md"}),
        _tool_result("u1", "toolu_c", output, is_error=is_error),
    )

    (result,) = _of(events, EventType.TOOL_RESULT)
    (run,) = _of(events, EventType.COMMAND_RUN)
    assert (result.content["tool"], result.content["is_error"]) == ("Bash", True)
    assert (run.content["command"], run.content["is_error"]) == ("cat NOTES.md", True)


def test_a_cat_awaiting_its_result_stays_a_read_across_a_restart() -> None:
    first = ClaudeFileParser("s.jsonl")
    _feed(first, _tool_use("a1", "toolu_c", "Bash", {"command": "head -n 2 README.md"}))
    second = ClaudeFileParser("s.jsonl")
    second.restore_state(json.loads(json.dumps(first.export_state())))

    (result,) = _of(
        _feed(second, _tool_result("u1", "toolu_c", "# Demo\ntwo")), EventType.TOOL_RESULT
    )
    assert (result.content["tool"], result.content.get("lines")) == ("read_file", [1, 2])


#: Calls of the tools Claude Code offers besides files and the shell (2.1.332's tool list and
#: its deferred tools; `Task`/`TodoWrite` and the task list of other 2.x versions), with the
#: input keys their schemas have.
_BOOKKEEPING_CALLS: list[tuple[str, dict[str, Any]]] = [
    (
        "Agent",
        {
            "description": "Find the config",
            "prompt": "Look in src/app.py",
            "subagent_type": "Explore",
        },
    ),
    (
        "Task",
        {
            "description": "Review",
            "prompt": "Review src/app.py",
            "subagent_type": "general-purpose",
        },
    ),
    (
        "TodoWrite",
        {"todos": [{"content": "Edit src/app.py", "status": "pending", "activeForm": "Editing"}]},
    ),
    (
        "TaskCreate",
        {"subject": "Edit src/app.py", "description": "Fix the parser", "activeForm": "Editing"},
    ),
    ("TaskUpdate", {"taskId": "1", "status": "completed"}),
    ("TaskGet", {"taskId": "1"}),
    ("TaskList", {}),
    ("ToolSearch", {"query": "select:TaskStop", "max_results": 1}),
    ("SendMessage", {"to": "reviewer", "summary": "done", "message": "src/app.py is fixed"}),
    ("Skill", {"skill": "update-config", "args": "hooks"}),
    ("WebFetch", {"url": "https://example.com/docs", "prompt": "What does it say?"}),
    ("WebSearch", {"query": "vite dev server port"}),
    (
        "Monitor",
        {
            "description": "Wait for the server",
            "timeout_ms": 60000,
            "command": "until curl -s localhost:5173; do sleep 1; done",
        },
    ),
    ("TaskStop", {"task_id": "bkrck70pg"}),
    ("KillShell", {"shell_id": "dce0af"}),
]


@pytest.mark.parametrize(("name", "tool_input"), _BOOKKEEPING_CALLS)
def test_current_tools_besides_files_and_the_shell_change_and_read_nothing(
    name: str, tool_input: dict[str, Any]
) -> None:
    """Subagents, the task list, tool search, messages, skills, the web, monitors and stopping a
    background task: a call and its result, never a code change, a file read or a command."""
    events = _feed(
        ClaudeFileParser("/p/projects/-x/s.jsonl"),
        _tool_use("u1", "toolu_1", name, tool_input),
        _tool_result("u2", "toolu_1", "Task #1 created successfully: Edit src/app.py"),
    )
    assert [event.event_type for event in events] == [EventType.TOOL_CALL, EventType.TOOL_RESULT]
    assert [event.file_paths for event in events] == [(), ()]
    assert "partial" not in events[1].content
