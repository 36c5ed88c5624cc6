"""Codex code mode: a cell's command that only prints one file is a read of that file, and its
`tools.apply_patch(…)` a patch of the files it names, as the same command or patch outside a
cell is (a `read_file` call and result; an `apply_patch` call, result and changes)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourcePosition
from squirrel_ingest.parsers.codex import CodexFileParser
from squirrel_ingest.parsers.codex_cell_source import cell_patches
from squirrel_ingest.parsers.shell_commands import READ_TOOL

CWD = "/home/dev/src/shop"
RUNS = (EventType.COMMAND_RUN, EventType.TEST_RUN)
#: A real cell's source, character for character: Codex CLI 0.154.0 `codex exec` in a PHP
#: project (k-kinzal/ztd-query-php @ 9740c29c28987bca18eb0ca9589476ae8be999d4, `1/full.jsonl`,
#: the record of ordinal 12; MIT License, Copyright (c) 2026 kinzal). Three commands run
#: together, one of which prints a file; the host recorded each (`item_completed`,
#: `CommandExecution`, the `cat` with `parsed_cmd` `{"type": "read", …}`).
REAL_CELL = (
    "const results = await Promise.allSettled([\n"
    "tools.exec_command({cmd:\"pwd && rg --files -g 'AGENTS.md' -g '*semantics*' -g "
    "'*semantic*' -g 'composer.json' -g '*README*' -g '*fuzz*' -g '*Fuzz*' -g '*Node.php' -g "
    '\'*SKILL.md\'","workdir":"/Users/ab/Projects/ztd-query-php","max_output_tokens":6000}),\n'
    'tools.exec_command({cmd:"cat /Users/ab/.agents/skills/find-docs/SKILL.md",'
    '"max_output_tokens":6000}),\n'
    'tools.exec_command({cmd:"git status --short","workdir":"/Users/ab/Projects/ztd-query-php",'
    '"max_output_tokens":3000})\n'
    "]); results.forEach((r,i)=>text({i,...r}));\n"
    'text(ALL_TOOLS.filter(x=>/search/i.test(x.name+" "+x.description)).map(x=>({name:x.name,'
    "description:x.description.slice(0,180)})).slice(0,80));\n"
)
REAL_CWD = "/Users/ab/Projects/ztd-query-php"
SKILL = "/Users/ab/.agents/skills/find-docs/SKILL.md"


def _line(kind: str, payload: dict[str, Any], n: int) -> bytes:
    stamp = f"2026-05-01T10:00:{n:02d}Z"
    return json.dumps({"timestamp": stamp, "type": kind, "payload": payload}).encode()


def _rollout(records: list[tuple[str, dict[str, Any]]], cwd: str = CWD) -> list[Event]:
    parser = CodexFileParser("/home/dev/.codex/sessions/2026/05/01/rollout-x.jsonl")
    head = [
        ("session_meta", {"id": "019e3000-0000", "cwd": cwd, "cli_version": "0.154.0"}),
        ("event_msg", {"type": "user_message", "message": "Look at the code."}),
    ]
    events: list[Event] = []
    for n, (kind, payload) in enumerate(head + records):
        events += parser.feed(_line(kind, payload, n), SourcePosition("r.jsonl", 1, n * 100))
    return events


def _cell(call_id: str, source: str) -> tuple[str, dict[str, Any]]:
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    return "response_item", {**item, "call_id": call_id, "input": source}


def _answer(call_id: str, *texts: str, status: str = "completed") -> tuple[str, dict[str, Any]]:
    parts = [f"Script {status}\nWall time 0.4 seconds\nOutput:\n", *texts]
    output = [{"type": "input_text", "text": text} for text in parts]
    return "response_item", {
        "type": "custom_tool_call_output",
        "call_id": call_id,
        "output": output,
    }


def _record(
    command: str, exit_code: int, output: str, cwd: str = CWD
) -> tuple[str, dict[str, Any]]:
    item = {
        "type": "CommandExecution",
        "id": "exec-1",
        "command": ["/bin/zsh", "-lc", command],
        "cwd": f"file://{cwd}",
        "source": "unified_exec_startup",
        "status": "completed",
        "aggregated_output": output,
        "exit_code": exit_code,
    }
    return "event_msg", {"type": "item_completed", "item": item}


def _shell_call(call_id: str, command: str) -> list[tuple[str, dict[str, Any]]]:
    """The same command run through the `exec_command` function, outside a cell."""
    arguments = json.dumps({"cmd": command, "workdir": CWD})
    call = {"type": "function_call", "name": "exec_command", "call_id": call_id}
    return [("response_item", {**call, "arguments": arguments})]


def _shell_answer(call_id: str, output: str) -> tuple[str, dict[str, Any]]:
    answer = f"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n{output}"
    return "response_item", {"type": "function_call_output", "call_id": call_id, "output": answer}


def _reads(events: list[Event]) -> list[Event]:
    return [e for e in events if e.content.get("tool") == READ_TOOL]


def _shape(event: Event) -> tuple[Any, ...]:
    """What a read or patch event says, its call id aside."""
    content = {k: v for k, v in event.content.items() if k != "tool_use_id"}
    return event.event_type, json.dumps(content, sort_keys=True), event.file_paths


def test_the_real_cells_cat_is_a_read_of_the_file_and_its_other_commands_are_commands() -> None:
    skill_text = "---\nname: find-docs\n---\n\n# Documentation Lookup\n"
    events = _rollout(
        [
            _cell("call_1", REAL_CELL),
            _record("cat /Users/ab/.agents/skills/find-docs/SKILL.md", 0, skill_text, REAL_CWD),
            _record("git status --short", 0, "", REAL_CWD),
            _answer("call_1", '{"i":0,"status":"fulfilled"}'),
        ],
        cwd=REAL_CWD,
    )
    call, result = _reads(events)
    assert (call.event_type, result.event_type) == (EventType.TOOL_CALL, EventType.TOOL_RESULT)
    assert call.file_paths == result.file_paths == (SKILL,)  # outside the project: kept whole
    assert call.content["input"]["command"] == f"cat {SKILL}"
    assert result.content["output"] == skill_text
    assert result.content["is_error"] is False
    assert call.content["tool_use_id"] == result.content["tool_use_id"] == "call_1#read2"
    runs = [e.content["command"] for e in events if e.event_type in RUNS]
    assert "git status --short" in runs
    assert not any(r.startswith("cat ") for r in runs)  # read once, as a read


@pytest.mark.parametrize(
    ("command", "text", "path"),
    [
        ("sed -n '1,120p' src/lib.rs", "pub fn total(items: &[Item]) -> u32 {\n", "src/lib.rs"),
        (
            "nl -ba app/models/order.rb",
            "     1\tclass Order < ApplicationRecord\n",
            "app/models/order.rb",
        ),
        ("cat package.json", '{\n  "name": "shop"\n}\n', "package.json"),
    ],
    ids=["rust-sed", "ruby-nl", "node-cat"],
)
def test_a_cells_read_is_the_same_read_as_outside_a_cell(
    command: str, text: str, path: str
) -> None:
    source = f"text(await tools.exec_command({{cmd: {json.dumps(command)}, workdir: '{CWD}'}}));"
    inside = _rollout([_cell("call_1", source), _record(command, 0, text), _answer("call_1", text)])
    outside = _rollout([*_shell_call("call_9", command), _shell_answer("call_9", text)])
    assert [_shape(e) for e in _reads(inside)] == [_shape(e) for e in _reads(outside)]
    assert [e.file_paths for e in _reads(inside)] == [(path,), (path,)]
    assert not [e for e in inside if e.event_type in RUNS]


def test_a_read_the_host_did_not_record_takes_its_text_from_the_cells_answer() -> None:
    source = "const r = await tools.exec_command({cmd: 'head -n 2 go.mod'}); text(r.output);"
    events = _rollout(
        [_cell("call_1", source), _answer("call_1", "module example.com/shop\n\ngo 1.23")]
    )
    call, result = _reads(events)
    assert call.content["input"]["file_path"] == f"{CWD}/go.mod"
    assert result.content["output"] == "module example.com/shop\n\ngo 1.23"
    assert result.content["partial"] is True  # `head -n 2` printed the 2 lines it asked for
    assert result.file_paths == ("go.mod",)


def test_a_read_among_several_unrecorded_commands_has_no_result_it_cannot_know() -> None:
    source = (
        "const [a, b] = await Promise.all([tools.exec_command({cmd: 'cat setup.cfg'}),"
        " tools.exec_command({cmd: 'pytest -q'})]); text(a); text(b);"
    )
    events = _rollout([_cell("call_1", source), _answer("call_1", "[metadata]", "3 passed")])
    (call,) = _reads(events)
    assert call.event_type == EventType.TOOL_CALL and call.file_paths == ("setup.cfg",)
    assert [e.content["command"] for e in events if e.event_type in RUNS] == ["pytest -q"]


@pytest.mark.parametrize(
    "command",
    [
        "cat src/app.py | grep -n route",  # piped: not the file's text
        "sed -i 's/a/b/' src/app.py",  # edits in place
        "cat src/*.ts",  # a glob: which files is not on the line
    ],
)
def test_a_cell_command_that_does_more_than_print_one_file_stays_a_command(command: str) -> None:
    source = f"text(await tools.exec_command({{cmd: {json.dumps(command)}}}));"
    events = _rollout([_cell("call_1", source), _record(command, 0, "x"), _answer("call_1", "x")])
    assert not _reads(events)
    assert [e.content["command"] for e in events if e.event_type in RUNS] == [command]


PY_PATCH = (
    "*** Begin Patch\n*** Update File: src/shop/cart.py\n@@\n-TAX = 0.1\n+TAX = 0.2\n*** End Patch"
)
GO_PATCH = "*** Begin Patch\n*** Add File: cmd/shop/main.go\n+package main\n*** End Patch"


@pytest.mark.parametrize(
    ("source", "patch"),
    [
        (f"const r = await tools.apply_patch({json.dumps(PY_PATCH)}); text(r);", PY_PATCH),
        (f"text(await tools.apply_patch({{input: {json.dumps(GO_PATCH)}}}));", GO_PATCH),
    ],
    ids=["python-literal", "go-input-key"],
)
def test_a_cells_patch_is_the_same_patch_as_the_apply_patch_tool(source: str, patch: str) -> None:
    inside = _rollout([_cell("call_1", source), _answer("call_1", "Success.")])
    tool = {"type": "custom_tool_call", "name": "apply_patch", "call_id": "call_9", "input": patch}
    output = {"type": "custom_tool_call_output", "call_id": "call_9", "output": "Success."}
    outside = _rollout([("response_item", tool), ("response_item", output)])

    def patch_events(events: list[Event]) -> list[tuple[Any, ...]]:
        kept = [e for e in events if e.content.get("tool") == "apply_patch"]
        return [(e.event_type, e.file_paths, e.content.get("input")) for e in kept]

    assert patch_events(inside) == patch_events(outside)
    changes = [e for e in inside if e.event_type == EventType.CODE_CHANGE]
    assert [c.content["path"] for c in changes] == [
        e.content["path"] for e in outside if e.event_type == EventType.CODE_CHANGE
    ]
    assert {c.content["tool_use_id"] for c in changes} == {"call_1#patch1"}


def test_a_patch_of_a_failed_cell_is_no_change_unless_the_host_said_it_applied() -> None:
    source = (
        f"await tools.apply_patch({json.dumps(PY_PATCH)});\n"
        "text(await tools.exec_command({cmd: 'pytest -q'}));"
    )
    failed = _rollout([_cell("call_1", source), _answer("call_1", "Error", status="failed")])
    assert not [e for e in failed if e.event_type == EventType.CODE_CHANGE]
    applied = {
        "type": "patch_apply_end",
        "call_id": "call_inner",
        "success": True,
        "changes": {f"{CWD}/src/shop/cart.py": {"type": "update"}},
    }
    told = _rollout(
        [
            _cell("call_1", source),
            ("event_msg", applied),
            _answer("call_1", "Error", status="failed"),
        ]
    )
    (change,) = [e for e in told if e.event_type == EventType.CODE_CHANGE]
    assert change.content["path"] == "src/shop/cart.py"


@pytest.mark.parametrize(
    ("status", "changed"), [("completed", ["src/shop/cart.py"]), ("failed", [])]
)
def test_codex_0171s_file_change_record_says_whether_a_cells_patch_applied(
    status: str, changed: list[str]
) -> None:
    """Codex 0.171 records a cell's patch as an `item_completed` `FileChange` (the shape the
    pinned Codex wrote in tests/e2e/test_codex_code_mode.py): its `status` is the host's word,
    whatever the cell's own status."""
    source = f"text(await tools.apply_patch({json.dumps(PY_PATCH)}));"
    item = {
        "type": "FileChange",
        "id": "exec-1",
        "changes": {f"{CWD}/src/shop/cart.py": {"type": "update", "move_path": None}},
        "status": status,
        "stdout": "Success. Updated the following files:\nM src/shop/cart.py\n",
        "stderr": "",
    }
    events = _rollout(
        [
            _cell("call_1", source),
            ("event_msg", {"type": "item_completed", "item": item}),
            _answer("call_1", "{}"),
        ]
    )
    assert [e.content["path"] for e in events if e.event_type == EventType.CODE_CHANGE] == changed


