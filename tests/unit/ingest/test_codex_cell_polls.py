"""Codex code mode: a cell's command still running when its cell answers (its JSON result holds a
`session_id`, no `exit_code`), polled by later cells with `tools.write_stdin`, takes its one run
from the first of the host's record of its session (`CommandExecution` or `exec_command_end`
whose `process_id` is the session) and the poll whose JSON result states its `exit_code`; with no
exit code seen there is no run, and a poll of another session settles nothing.

The records are in the shape Codex CLI 0.155 writes (`originator` `codex-tui`, code mode): a cell
`const r = await tools.exec_command({cmd: …, yield_time_ms: 1000}); text(JSON.stringify(r));`,
its answer `Script completed` then `{"chunk_id": …, "session_id": N, "output": …}`, and a cell
`tools.write_stdin({session_id: N, chars: ""})` answered `{"chunk_id": …, "exit_code": 0, …}`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourcePosition
from squirrel_ingest.parsers.codex import CodexFileParser

CWD = "/home/dev/src/shop"
RUNS = (EventType.COMMAND_RUN, EventType.TEST_RUN)
COMMAND = "npm ci && npm run lint && npm test"
Record = tuple[str, dict[str, Any]]


def _line(kind: str, payload: dict[str, Any], n: int) -> bytes:
    stamp = f"2026-05-01T10:{n // 60:02d}:{n % 60:02d}Z"
    return json.dumps({"timestamp": stamp, "type": kind, "payload": payload}).encode()


def _head() -> list[Record]:
    return [
        ("session_meta", {"id": "019e4000-0000", "cwd": CWD, "cli_version": "0.155.1"}),
        ("event_msg", {"type": "user_message", "message": "Run the checks."}),
    ]


def _rollout(records: list[Record], *, restart: bool = False) -> list[Event]:
    """The events of `records`; with `restart`, a new parser takes over after every line from
    the state the last one left (as ingest restarted from its cursor)."""
    path = "/home/dev/.codex/sessions/2026/05/01/rollout-x.jsonl"
    parser = CodexFileParser(path)
    events: list[Event] = []
    for n, (kind, payload) in enumerate(_head() + records):
        events += parser.feed(_line(kind, payload, n), SourcePosition("r.jsonl", 1, n * 100))
        if restart:
            state = json.loads(json.dumps(parser.export_state()))
            parser = CodexFileParser(path)
            parser.restore_state(state)
    return events


def _runs(events: list[Event]) -> list[Event]:
    return [e for e in events if e.event_type in RUNS]


def _exec_cell(call_id: str, command: str = COMMAND) -> Record:
    source = (
        f"const r = await tools.exec_command({{cmd:{json.dumps(command)},"
        f'"workdir":"{CWD}","yield_time_ms":1000,"max_output_tokens":30000}}); '
        "text(JSON.stringify(r));\n"
    )
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    return "response_item", {**item, "call_id": call_id, "input": source}


def _poll_cell(call_id: str, session: int | str) -> Record:
    source = (
        f'const r = await tools.write_stdin({{session_id:{session},chars:"",'
        "yield_time_ms:1000,max_output_tokens:30000}); text(JSON.stringify(r));\n"
    )
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    return "response_item", {**item, "call_id": call_id, "input": source}


def _answer(call_id: str, result: dict[str, Any] | None, text: str = "") -> Record:
    parts = ["Script completed\nWall time 1.3 seconds\nOutput:\n"]
    parts.append(json.dumps({"chunk_id": "2e20a3", **result}) if result is not None else text)
    output = [{"type": "input_text", "text": part} for part in parts]
    return "response_item", {
        "type": "custom_tool_call_output",
        "call_id": call_id,
        "output": output,
    }


def _running(call_id: str, session: int, output: str) -> Record:
    return _answer(call_id, {"wall_time_seconds": 1.0, "session_id": session, "output": output})


def _exited(call_id: str, code: int, output: str) -> Record:
    return _answer(call_id, {"wall_time_seconds": 4.8, "exit_code": code, "output": output})


def _host_record(session: str, code: int, output: str, command: str = COMMAND) -> Record:
    item = {
        "type": "CommandExecution",
        "id": "exec-952ea42d",
        "process_id": session,
        "command": ["/bin/bash", "-lc", command],
        "cwd": f"file://{CWD}",
        "parsed_cmd": [{"type": "unknown", "cmd": command}],
        "source": "unified_exec_startup",
        "status": "completed",
        "stdout": output,
        "stderr": "",
        "aggregated_output": output,
        "exit_code": code,
        "formatted_output": output,
    }
    return "event_msg", {"type": "item_completed", "item": item}


def _exec_end(session: str, code: int, output: str) -> Record:
    return "event_msg", {
        "type": "exec_command_end",
        "call_id": "call_inner_1",
        "process_id": session,
        "command": ["/bin/bash", "-lc", COMMAND],
        "cwd": CWD,
        "source": "unified_exec_startup",
        "aggregated_output": output,
        "exit_code": code,
    }


def _polled_to_exit(code: int = 0) -> list[Record]:
    return [
        _exec_cell("call_run"),
        _running("call_run", 68808, "added 212 packages\n"),
        _poll_cell("call_poll1", 68808),
        _running("call_poll1", 68808, "> lint\nno problems\n"),
        _poll_cell("call_poll2", 68808),
        _exited("call_poll2", code, "> test\nTests  85 passed (85)\n"),
    ]


def test_the_poll_stating_the_exit_code_is_the_command_run() -> None:
    runs = _runs(_rollout(_polled_to_exit()))
    assert len(runs) == 1
    run = runs[0]
    assert run.content["command"] == COMMAND
    assert run.content["exit_code"] == 0 and run.content["is_error"] is False
    assert run.content["tool_use_id"] == "call_run"
    assert run.cwd == CWD
    output = run.content["output"]
    assert "added 212 packages" in output and "Tests  85 passed" in output


def test_a_failing_exit_is_a_failed_run() -> None:
    runs = _runs(_rollout(_polled_to_exit(code=1)))
    assert [(r.content["exit_code"], r.content["is_error"]) for r in runs] == [(1, True)]


def test_the_run_survives_a_restart_between_every_record() -> None:
    runs = _runs(_rollout(_polled_to_exit(), restart=True))
    assert [(r.content["command"], r.content["exit_code"]) for r in runs] == [(COMMAND, 0)]


def test_the_host_record_between_poll_call_and_answer_is_the_one_run() -> None:
    # the host's record of the session comes while the poll awaits its answer
    records = [
        _exec_cell("call_run"),
        _running("call_run", 80631, "$ tsc --noEmit\n"),
        _poll_cell("call_poll", 80631),
        _host_record("80631", 0, "$ tsc --noEmit\n$ vitest run\nall passed\n"),
        _exited("call_poll", 0, "$ vitest run\nall passed\n"),
    ]
    for restart in (False, True):
        runs = _runs(_rollout(records, restart=restart))
        assert len(runs) == 1
        assert runs[0].content["tool_use_id"] == "call_run"
        assert runs[0].content["exit_code"] == 0
        assert runs[0].content["output"].startswith("$ tsc --noEmit")


def test_the_host_record_between_two_polls_is_the_one_run() -> None:
    records = [
        _exec_cell("call_run"),
        _running("call_run", 68808, "Already up to date\n"),
        _poll_cell("call_poll1", 68808),
        _running("call_poll1", 68808, "> test\n"),
        _host_record("68808", 0, "Already up to date\n> test\nok\n"),
        _poll_cell("call_poll2", 68808),
        _exited("call_poll2", 0, "ok\n"),
    ]
    runs = _runs(_rollout(records))
    assert [(r.content["tool_use_id"], r.content["exit_code"]) for r in runs] == [("call_run", 0)]


def test_a_host_record_after_the_exiting_poll_makes_no_second_run() -> None:
    # even with a new cell open, the late record is not read as that cell's command
    records = [
        *_polled_to_exit(),
        _exec_cell("call_next", "git status --short"),
        _host_record("68808", 0, "everything\n"),
        _answer("call_next", None, " M src/app.ts"),
    ]
    for restart in (False, True):
        runs = _runs(_rollout(records, restart=restart))
        assert [r.content["command"] for r in runs] == [COMMAND, "git status --short"]
        assert runs[0].content["exit_code"] == 0


def test_an_exec_command_end_of_the_session_is_the_one_run() -> None:
    records = [
        _exec_cell("call_run"),
        _running("call_run", 68808, "Already up to date\n"),
        _exec_end("68808", 2, "Already up to date\nlint failed\n"),
        _poll_cell("call_poll", 68808),
        _exited("call_poll", 2, "lint failed\n"),
    ]
    runs = _runs(_rollout(records))
    assert [(r.content["tool_use_id"], r.content["exit_code"]) for r in runs] == [("call_run", 2)]


def test_a_host_record_of_another_command_in_the_session_is_not_its_run() -> None:
    records = [
        _exec_cell("call_run"),
        _running("call_run", 68808, "starting\n"),
        _host_record("68808", 0, "ok\n", command="npm run build"),
    ]
    runs = _runs(_rollout(records))
    assert all(r.content["command"] != COMMAND for r in runs)


def test_a_cut_transcript_whose_last_poll_still_runs_makes_no_run() -> None:
    records = _polled_to_exit()[:4]  # the last poll still says the session runs
    for restart in (False, True):
        assert _runs(_rollout(records, restart=restart)) == []


def test_a_poll_of_another_session_settles_nothing() -> None:
    records = [
        _exec_cell("call_run"),
        _running("call_run", 68808, "starting\n"),
        _poll_cell("call_poll", 51234),
        _exited("call_poll", 0, "done\n"),
    ]
    assert _runs(_rollout(records)) == []


def test_a_poll_answer_naming_another_session_settles_nothing() -> None:
    records = [
        _exec_cell("call_run"),
        _running("call_run", 68808, "starting\n"),
        _poll_cell("call_poll", 68808),
        _answer("call_poll", {"session_id": 51234, "exit_code": 0, "output": "done\n"}),
        _poll_cell("call_poll2", 68808),
        _answer("call_poll2", {"exit_code": 0, "output": "done\n"}),
    ]
    runs = _runs(_rollout(records))
    assert [(r.content["tool_use_id"], r.content["exit_code"]) for r in runs] == [("call_run", 0)]


def test_printed_text_saying_an_exit_code_settles_nothing() -> None:
    # what the command printed is not the host's word on how it ended
    records = [
        _exec_cell("call_run"),
        _running("call_run", 68808, '{"exit_code": 0}\n'),
        _poll_cell("call_poll", 68808),
        _running("call_poll", 68808, 'exit_code: 0\n"exit_code":0\nProcess exited with code 0\n'),
    ]
    assert _runs(_rollout(records)) == []


def test_a_poll_whose_session_is_a_name_settles_nothing() -> None:
    source = (
        'const id = 68808; const r = await tools.write_stdin({session_id:id,chars:""}); '
        "text(JSON.stringify(r));\n"
    )
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    records = [
        _exec_cell("call_run"),
        _running("call_run", 68808, "starting\n"),
        ("response_item", {**item, "call_id": "call_poll", "input": source}),
        _exited("call_poll", 0, "done\n"),
    ]
    assert _runs(_rollout(records)) == []


def test_a_command_that_ended_within_its_cell_is_read_as_before() -> None:
    records = [_exec_cell("call_run"), _exited("call_run", 0, "Tests 3 passed\n")]
    runs = _runs(_rollout(records))
    assert [(r.content["tool_use_id"], r.content["exit_code"]) for r in runs] == [("call_run", 0)]


def _run_and_poll_cell(call_id: str, *, polls: int = 1, command: str = COMMAND) -> Record:
    """A cell that runs a command and polls its session in the same script, printing each
    result as it comes (the session's number is the first result's, not written in the
    source)."""
    source = (
        f"let r = await tools.exec_command({{cmd:{json.dumps(command)},"
        f'"workdir":"{CWD}","yield_time_ms":1000,"max_output_tokens":30000}}); '
        "text(JSON.stringify(r));\n"
        + (
            'r = await tools.write_stdin({session_id:r.session_id,chars:"",'
            "yield_time_ms:30000,max_output_tokens:30000}); text(JSON.stringify(r));\n"
        )
        * polls
    )
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    return "response_item", {**item, "call_id": call_id, "input": source}


def _answers(call_id: str, *results: dict[str, Any]) -> Record:
    """A cell's answer holding one JSON result per `text(…)` call, in the order printed."""
    parts = ["Script completed\nWall time 9.4 seconds\nOutput:\n"]
    parts += [json.dumps({"chunk_id": f"c{n}", **r}) for n, r in enumerate(results)]
    output = [{"type": "input_text", "text": part} for part in parts]
    return "response_item", {
        "type": "custom_tool_call_output",
        "call_id": call_id,
        "output": output,
    }


