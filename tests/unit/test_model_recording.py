"""Recorded model answers (bench/model_recording.py): request keys, the recording folder, the
recording wrapper and the replay server, with the real `openai_compatible` caller over HTTP."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from bench.model_recording import (
    REPLAY_MODEL,
    Answer,
    Recording,
    RecordingCaller,
    RecordingError,
    ReplayServer,
    first_line,
    request_key,
    stable,
)
from squirrel_memory.extractors.base import PermanentExtractionError
from squirrel_memory.extractors.prompts import EXTRACTION_TOOL
from squirrel_memory.llm.framing import quoted_data
from squirrel_memory.llm.openai_caller import OpenAICompatibleCaller
from squirrel_memory.llm.spending import LlmBudget

SCHEMA = EXTRACTION_TOOL["input_schema"]
ANSWER = {"memories": [{"type": "recipe", "key": "recipe:test", "content": "Run `make check`."}]}


def test_what_changes_on_every_run_is_made_stable() -> None:
    first, second = quoted_data("session s", "text"), quoted_data("session s", "text")
    assert first != second  # a fresh random tag each time
    assert stable(first) == stable(second)
    temp = f"{tempfile.gettempdir()}/tmpab_12xyz/projects/p"
    assert stable(f"updated=2026-01-02 at {temp}") == "updated=DATE at /TMP/projects/p"
    assert stable("Episode ep_0123456789abcdef01234567: x") == "Episode ep_ID: x"


def test_ordinary_text_is_left_alone() -> None:
    text = (
        "quoted_data is a name; ep_123 is short; updated=yesterday; "
        "/home/tmpabc/file; release 2026-01-02; keep_0123456789abcdef01234567"
    )
    assert stable(text) == text


def test_a_key_names_the_request_content() -> None:
    message = quoted_data("session s", "[e1] user (typed): use pnpm")
    key = request_key("system", message, "record_memories", SCHEMA)
    assert key == request_key("system", quoted_data("session s", "[e1] user (typed): use pnpm"),
                              "record_memories", SCHEMA)  # fmt: skip
    assert len(key) == 24
    others = {
        request_key("system!", message, "record_memories", SCHEMA),
        request_key("system", message.replace("pnpm", "npm"), "record_memories", SCHEMA),
        request_key("system", message, "decide_memory_update", SCHEMA),
        request_key("system", message, "record_memories", {"type": "object"}),
    }
    assert key not in others and len(others) == 4


def test_a_request_is_named_by_its_first_line_only() -> None:
    message = "Episode ep_0123456789abcdef01234567: 3 events.\n<quoted-data-ab> secret words"
    assert first_line(message) == "Episode ep_ID: 3 events."


def test_the_recording_folder_round_trips_and_refuses_what_is_not_an_answer(
    tmp_path: Path,
) -> None:
    recording = Recording(tmp_path / "rec")
    assert recording.load("a" * 24) is None
    recording.save(Answer("a" * 24, "record_memories", "Episode x", ANSWER, "hand-written"))
    loaded = recording.load("a" * 24)
    assert loaded is not None and loaded.answer == ANSWER and loaded.written_by == "hand-written"
    recording.path("b" * 24).write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordingError, match="b" * 24):
        recording.load("b" * 24)
    body = json.loads(recording.path("a" * 24).read_text(encoding="utf-8"))
    recording.path("c" * 24).write_text(json.dumps(body), encoding="utf-8")  # key of another
    with pytest.raises(RecordingError, match="does not match"):
        recording.load("c" * 24)


class Scripted:
    """A scripted backend (not a model): answers ANSWER, or fails when `fail` is set."""

    backend = "claude_cli"
    model = "scripted"

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.closed = False

    async def call_tool(
        self, *, system: str, message: str, tool: dict[str, Any], max_tokens: int
    ) -> dict[str, Any]:
        if self.fail:
            raise PermanentExtractionError("claude is not logged in")
        return dict(ANSWER)

    async def close(self) -> None:
        self.closed = True


def _openai(server: ReplayServer) -> OpenAICompatibleCaller:
    return OpenAICompatibleCaller(
        base_url=server.base_url,
        model=REPLAY_MODEL,
        api_key="",
        budget=LlmBudget(calls_per_hour=100, tokens_per_day=10**7),
        timeout_seconds=30,
    )


async def test_a_recorded_answer_is_replayed_through_the_openai_compatible_caller(
    tmp_path: Path,
) -> None:
    recording = Recording(tmp_path)
    inner = Scripted()
    recorder = RecordingCaller(inner, recording)
    message = quoted_data("session s", "[e1] ran `make check` → ok")
    answer = await recorder.call_tool(
        system="sys", message=message, tool=EXTRACTION_TOOL, max_tokens=100
    )
    await recorder.close()
    assert answer == ANSWER and recorder.saved == recorder.answered == 1 and inner.closed
    (saved,) = tmp_path.glob("*.json")
    assert json.loads(saved.read_text(encoding="utf-8"))["written_by"] == "claude_cli:scripted"

    with ReplayServer(recording) as server:
        caller = _openai(server)
        try:
            # The same request with a fresh quoted-data tag: the same recorded answer.
            again = quoted_data("session s", "[e1] ran `make check` → ok")
            replayed = await caller.call_tool(
                system="sys", message=again, tool=EXTRACTION_TOOL, max_tokens=100
            )
        finally:
            await caller.close()
    assert replayed == ANSWER
    assert server.answered == [saved.stem] and not server.missing
    server.check()


async def test_a_failed_call_records_nothing(tmp_path: Path) -> None:
    recorder = RecordingCaller(Scripted(fail=True), Recording(tmp_path))
    with pytest.raises(PermanentExtractionError):
        await recorder.call_tool(system="s", message="m", tool=EXTRACTION_TOOL, max_tokens=10)
    assert recorder.saved == recorder.answered == 0 and not list(tmp_path.iterdir())
    assert recorder.failures == ["PermanentExtractionError: claude is not logged in"]


async def test_without_a_recording_answers_are_only_counted(tmp_path: Path) -> None:
    recorder = RecordingCaller(Scripted(), None)
    answer = await recorder.call_tool(system="s", message="m", tool=EXTRACTION_TOOL, max_tokens=1)
    assert answer == ANSWER and recorder.answered == 1 and recorder.saved == 0


async def test_replay_fails_closed_on_a_request_it_does_not_hold(tmp_path: Path) -> None:
    with ReplayServer(Recording(tmp_path)) as server:
        caller = _openai(server)
        try:
            with pytest.raises(PermanentExtractionError, match="404"):
                await caller.call_tool(
                    system="sys",
                    message="Episode ep_0123456789abcdef01234567: 2 events.\nwords",
                    tool=EXTRACTION_TOOL,
                    max_tokens=100,
                )
        finally:
            await caller.close()
    ((key, tool, asked),) = server.missing
    assert tool == "record_memories" and asked == "Episode ep_ID: 2 events."
    with pytest.raises(RecordingError) as caught:
        server.check()
    assert str(caught.value).endswith(f"\n  - {key} (record_memories: Episode ep_ID: 2 events.)")
    assert str(caught.value).startswith("1 model request(s) not in the recording")
    assert not server.answered


def test_replay_refuses_a_request_without_a_tool() -> None:
    with ReplayServer(Recording(Path("/nonexistent"))) as server:
        status, body = server.reply({"messages": [{"role": "user", "content": "hi"}]})
    assert status == 400 and "tools-mode" in body["error"]
    assert not server.missing and not server.answered
