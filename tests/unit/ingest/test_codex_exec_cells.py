"""Codex code mode: the commands a JavaScript `exec` cell runs through `tools.exec_command` are
read once each, from the host's record of them (`item_completed` `CommandExecution`) or, where
the rollout has none, from the cell's source and answer; a record of a shell function's call is
not read twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourcePosition, SourceTool
from squirrel_ingest.parsers import parse_file
from squirrel_ingest.parsers.codex import CodexFileParser
from squirrel_ingest.parsers.codex_exec import CellCommand, cell_commands
from squirrel_ingest.parsers.shell_commands import command_text

ROOT = Path(__file__).resolve().parents[3]
#: A real Codex CLI 0.154 `exec` rollout (MIT; provenance in the folder's SOURCES.md) whose
#: commands all ran through code-mode cells.
PEQ = ROOT / "bench/data/transcripts/peq/codex-exec-iso-artifacts-cherry-pick.jsonl"
CWD = "/home/dev/src/shop"
RUNS = (EventType.COMMAND_RUN, EventType.TEST_RUN)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        (
            'const r = await tools.exec_command({cmd:"npm test", max_output_tokens:6000}); text(r);',
            [CellCommand("npm test")],
        ),
        (
            "const r = await tools.exec_command({ cmd: 'cargo test --all', workdir: '/w/app' });",
            [CellCommand("cargo test --all", "/w/app")],
        ),
        (  # keys quoted, escapes in the literal
            'await tools.exec_command({"workdir": "/w", "cmd": "printf \\"a\\\\n\\" | wc -l"})',
            [CellCommand('printf "a\\n" | wc -l', "/w")],
        ),
        ("text(await tools.exec_command(`go vet ./...`));", [CellCommand("go vet ./...")]),
        (
            "const [a, b] = await Promise.all([tools.exec_command({cmd: 'git status --short'}),"
            ' tools.exec_command({yield_time_ms: 1000, cmd: "mix test"})]);',
            [CellCommand("git status --short"), CellCommand("mix test")],
        ),
    ],
    ids=["double", "single-workdir", "quoted-keys", "template", "two"],
)
def test_a_cells_literal_commands_are_read_in_order(source: str, found: list[CellCommand]) -> None:
    assert cell_commands(source) == found


@pytest.mark.parametrize(
    "source",
    [
        "const r = await tools.exec_command({cmd: `pytest ${target}`});",  # built at run time
        "const r = await tools.exec_command({cmd: base + ' --fix'});",
        "const r = await tools.exec_command(command);",
        "text(await tools.view_image({path: 'shot.png'}));",
        "text('tools.exec_command is how commands run');",
    ],
)
def test_a_command_built_at_run_time_or_another_tool_is_not_read(source: str) -> None:
    assert cell_commands(source) == []


def test_a_real_code_mode_rollout_has_each_command_once_with_its_exit_code() -> None:
    result = parse_file(SourceTool.CODEX, str(PEQ), PEQ.read_bytes())
    runs = [e for e in result.events if e.event_type in RUNS]
    cells = [e for e in result.events if e.event_type == EventType.TOOL_CALL]
    # Five cells; the last one's command has no record or answer in the file.
    assert len(cells) == 5
    assert [r.content["command"].split("gql-graph ")[1] for r in runs] == [
        "reset --hard 2b266ddc27aeef700e0261b2f23ed4de762c11cf",
        "cherry-pick --no-commit c32a9f4f",
        "rm -q -f spec/iso/features.xml spec/iso/conditions.xml spec/iso/gql.bnf.xml"
        " spec/iso/implementation-defined.xml",
        "checkout 470f3226 -- spec/iso/subclauses.txt",
    ]
    assert [r.content["exit_code"] for r in runs] == [0, 0, 0, 0]
    assert runs[0].content["output"].startswith("HEAD is now at 2b266ddc")
    # Each command belongs to its cell's call.
    assert [r.content["tool_use_id"] for r in runs] == [c.content["tool_use_id"] for c in cells[:4]]


def _line(kind: str, payload: dict[str, Any], n: int) -> bytes:
    stamp = f"2026-05-01T10:00:{n:02d}Z"
    return json.dumps({"timestamp": stamp, "type": kind, "payload": payload}).encode()


def _rollout(records: list[tuple[str, dict[str, Any]]]) -> list[Event]:
    parser = CodexFileParser("/home/dev/.codex/sessions/2026/05/01/rollout-x.jsonl")
    head = [
        ("session_meta", {"id": "019e3000-0000", "cwd": CWD, "cli_version": "0.171.0"}),
        ("event_msg", {"type": "user_message", "message": "Run the tests."}),
    ]
    events: list[Event] = []
    for n, (kind, payload) in enumerate(head + records):
        events += parser.feed(_line(kind, payload, n), _position(n))
    return events


def _position(n: int) -> SourcePosition:
    return SourcePosition("rollout-x.jsonl", 1, (n + 1) * 100)


def _cell(call_id: str, source: str) -> tuple[str, dict[str, Any]]:
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    return "response_item", {**item, "call_id": call_id, "input": source}


def _answer(call_id: str, *texts: str) -> tuple[str, dict[str, Any]]:
    parts = ["Script completed\nWall time 0.4 seconds\nOutput:\n", *texts]
    output = [{"type": "input_text", "text": text} for text in parts]
    return "response_item", {
        "type": "custom_tool_call_output",
        "call_id": call_id,
        "output": output,
    }


def _record(command: str, exit_code: int, output: str) -> tuple[str, dict[str, Any]]:
    item = {
        "type": "CommandExecution",
        "id": "exec-1",
        "command": ["/bin/bash", "-lc", command],
        "cwd": f"file://{CWD}",
        "status": "completed",
        "aggregated_output": output,
        "exit_code": exit_code,
    }
    return "event_msg", {"type": "item_completed", "item": item}


@pytest.mark.parametrize(
    ("command", "failed", "kind"),
    [
        ("pytest -q", "E   AssertionError: 2 != 3\n1 failed in 0.2s", EventType.TEST_RUN),
        ("bundle exec rspec", "1 example, 1 failure", EventType.TEST_RUN),
    ],
    ids=["python", "ruby"],
)
def test_a_cell_without_a_host_record_is_read_from_its_source_and_answer(
    command: str, failed: str, kind: EventType
) -> None:
    # The desktop app's rollouts: the cell and its answer, no `CommandExecution` record.
    source = f'const r = await tools.exec_command({{cmd: "{command}", workdir: "{CWD}"}}); text(r);'
    result = json.dumps({"chunk_id": "1", "exit_code": 1, "output": failed})
    events = _rollout([_cell("call_1", source), _answer("call_1", result)])
    (run,) = [e for e in events if e.event_type in RUNS]
    assert run.event_type == kind
    assert run.content["command"] == command
    assert run.content["exit_code"] == 1
    assert run.content["output"] == failed


def test_a_cell_that_prints_only_the_output_leaves_the_exit_code_unknown() -> None:
    source = "const r = await tools.exec_command({cmd: 'go test ./...'}); text(r.output);"
    events = _rollout([_cell("call_1", source), _answer("call_1", "ok  \tledger\t0.02s")])
    (run,) = [e for e in events if e.event_type in RUNS]
    assert run.content["exit_code"] is None
    assert run.content["output"] == "ok  \tledger\t0.02s"


def test_a_cell_of_two_commands_says_both_ran_and_nothing_of_their_results() -> None:
    source = (
        "const [a, b] = await Promise.all([tools.exec_command({cmd: 'npm run lint'}),"
        " tools.exec_command({cmd: 'npm test'})]); text(a); text(b);"
    )
    answer = json.dumps({"exit_code": 0, "output": "clean"})
    events = _rollout([_cell("call_1", source), _answer("call_1", answer, answer)])
    runs = [e for e in events if e.event_type in RUNS]
    assert [r.content["command"] for r in runs] == ["npm run lint", "npm test"]
    assert [r.content["exit_code"] for r in runs] == [None, None]


_TWO = (
    "const rs = await Promise.all([tools.exec_command({cmd: 'npm run lint'}),"
    " tools.exec_command({cmd: 'npm test'})]);"
    " rs.forEach((r, i) => text(JSON.stringify({i, exit_code: r.exit_code, output: r.output})));"
)


def test_a_cell_that_numbers_each_result_gives_each_command_its_own() -> None:
    first = json.dumps({"i": 0, "exit_code": 0, "output": ""})
    second = json.dumps({"i": 1, "exit_code": 1, "output": "1 failing"})
    events = _rollout([_cell("call_1", _TWO), _answer("call_1", second, first)])
    runs = [e for e in events if e.event_type in RUNS]
    assert [r.content["command"] for r in runs] == ["npm run lint", "npm test"]
    assert [(r.content["exit_code"], r.content["output"]) for r in runs] == [
        (0, ""),
        (1, "1 failing"),
    ]


@pytest.mark.parametrize(
    "answers",
    [
        [{"i": 0, "exit_code": 0}, {"i": 0, "exit_code": 1}],  # one number twice
        [{"i": 0, "exit_code": 0}],  # a result missing
        [{"i": 1, "exit_code": 0}, {"i": 2, "exit_code": 1}],  # not numbered from 0
        [{"i": "0", "exit_code": 0}, {"i": 1, "exit_code": True}],  # not whole numbers
    ],
    ids=["twice", "missing", "offset", "not-numbers"],
)
def test_results_that_are_not_exactly_numbered_say_nothing(answers: list[dict[str, Any]]) -> None:
    parts = [json.dumps(a) for a in answers]
    events = _rollout([_cell("call_1", _TWO), _answer("call_1", *parts)])
    runs = [e for e in events if e.event_type in RUNS]
    assert [r.content["exit_code"] for r in runs] == [None, None]


def test_the_hosts_record_is_read_and_the_answer_does_not_repeat_it() -> None:
    source = "const r = await tools.exec_command({cmd: 'mix test'}); text(r);"
    answer = json.dumps({"exit_code": 0, "output": "this copy is not read"})
    events = _rollout(
        [
            _cell("call_1", source),
            _record("mix test", 2, "1 test, 1 failure"),
            _answer("call_1", answer),
        ]
    )
    (run,) = [e for e in events if e.event_type in RUNS]
    assert (run.content["exit_code"], run.content["output"]) == (2, "1 test, 1 failure")
    assert run.content["tool_use_id"] == "call_1"


def test_a_record_of_a_shell_functions_call_is_not_read_twice() -> None:
    arguments = json.dumps({"cmd": "cargo test", "workdir": CWD})
    call = {"type": "function_call", "name": "exec_command", "call_id": "call_1"}
    answer = "Chunk ID: 1\nWall time: 0.3 seconds\nProcess exited with code 0\nOutput:\nok"
    output = {"type": "function_call_output", "call_id": "call_1", "output": answer}
    events = _rollout(
        [
            ("response_item", {**call, "arguments": arguments}),
            _record("cargo test", 0, "ok"),
            ("response_item", output),
        ]
    )
    assert [e.content["command"] for e in events if e.event_type in RUNS] == ["cargo test"]


def test_an_open_cell_survives_a_restart_of_the_parser() -> None:
    source = "const r = await tools.exec_command({cmd: 'pytest'}); text(r);"
    first = CodexFileParser("/home/dev/.codex/sessions/2026/05/01/rollout-x.jsonl")
    meta = {"id": "019e3000-0000", "cwd": CWD, "cli_version": "0.171.0"}
    for n, (kind, payload) in enumerate([("session_meta", meta), _cell("call_1", source)]):
        first.feed(_line(kind, payload, n), _position(n))
    second = CodexFileParser("/home/dev/.codex/sessions/2026/05/01/rollout-x.jsonl")
    second.restore_state(json.loads(json.dumps(first.export_state())))
    kind, payload = _answer("call_1", json.dumps({"exit_code": 0, "output": "3 passed"}))
    events = second.feed(_line(kind, payload, 5), _position(5))
    (run,) = [e for e in events if e.event_type in RUNS]
    assert (run.content["command"], run.content["exit_code"]) == ("pytest", 0)


def test_the_hosts_argv_is_the_command_the_cell_named() -> None:
    assert command_text(["/bin/zsh", "-lc", "npm test"]) == "npm test"