@pytest.mark.parametrize(
    "source",
    [
        "const p = makePatch(); await tools.apply_patch(p);",  # built at run time
        "await tools.apply_patch(`*** Begin Patch\n*** Add File: ${name}\n+x\n*** End Patch`);",
        "text('use tools.apply_patch to edit files');",  # no call
        'await tools.apply_patch("no patch here");',  # names no file
    ],
)
def test_a_patch_not_given_as_a_literal_is_not_read(source: str) -> None:
    assert cell_patches(source) == []


def test_an_open_cells_patch_and_read_survive_a_restart_and_an_older_cursor_restores() -> None:
    path = "/home/dev/.codex/sessions/2026/05/01/rollout-x.jsonl"
    source = (
        f"await tools.apply_patch({json.dumps(PY_PATCH)});\n"
        "text(await tools.exec_command({cmd: 'cat README.md'}));"
    )
    first = CodexFileParser(path)
    meta = {"id": "019e3000-0000", "cwd": CWD, "cli_version": "0.154.0"}
    for n, (kind, payload) in enumerate([("session_meta", meta), _cell("call_1", source)]):
        first.feed(_line(kind, payload, n), SourcePosition("r.jsonl", 1, n))
    second = CodexFileParser(path)
    second.restore_state(json.loads(json.dumps(first.export_state())))
    kind, payload = _answer("call_1", "# Shop")
    events = second.feed(_line(kind, payload, 5), SourcePosition("r.jsonl", 1, 5))
    assert [e.content["path"] for e in events if e.event_type == EventType.CODE_CHANGE] == [
        "src/shop/cart.py"
    ]
    (result,) = [e for e in _reads(events) if e.event_type == EventType.TOOL_RESULT]
    assert result.content["output"] == "# Shop"
    older = CodexFileParser(path)  # a cursor written before cells kept patches
    older.restore_state(
        {
            "cwd": CWD,
            "pending": {"call_2": {"name": "exec"}},
            "cells": {"call_2": [["npm test", None]]},
        }
    )
    kind, payload = _answer("call_2", json.dumps({"exit_code": 0, "output": "ok"}))
    (run,) = [
        e
        for e in older.feed(_line(kind, payload, 6), SourcePosition("r.jsonl", 1, 6))
        if e.event_type in RUNS
    ]
    assert (run.content["command"], run.content["exit_code"]) == ("npm test", 0)
