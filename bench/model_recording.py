"""Recorded model answers: save what a model backend answered, replay it without the model.

A request is keyed by a hash of its content (system prompt, user turn, tool name and schema),
after the parts that change on every run are made stable: the random tag of each quoted-data
block, the date an existing memory was last updated, the temporary folder a benchmark run
lives in, and episode ids (made from the ids events get when they are stored). The same
request therefore has the same key in every run, whichever backend answered it.

- Recording: `recording_callers(recording)` wraps the model backend the memory service builds, so
  every answer it gives (the tool's input, already schema-checked) is saved as
  `<dir>/<key>.json` before it is used. A failed call saves nothing.
- Replaying: `ReplayServer(recording)` is an OpenAI-compatible chat-completions server on
  127.0.0.1 that answers each request with the recorded tool call, so the real
  `openai_compatible` backend code runs (HTTP, parsing, schema checks) with no model. It fails
  closed: a request the recording does not hold gets an HTTP 404 naming its key, and is listed
  in `missing` for the caller to report as an error; nothing is answered empty.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from unittest import mock

from squirrel_core.settings import Settings
from squirrel_memory import engine
from squirrel_memory.extractors.base import ExtractionError
from squirrel_memory.llm.base import ToolCaller
from squirrel_memory.llm.factory import build_caller
from squirrel_memory.llm.spending import LlmBudget

REPLAY_MODEL = "replay"
"""The model name the replay server answers for (what `written_by` records: `…:replay`)."""

_STABLE = (
    (re.compile(r"quoted-data-[0-9a-f]+"), "quoted-data-TAG"),
    (re.compile(r"\bep_[0-9a-f]{24}\b"), "ep_ID"),
    (re.compile(r"updated=\d{4}-\d{2}-\d{2}"), "updated=DATE"),
    (re.compile(re.escape(tempfile.gettempdir()) + r"/tmp\w+"), "/TMP"),
)


class RecordingError(Exception):
    """A recording that cannot be used: unreadable, or missing answers (named)."""


def stable(text: str) -> str:
    """`text` with what changes on every run (random tags, dates, temporary folders) fixed."""
    for pattern, replacement in _STABLE:
        text = pattern.sub(replacement, text)
    return text


def request_key(system: str, message: str, tool_name: str, schema: dict[str, Any]) -> str:
    """The hash that names one model request in a recording (24 hex digits)."""
    content = json.dumps(
        {
            "system": stable(system),
            "message": stable(message),
            "tool": tool_name,
            "schema": schema,
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(content.encode()).hexdigest()[:24]


def first_line(message: str) -> str:
    """A request's first line, to name it to a human (never the quoted session text)."""
    return stable(message.split("\n", 1)[0])[:160]


@dataclass(frozen=True)
class Answer:
    """One recorded answer: what was asked (tool, first line) and the tool's input."""

    key: str
    tool: str
    asked: str
    answer: dict[str, Any]
    written_by: str


