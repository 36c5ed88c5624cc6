"""Codex code mode: an MCP tool call a cell makes, recorded as an `item_completed`
`McpToolCall` item, is a tool call with its server, tool and arguments and a result with its
error flag, as the same call made as a function (`mcp__<server>__<tool>`) is; a secret in its
arguments is redacted before it leaves ingest."""

from __future__ import annotations

import json
from typing import Any

from squirrel_core.events import Event, EventType, SourcePosition
from squirrel_ingest.parsers.codex import CodexFileParser
from squirrel_ingest.reading import redacted

CWD = "/home/dev/src/helpgen"
SECRET = "ghp_" + "Zx9" * 12


def _line(kind: str, payload: dict[str, Any], n: int) -> bytes:
    stamp = f"2026-05-01T10:00:{n:02d}Z"
    return json.dumps({"timestamp": stamp, "type": kind, "payload": payload}).encode()


def _rollout(records: list[tuple[str, dict[str, Any]]]) -> tuple[list[Event], CodexFileParser]:
    parser = CodexFileParser("/home/dev/.codex/sessions/2026/05/01/rollout-x.jsonl")
    head = [
        ("session_meta", {"id": "019e3000-0000", "cwd": CWD, "cli_version": "0.160.0"}),
        ("event_msg", {"type": "user_message", "message": "Look at issue 41."}),
    ]
    events: list[Event] = []
    for n, (kind, payload) in enumerate(head + records):
        events += parser.feed(_line(kind, payload, n), SourcePosition("r.jsonl", 1, n * 100))
    return events, parser


def _cell(call_id: str, source: str) -> tuple[str, dict[str, Any]]:
    item = {"type": "custom_tool_call", "status": "completed", "name": "exec"}
    return "response_item", {**item, "call_id": call_id, "input": source}


def _mcp(**fields: Any) -> tuple[str, dict[str, Any]]:
    item = {"type": "McpToolCall", "id": "exec-mcp", "server": "codex_apps", **fields}
    return "event_msg", {"type": "item_completed", "turn_id": "t1", "item": item}


def _answer(call_id: str) -> tuple[str, dict[str, Any]]:
    output = [{"type": "input_text", "text": "Script completed\nWall time 0.4 seconds\nOutput:\n"}]
    return "response_item", {
        "type": "custom_tool_call_output",
        "call_id": call_id,
        "output": output,
    }


def _tool(events: list[Event], kind: EventType, name: str) -> list[Event]:
    return [e for e in events if e.event_type is kind and e.content.get("tool") == name]


SOURCE = "const r = await tools.mcp__codex_apps__github_fetch_issue({issue_number: 41}); text(r);"
NAME = "mcp__codex_apps__github_fetch_issue"


def test_a_cells_connector_call_is_a_tool_call_with_its_result() -> None:
    result = {"content": [{"type": "text", "text": "Subcommand names are never coloured"}]}
    events, parser = _rollout(
        [
            _cell("call_1", SOURCE),
            _mcp(
                tool="github_fetch_issue",
                arguments={"issue_number": 41, "repository_full_name": "dev/helpgen"},
                status="completed",
                result=result,
            ),
            _answer("call_1"),
        ]
    )
    (call,) = _tool(events, EventType.TOOL_CALL, NAME)
    (done,) = _tool(events, EventType.TOOL_RESULT, NAME)
    assert call.content["input"] == {"issue_number": 41, "repository_full_name": "dev/helpgen"}
    assert call.content["tool_use_id"] == done.content["tool_use_id"] == "call_1#mcp:exec-mcp"
    assert done.content["output"] == "Subcommand names are never coloured"
    assert done.content["is_error"] is False
    assert parser.skipped["ignored_event"] == 0


def test_a_failed_call_is_an_error_result_whatever_shape_the_failure_takes() -> None:
    failures = [
        {"status": "failed", "error": {"message": "Server offline"}},
        {"status": "completed", "result": {"Err": "tool call timed out"}},
        {"status": "completed", "result": {"content": [], "isError": True}},
    ]
    for failure in failures:
        events, _ = _rollout([_mcp(tool="search", arguments="{}", **failure)])
        (done,) = _tool(events, EventType.TOOL_RESULT, "mcp__codex_apps__search")
        assert done.content["is_error"] is True, failure


def test_a_call_outside_any_cell_keeps_its_own_id_and_string_arguments_are_read() -> None:
    events, _ = _rollout(
        [_mcp(tool="search", arguments='{"query": "colour"}', result={"Ok": {"content": []}})]
    )
    (call,) = _tool(events, EventType.TOOL_CALL, "mcp__codex_apps__search")
    assert call.content["tool_use_id"] == "exec-mcp"
    assert call.content["input"] == {"query": "colour"}


def test_a_secret_in_the_arguments_is_redacted_before_it_leaves_ingest() -> None:
    events, _ = _rollout([_mcp(tool="search", arguments={"token": SECRET}, status="completed")])
    cleaned, count = redacted(events)
    assert count >= 1
    assert SECRET not in json.dumps([e.content for e in cleaned])


def test_an_item_naming_no_tool_is_no_event() -> None:
    events, _ = _rollout([_mcp(arguments={})])
    assert not [e for e in events if e.event_type is EventType.TOOL_CALL]
