"""What `sqrl mcp`'s relay speaks on either side: JSON-RPC's error codes, its log lines on
stderr (stdout is the MCP wire), the errors a relayed message gets, the JSON-RPC messages in a
gateway's reply (one JSON body, or one per server-sent event), and whether the memory service
runs (the gateway answers before it does)."""

from __future__ import annotations

import http.client
import json
import sys
import time
from collections.abc import Iterator
from typing import Any, Final

from squirrel_cli.sse import sse_data
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import pid_alive, read_service_info

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
GATEWAY_ERROR: Final = -32000
"""JSON-RPC code (server-error range) of a call the gateway could not be asked or refused."""


def log_event(event: str, level: str = "info", **fields: object) -> None:
    """One JSON line on stderr, as structlog writes them (stdout is the MCP wire)."""
    now = time.time()
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1e6):06d}Z"
    line = {"event": event, **fields, "process": "mcp", "level": level, "timestamp": stamp}
    try:
        sys.stderr.write(json.dumps(line, default=str) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class RelayError(Exception):
    """A message could not be relayed; a request gets this as its JSON-RPC error."""


class NotServingError(RelayError):
    """The gateway's endpoint did not answer within the time the call may wait."""

    def __init__(self, reason: str, wait_seconds: float) -> None:
        super().__init__(reason)
        self.wait_seconds = wait_seconds
        """How long the call was allowed to wait for the gateway."""


def is_request(message: dict[str, Any]) -> bool:
    """Whether `message` is a JSON-RPC request (a call awaiting an answer)."""
    return "method" in message and "id" in message


def answers(reply: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
    """The JSON-RPC messages in a reply: one JSON body, or one per server-sent event."""
    kind = (reply.getheader("content-type") or "").split(";")[0].strip().lower()
    chunks = sse_data(reply) if kind == "text/event-stream" else iter([reply.read()])
    for chunk in chunks:
        if not chunk.strip():
            continue  # e.g. an event that only primes the stream
        try:
            parsed = json.loads(chunk)
        except ValueError:
            log_event("mcp_answer_unreadable", "warning", size=len(chunk))
            continue
        for item in parsed if isinstance(parsed, list) else [parsed]:
            if isinstance(item, dict) and item.get("jsonrpc") == "2.0":
                yield item


def memory_running(layout: HomeLayout) -> bool:
    """Whether the memory service runs now (its service file names a live process)."""
    info = read_service_info(layout.service_file("memory"))
    return info is not None and pid_alive(info.pid)
