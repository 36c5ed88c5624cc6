"""An MCP tool call a Codex rollout records as an item (`item_completed` `McpToolCall`): what a
code-mode cell's `tools.mcp__<server>__<tool>(…)` ran, and how the host reports a connector
call (fetching a GitHub issue through `codex_apps`).

The item names its `server` and `tool`, its `arguments` (an object, or a JSON string), its
`status` (`completed`, `failed`) and its `result` (an MCP `CallToolResult`: `content` parts and
`isError`; or a Rust `Result` written as `{"Ok": …}` / `{"Err": …}`) or `error`; Codex 0.171
writes `id`, `server`, `tool`, `arguments`, `readOnlyHint`, `status`, `result` and `duration`
(`tests/e2e/test_codex_cell_mcp.py` runs it). It is read as
the same call made as a function is (`mcp__<server>__<tool>`, its input kept and redacted
downstream like any tool's) and its result, the error flag set when the call failed. Its call
id is the cell's awaiting its answer, with `#mcp:<item id>` after it, so it pairs with its own
result and not with the cell's; outside a cell, the item's own id.
"""

from __future__ import annotations

import json
from typing import Any

from squirrel_core.events import Event, EventType
from squirrel_ingest.parsers.base import (
    PendingTool,
    RecordContext,
    completion_events,
    str_or_none,
    text_of,
)
from squirrel_ingest.parsers.kept_values import keep_input

ITEM_TYPE = "McpToolCall"
_MAX_RESULT_JSON = 200_000


def is_mcp_item(item: object) -> bool:
    """Whether an `item_completed` item is an MCP tool call."""
    return isinstance(item, dict) and item.get("type") == ITEM_TYPE


def mcp_item_events(item: dict[str, Any], ctx: RecordContext, cell: str | None) -> list[Event]:
    """The tool call and result events of an `McpToolCall` item ([] when it names no tool)."""
    server = str_or_none(item.get("server"))
    tool = str_or_none(item.get("tool"))
    if tool is None:
        return []
    name = f"mcp__{server}__{tool}" if server else tool
    item_id = str_or_none(item.get("id")) or str_or_none(item.get("call_id")) or name
    call_id = f"{cell}#mcp:{item_id}" if cell else item_id
    content = {"tool": name, "tool_use_id": call_id, "input": keep_input(_arguments(item))}
    call = ctx.event(EventType.TOOL_CALL, content, kept=True)
    if item.get("status") in ("in_progress", "inProgress", "running"):
        return [call]
    output, is_error = _result(item)
    pending = PendingTool(name=name)
    return [
        call,
        *completion_events(ctx, call_id, pending, output, is_error=is_error, exit_code=None),
    ]


def _arguments(item: dict[str, Any]) -> dict[str, Any]:
    raw = item.get("arguments")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):
            return {"input": raw}
    if isinstance(raw, dict):
        return raw
    return {} if raw is None else {"input": raw}


def _result(item: dict[str, Any]) -> tuple[str, bool]:
    """The result's text and whether the call failed."""
    failed = item.get("status") == "failed"
    error = item.get("error")
    result = item.get("result")
    if isinstance(result, dict) and len(result) == 1 and ("Ok" in result or "Err" in result):
        failed = failed or "Err" in result
        result = result.get("Ok", result.get("Err"))
    if error not in (None, "", {}):
        message = error.get("message") if isinstance(error, dict) else error
        return _text(message if message is not None else error), True
    if isinstance(result, dict):
        failed = failed or result.get("isError") is True or result.get("is_error") is True
        parts = result.get("content")
        text = text_of(parts) if isinstance(parts, list) else ""
        if not text and result.get("structuredContent") is not None:
            text = _text(result["structuredContent"])
        return text, failed
    return _text(result), failed


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)[:_MAX_RESULT_JSON]
    except (TypeError, ValueError, RecursionError):
        return ""