class Recording:
    """A folder of recorded answers, one `<key>.json` file each (other files are ignored)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def save(self, answer: Answer) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        body = {
            "key": answer.key,
            "tool": answer.tool,
            "asked": answer.asked,
            "written_by": answer.written_by,
            "answer": answer.answer,
        }
        temp = self.path(answer.key).with_suffix(".tmp")
        temp.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        temp.replace(self.path(answer.key))

    def load(self, key: str) -> Answer | None:
        """The answer recorded for `key`, None when there is none; raises `RecordingError`
        for a file that is not a recorded answer."""
        path = self.path(key)
        if not path.is_file():
            return None
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
            answer = body["answer"]
            if not isinstance(answer, dict) or body["key"] != key:
                raise ValueError("answer is not an object or key does not match the file name")
            return Answer(key, str(body["tool"]), str(body["asked"]), answer, body["written_by"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise RecordingError(f"{path} is not a recorded answer: {exc}") from None


class RecordingCaller:
    """A model backend whose answers are counted and, with a `Recording`, saved; its failures
    are counted with their reason (the backend's own message, never session text)."""

    def __init__(self, inner: ToolCaller, recording: Recording | None) -> None:
        self._inner = inner
        self._recording = recording
        self.answered = 0
        self.saved = 0
        self.failures: list[str] = []

    @property
    def backend(self) -> str:
        return self._inner.backend

    @property
    def model(self) -> str:
        return self._inner.model

    async def call_tool(
        self, *, system: str, message: str, tool: dict[str, Any], max_tokens: int
    ) -> dict[str, Any]:
        try:
            answer = await self._inner.call_tool(
                system=system, message=message, tool=tool, max_tokens=max_tokens
            )
        except ExtractionError as exc:
            self.failures.append(f"{type(exc).__name__}: {exc}")
            raise
        self.answered += 1
        if self._recording is not None:
            key = request_key(system, message, tool["name"], tool["input_schema"])
            writer = f"{self.backend}:{self.model}" if self.model else self.backend
            self._recording.save(Answer(key, tool["name"], first_line(message), answer, writer))
            self.saved += 1
        return answer

    async def close(self) -> None:
        await self._inner.close()


@contextlib.contextmanager
def recording_callers(recording: Recording | None) -> Iterator[list[RecordingCaller]]:
    """While open, the memory service's model backend (built in this process) counts its
    answers and failures and, with a `recording`, saves every answer it gives there; yields
    the wrapping callers made (one per service)."""
    made: list[RecordingCaller] = []

    def build(settings: Settings, budget: LlmBudget | None = None) -> ToolCaller | None:
        inner = build_caller(settings, budget)
        if inner is None:
            return None
        caller = RecordingCaller(inner, recording)
        made.append(caller)
        return caller

    with mock.patch.object(engine, "build_caller", build):
        yield made


class ReplayServer:
    """An OpenAI-compatible `/v1/chat/completions` server on 127.0.0.1 answering from a
    recording (tools mode: the answer is a call of the requested tool). Use as a context
    manager; `base_url` is what `openai_compatible.base_url` takes."""

    def __init__(self, recording: Recording) -> None:
        self.recording = recording
        self.answered: list[str] = []
        self.missing: list[tuple[str, str, str]] = []
        """(key, tool, first line) of every request the recording did not hold."""
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def check(self) -> None:
        """Raises `RecordingError` naming every request that had no recorded answer."""
        if self.missing:
            named = "".join(f"\n  - {key} ({tool}: {asked})" for key, tool, asked in self.missing)
            raise RecordingError(
                f"{len(self.missing)} model request(s) not in the recording "
                f"{self.recording.folder}:{named}"
            )

    def reply(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """The HTTP status and JSON body answering one chat-completions request."""
        try:
            system, message = (m["content"] for m in body["messages"][:2])
            function = body["tools"][0]["function"]
            name, schema = function["name"], function["parameters"]
        except (KeyError, IndexError, TypeError, ValueError):
            return 400, {"error": "replay answers tools-mode requests only (system, user, tool)"}
        key = request_key(system, message, name, schema)
        try:
            recorded = self.recording.load(key)
        except RecordingError as exc:
            recorded = None
            reason = str(exc)
        else:
            reason = f"request {key} is not in the recording"
        with self._lock:
            if recorded is None or recorded.tool != name:
                self.missing.append((key, name, first_line(message)))
                return 404, {"error": reason}
            self.answered.append(key)
        call = {"name": name, "arguments": json.dumps(recorded.answer)}
        return 200, {
            "id": f"replay-{key}",
            "object": "chat.completion",
            "model": REPLAY_MODEL,
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [{"id": key, "type": "function", "function": call}],
                    },
                    "finish_reason": "tool_calls",
                }
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 1},
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return None

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                if self.path.rstrip("/") != "/v1/chat/completions":
                    status, reply = 404, {"error": f"no such path {self.path}"}
                else:
                    status, reply = server.reply(body if isinstance(body, dict) else {})
                payload = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(payload)

        return Handler


def replay_env(server: ReplayServer) -> dict[str, str]:
    """The SQRL_* settings that point the `openai_compatible` backend at the replay server."""
    return {
        "SQRL_EXTRACTOR_BACKEND": "openai_compatible",
        "SQRL_OPENAI_COMPATIBLE_BASE_URL": server.base_url,
        "SQRL_OPENAI_COMPATIBLE_MODEL": REPLAY_MODEL,
        "SQRL_OPENAI_COMPATIBLE_MODE": "tools",
        "SQRL_OPENAI_COMPATIBLE_API_KEY": "",
    }
