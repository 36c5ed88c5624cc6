"""A scripted model that real assistant CLIs can be pointed at: loopback HTTP, every request
logged. It speaks the Anthropic Messages API (`/v1/messages`, streamed with server-sent events
or not: Claude Code's `ANTHROPIC_BASE_URL`), the OpenAI Responses API (`/v1/responses`,
streamed: a Codex custom provider's `base_url`) and the Gemini API
(`/v1beta/models/<model>:streamGenerateContent`: the Gemini CLI's `GOOGLE_GEMINI_BASE_URL`).

What it answers comes from `script`: given a request body, the content blocks of the reply in
the Messages API's form (text and tool_use; for the Responses API they become a message and
function calls).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Block = dict[str, Any]
Script = Callable[[dict[str, Any]], list[Block]]

MODEL = "claude-sonnet-4-5"


@dataclass
class Logged:
    """One request as it arrived."""

    path: str
    body: dict[str, Any]
    reply: list[Block] = field(default_factory=list)


@dataclass
class ScriptedModel:
    """The running server: its URL and every request it got, in order."""

    url: str
    requests: list[Logged]

    def messages(self) -> list[Logged]:
        """The model calls (not token counts or anything else)."""
        return [r for r in self.requests if is_model_call(r.path)]


MODEL_ROUTES = ("/v1/messages", "/v1/responses")
GEMINI_CALLS = (":streamGenerateContent", ":generateContent")


def is_model_call(path: str) -> bool:
    route = path.split("?", maxsplit=1)[0]
    return route in MODEL_ROUTES or route.endswith(GEMINI_CALLS)


_ids = itertools.count(1)


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def tool_use(name: str, tool_input: dict[str, Any]) -> Block:
    return {
        "type": "tool_use",
        "id": f"toolu_scripted_{next(_ids)}",
        "name": name,
        "input": tool_input,
    }


def custom_tool_call(name: str, source: str) -> Block:
    """A call of a freeform tool (the Responses API's `custom_tool_call`), whose input is text:
    Codex's code-mode `exec` takes a JavaScript cell. Only the Responses API speaks it."""
    return {
        "type": "custom_tool_call",
        "id": f"call_scripted_{next(_ids)}",
        "name": name,
        "input": source,
    }


def _usage() -> dict[str, int]:
    return {"input_tokens": 100, "output_tokens": 20}


def _message(blocks: list[Block]) -> dict[str, Any]:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {
        "id": f"msg_scripted_{next(_ids)}",
        "type": "message",
        "role": "assistant",
        "model": MODEL,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": _usage(),
    }


def _events(blocks: list[Block]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The server-sent events of a streamed reply holding `blocks`."""
    whole = _message(blocks)
    yield (
        "message_start",
        {"type": "message_start", "message": {**whole, "content": [], "stop_reason": None}},
    )
    for index, block in enumerate(blocks):
        start: dict[str, Any]
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        yield (
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        )
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": whole["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 20},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _response_events(blocks: list[Block]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The server-sent events of a Responses API reply holding `blocks`."""
    response_id = f"resp_scripted_{next(_ids)}"
    yield "response.created", {"type": "response.created", "response": {"id": response_id}}
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            item: dict[str, Any] = {
                "type": "message",
                "role": "assistant",
                "id": f"msg_scripted_{next(_ids)}",
                "content": [{"type": "output_text", "text": block["text"], "annotations": []}],
            }
        elif block["type"] == "custom_tool_call":  # a freeform tool: Codex's code-mode `exec`
            item = {
                "type": "custom_tool_call",
                "id": f"ctc_scripted_{next(_ids)}",
                "status": "completed",
                "call_id": block["id"],
                "name": block["name"],
                "input": block["input"],
            }
        else:
            item = {
                "type": "function_call",
                "id": f"fc_scripted_{next(_ids)}",
                "call_id": block["id"],
                "name": block["name"],
                "arguments": json.dumps(block["input"]),
            }
            if block.get("namespace"):  # Codex groups an MCP server's tools in a namespace
                item["namespace"] = block["namespace"]
        yield (
            "response.output_item.done",
            {
                "type": "response.output_item.done",
                "output_index": index,
                "item": item,
            },
        )
    usage = {
        "input_tokens": 100,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 20,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 120,
    }
    yield (
        "response.completed",
        {
            "type": "response.completed",
            "response": {"id": response_id, "usage": usage},
        },
    )


def _gemini_response(blocks: list[Block]) -> dict[str, Any]:
    """A Gemini API `GenerateContentResponse` holding `blocks`."""
    parts = [
        {"text": b["text"]}
        if b["type"] == "text"
        else {"functionCall": {"id": b["id"], "name": b["name"], "args": b["input"]}}
        for b in blocks
    ]
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {
            "promptTokenCount": 100,
            "candidatesTokenCount": 20,
            "totalTokenCount": 120,
        },
        "modelVersion": "scripted",
    }


def _handler(
    script: Script, log: list[Logged], lock: threading.Lock
) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            return  # the request log is the record

        def _send_json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _send_gemini(self, body: dict[str, Any], streamed: bool) -> None:
            if not streamed:
                self._send_json(200, body)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(f"data: {json.dumps(body)}\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

        def do_GET(self) -> None:
            with lock:
                log.append(Logged(self.path, {}))
            self._send_json(
                404, {"type": "error", "error": {"type": "not_found_error", "message": "scripted"}}
            )

        do_HEAD = do_GET  # noqa: N815

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"unreadable": raw[:200].decode("utf-8", "replace")}
            entry = Logged(self.path, body if isinstance(body, dict) else {"body": body})
            with lock:
                log.append(entry)
            route = self.path.split("?")[0]
            if route == "/v1/messages/count_tokens":
                self._send_json(200, {"input_tokens": 100})
                return
            if route.endswith(":countTokens"):
                self._send_json(200, {"totalTokens": 100})
                return
            if route.endswith(GEMINI_CALLS):
                with lock:
                    entry.reply = script(entry.body)
                self._send_gemini(_gemini_response(entry.reply), "alt=sse" in self.path)
                return
            if route not in MODEL_ROUTES:
                self._send_json(
                    404,
                    {"type": "error", "error": {"type": "not_found_error", "message": "scripted"}},
                )
                return
            with lock:
                entry.reply = script(entry.body)
            if not entry.body.get("stream") and route == "/v1/messages":
                self._send_json(200, _message(entry.reply))
                return
            events = _events if route == "/v1/messages" else _response_events
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            for name, data in events(entry.reply):
                self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()
            self.close_connection = True

    return Handler


@contextmanager
def scripted_model(script: Script) -> Iterator[ScriptedModel]:
    """The server on 127.0.0.1 (a free port) until the block ends."""
    log: list[Logged] = []
    lock = threading.Lock()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script, log, lock))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield ScriptedModel(f"http://127.0.0.1:{server.server_address[1]}", log)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# --- reading requests ---------------------------------------------------------------------------


def blocks_of(message: dict[str, Any]) -> list[Block]:
    content = message.get("content")
    if isinstance(content, str):
        return [text(content)]
    return [b for b in content or [] if isinstance(b, dict)]


def result_text(block: Block) -> str:
    """The text of a tool_result block as the model receives it."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(str(b.get("text", "")) for b in content or [] if isinstance(b, dict))


def tool_results(body: dict[str, Any]) -> dict[str, Block]:
    """Every tool_result in a request, by tool_use_id."""
    return {
        str(b.get("tool_use_id")): b
        for m in body.get("messages", [])
        if isinstance(m, dict)
        for b in blocks_of(m)
        if b.get("type") == "tool_result"
    }


def tool_names(body: dict[str, Any]) -> list[str]:
    return [str(t.get("name")) for t in body.get("tools", []) if isinstance(t, dict)]