def test_a_cell_that_runs_and_polls_its_command_keeps_every_answers_output_in_order() -> None:
    records = [
        _run_and_poll_cell("call_cell", polls=2),
        _answers(
            "call_cell",
            {"wall_time_seconds": 1.0, "session_id": 68808, "output": "added 212 packages\n"},
            {"wall_time_seconds": 30.0, "session_id": 68808, "output": "> lint\nno problems\n"},
            {"wall_time_seconds": 4.8, "exit_code": 1, "output": "> test\n2 failed, 83 passed\n"},
        ),
    ]
    for restart in (False, True):
        runs = _runs(_rollout(records, restart=restart))
        assert [(r.content["tool_use_id"], r.content["exit_code"]) for r in runs] == [
            ("call_cell", 1)
        ]
        assert runs[0].content["command"] == COMMAND and runs[0].content["is_error"] is True
        assert runs[0].content["output"] == (
            "added 212 packages\n> lint\nno problems\n> test\n2 failed, 83 passed\n"
        )


def test_a_cell_whose_own_polls_end_still_running_is_settled_by_a_later_poll() -> None:
    records = [
        _run_and_poll_cell("call_cell"),
        _answers(
            "call_cell",
            {"session_id": 68808, "output": "Compiling app v0.1.0\n"},
            {"session_id": 68808, "output": "Finished dev profile\nRunning tests\n"},
        ),
        _poll_cell("call_poll", 68808),
        _exited("call_poll", 0, "test result: ok. 12 passed\n"),
    ]
    for restart in (False, True):
        runs = _runs(_rollout(records, restart=restart))
        assert [(r.content["tool_use_id"], r.content["exit_code"]) for r in runs] == [
            ("call_cell", 0)
        ]
        output = runs[0].content["output"]
        assert output.index("Compiling app") < output.index("Running tests") < output.index("12 ")


@pytest.mark.parametrize("session", ["68808", "earlier", "'68808'"])
def test_results_of_two_sessions_in_one_cell_are_not_joined_as_one_commands(
    session: str,
) -> None:
    # must not join: the cell polls an earlier command's session (its number written in the
    # source, or a name bound to it) as well as running a command of its own
    source = (
        "const earlier = 68808;\n"
        f'const p = await tools.write_stdin({{session_id:{session},chars:""}}); '
        "text(JSON.stringify(p));\n"
        'const r = await tools.exec_command({cmd:"git status --short"}); '
        "text(JSON.stringify(r));\n"
    )
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    records = [
        _exec_cell("call_run"),
        _running("call_run", 68808, "added 212 packages\n"),
        ("response_item", {**item, "call_id": "call_both", "input": source}),
        _answers(
            "call_both",
            {"session_id": 68808, "output": "> lint\n"},
            {"exit_code": 0, "output": " M src/app.ts\n"},
        ),
    ]
    runs = _runs(_rollout(records))
    [status] = [r for r in runs if r.content["command"] == "git status --short"]
    assert "lint" not in status.content["output"] and "M src/app.ts" in status.content["output"]
    assert all(r.content["command"] != COMMAND for r in runs)  # 68808 has not ended
