"""A local stand-in for the Anthropic Messages API: real HTTP on loopback, canned replies."""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class CannedReply:
    """One HTTP reply: status, JSON body and extra headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


def tool_use_reply(
    name: str, tool_input: dict[str, Any], *, input_tokens: int = 120, output_tokens: int = 80
) -> CannedReply:
    """A 200 Messages response whose only content block calls `name` with `tool_input`."""
    return CannedReply(
        200,
        {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": "claude-fake",
            "content": [
                {"type": "tool_use", "id": "toolu_fake", "name": name, "input": tool_input}
            ],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        },
    )


def text_reply(text: str) -> CannedReply:
    """A 200 Messages response with only text (a model that ignored the forced tool)."""
    return CannedReply(
        200,
        {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": "claude-fake",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5},
        },
    )


def error_reply(status: int, error_type: str, headers: dict[str, str] | None = None) -> CannedReply:
    """An API error body as the real service sends it."""
    return CannedReply(
        status,
        {"type": "error", "error": {"type": error_type, "message": f"fake {error_type}"}},
        headers or {},
    )


class FakeAnthropicServer:
    """Answers POST /v1/messages with queued replies, in order, and records every request.

    Start with `start()` (binds 127.0.0.1:0) and stop with `stop()`; `base_url` is what the
    SDK client takes. With the queue empty it answers 500 so a missing reply fails loudly.
    """

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._replies: deque[CannedReply] = deque()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def queue(self, *replies: CannedReply) -> None:
        with self._lock:
            self._replies.extend(replies)

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"unparsable": raw.decode(errors="replace")}
                with fake._lock:
                    fake.requests.append({"path": self.path, "body": body})
                    fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                    reply = (
                        fake._replies.popleft() if fake._replies else error_reply(500, "api_error")
                    )
                if self.path.split("?")[0] != "/v1/messages":
                    reply = error_reply(404, "not_found_error")
                payload = json.dumps(reply.body).encode()
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
