"""A stdio MCP server of one tool whose result has both a text block and `structuredContent`,
to see which of them a host hands its model (tests/e2e/test_claude_code.py)."""

from __future__ import annotations

import json
import sys

TEXT = "MARKDOWN-TEXT-BLOCK"
STRUCTURED = {"markdown": TEXT, "extra": "STRUCTURED-ONLY-FIELD"}


def answer(method: str, params: dict[str, object]) -> dict[str, object]:
    if method == "initialize":
        version = params.get("protocolVersion") or "2025-06-18"
        return {
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "probe", "version": "1"},
        }
    if method == "tools/list":
        schema = {
            "type": "object",
            "properties": {"markdown": {"type": "string"}, "extra": {"type": "string"}},
        }
        tool = {
            "name": "answer",
            "description": "Returns an answer.",
            "inputSchema": {"type": "object", "properties": {}},
            "outputSchema": schema,
        }
        return {"tools": [tool]}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": TEXT}], "structuredContent": STRUCTURED}
    if method == "prompts/list":
        return {"prompts": []}
    if method == "resources/list":
        return {"resources": []}
    return {}


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        result = answer(str(message.get("method")), message.get("params") or {})
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
