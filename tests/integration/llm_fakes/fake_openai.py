"""A real HTTP server speaking the OpenAI chat-completions API, for tests: canned behaviours."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.integration.llm_fakes.fake_cli import ANSWER


@dataclass
class FakeOpenAI:
    """`mode`: tool_call, content, malformed, ratelimit, unauthorized, server_error, huge, slow."""

    mode: str = "tool_call"
    answer: dict[str, Any] = field(default_factory=lambda: dict(ANSWER))
    # Answers a call to any other tool (e.g. consolidation) from the request body.
    other_tools: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    url: str = ""
    # A `slow` answer is held until this is set (when the server stops, at the latest).
    released: threading.Event = field(default_factory=threading.Event)


#: The longest a `slow` answer is held: past any timeout a test gives its caller.
SLOW_HOLD_SECONDS = 120.0


def _handler(state: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            state.requests.append(body)
            state.headers.append({k.lower(): v for k, v in self.headers.items()})
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._send(404, b'{"error": "not found"}')
                return
            mode = state.mode
            if mode == "slow":
                state.released.wait(SLOW_HOLD_SECONDS)
            if mode == "ratelimit":
                self._send(429, b'{"error": "slow down"}', {"retry-after": "0"})
                return
            if mode == "unauthorized":
                self._send(401, b'{"error": "bad key"}')
                return
            if mode == "server_error":
                self._send(500, b'{"error": "boom"}')
                return
            if mode == "huge":
                self._send(
                    200, b'{"choices": [{"message": {"content": "' + b"x" * 5_000_000 + b'"}}]}'
                )
                return
            message: dict[str, Any]
            if mode == "tool_call":
                name = body["tools"][0]["function"]["name"]
                arguments = state.answer
                if name != "record_memories":
                    arguments = state.other_tools(body) if state.other_tools else {}
                message = {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": name, "arguments": json.dumps(arguments)},
                        }
                    ],
                }
            elif mode == "malformed":
                message = {"role": "assistant", "content": "{broken"}
            else:
                message = {"role": "assistant", "content": json.dumps(ANSWER)}
            reply = {
                "id": "x",
                "object": "chat.completion",
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 30, "total_tokens": 130},
            }
            self._send(200, json.dumps(reply).encode())

    return Handler


@contextmanager
def running_fake_openai() -> Iterator[FakeOpenAI]:
    state = FakeOpenAI()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.released.set()
        server.shutdown()
        server.server_close()
        thread.join()
