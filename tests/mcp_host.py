"""What a host sees of Squirrel's MCP server: the read tools it lists, the messages a host
opens the session with, and what a host hands the model from a tool result, so budget tests
measure that.

Claude Code (checked with the real client in tests/e2e/test_claude_code.py) gives the model a
result's `structuredContent`, serialized as JSON, whenever the result has one, and its text
blocks only otherwise. A budget kept by the text but not by what the model reads is not kept.
"""

from __future__ import annotations

import json
import re
from typing import Final

from mcp.types import CallToolResult

FOOTER: Final = re.compile(r"📏 ~([\d,]+) tokens\Z")

READ_TOOLS: Final = frozenset(
    {
        "get_task_context",
        "get_user_style_view",
        "get_project_brief_view",
        "get_pitfalls_view",
        "search_project_memory",
    }
)
"""The read tools, by their bare names (a host prefixes them: `mcp__ctx-memory__…`)."""

INITIALIZE: Final = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
"""A host's first JSON-RPC message, as it goes over the wire."""

INITIALIZED: Final = {"jsonrpc": "2.0", "method": "notifications/initialized"}
"""The notification a host sends once `initialize` is answered."""


def model_reads(result: CallToolResult) -> str:
    """The text Claude Code passes on to the model for `result`."""
    if result.structured_content is not None:
        return json.dumps(result.structured_content, ensure_ascii=False)
    return "\n".join(block.text for block in result.content if block.type == "text")


def footer_tokens(text: str) -> int:
    """The `📏 ~N tokens` a read tool's answer ends with."""
    match = FOOTER.search(text)
    assert match is not None, f"no 📏 footer at the end of: {text[-200:]!r}"
    return int(match.group(1).replace(",", ""))
