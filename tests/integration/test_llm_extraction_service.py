"""With an API key configured, the memory service extracts with Claude (real SDK, local fake API)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import Settings, load_settings
from squirrel_core.wire import event_to_pb
from squirrel_memory import server as memory_server
from squirrel_memory.extractors.prompts import EXTRACTION_TOOL_NAME
from tests.integration.conftest import memory_client, running
from tests.integration.fake_anthropic import FakeAnthropicServer, error_reply, tool_use_reply


@pytest.fixture
def fake() -> Iterator[FakeAnthropicServer]:
    server = FakeAnthropicServer()
    server.start()
    yield server
    server.stop()


def _events(project: Path) -> list[Event]:
    start = datetime.now(UTC) - timedelta(days=1)
    texts = [
        "From now on always use async handlers for I/O in this service.",
        "ok, converting the endpoints",
        "done: routes are async now",
    ]
    kinds = [EventType.USER_MESSAGE, EventType.ASSISTANT_RESPONSE, EventType.ASSISTANT_RESPONSE]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            start + timedelta(minutes=i),
            {"text": text},
            session_id="s1",
            cwd=str(project),
        )
        for i, (kind, text) in enumerate(zip(kinds, texts, strict=True))
    ]


async def test_memories_come_from_claude_when_the_user_chose_anthropic(
    make_settings: Callable[..., Settings], tmp_path: Path, fake: FakeAnthropicServer
) -> None:
    project = (tmp_path / "proj").resolve()
    project.mkdir()
    settings = make_settings(
        anthropic_api_key="sk-ant-test-key",
        anthropic_base_url=fake.base_url,
        extractor_backend="anthropic",
        processor_min_events="1000000",
    )
    memory = {
        "type": "user_style",
        "key": "pref:async",
        "content": "Prefers async handlers for I/O.",
        "tags": ["python", "async"],
        "importance": 0.9,
        "scope": "user",
        "source_event_ids": ["e1"],
    }
    fake.queue(tool_use_reply(EXTRACTION_TOOL_NAME, {"memories": [memory]}))
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(project), events=[event_to_pb(e) for e in _events(project)]
            ),
        )
        report = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=60)
        listed = await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project)))
        assert report.memories_added == len(listed.memories) >= 2
        [item] = [m for m in listed.memories if m.source == memory_pb2.MEMORY_SOURCE_LLM]
        assert item.key == "pref:async" and item.written_by.startswith("anthropic")
        assert len(item.source_event_ids) == 1
        # The rules read the same episode: their memories are written beside the model's.
        assert any(m.written_by == "rules" for m in listed.memories)
        status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        assert status.projects[0].extractor == "anthropic"
    [request] = fake.requests
    assert request["body"]["tool_choice"] == {"type": "tool", "name": EXTRACTION_TOOL_NAME}
    assert "sk-ant-test-key" in str(fake.headers[0])


async def test_a_failing_api_parks_the_episode_as_a_dead_letter(
    make_settings: Callable[..., Settings], tmp_path: Path, fake: FakeAnthropicServer
) -> None:
    project = (tmp_path / "proj").resolve()
    project.mkdir()
    settings = make_settings(
        anthropic_api_key="sk-ant-test-key",
        anthropic_base_url=fake.base_url,
        extractor_backend="anthropic",
        processor_min_events="1000000",
    )
    fake.queue(error_reply(401, "authentication_error"))
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(project), events=[event_to_pb(e) for e in _events(project)]
            ),
        )
        report = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=60)
        assert report.dead_lettered == 1 and report.memories_added >= 1  # the rules' part
        status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        assert status.projects[0].dead_letters == 1
        assert status.projects[0].events_unprocessed == 0


async def test_a_key_in_the_environment_never_chooses_the_model(
    tmp_path: Path,
    fake: FakeAnthropicServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`sqrl up` started with ANTHROPIC_API_KEY set and no backend chosen: the rules write,
    nothing is sent, and the status says so."""
    project = (tmp_path / "proj").resolve()
    project.mkdir()
    key = "sk-ant-api03-from-the-environment"
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    settings = load_settings(
        {
            "SQRL_HOME": str(tmp_path / "home"),
            "SQRL_PROCESSOR_INTERVAL_SECONDS": "3600",
            "SQRL_PROCESSOR_MIN_EVENTS": "1000000",
            "SQRL_ANTHROPIC_BASE_URL": fake.base_url,
            "ANTHROPIC_API_KEY": key,
        }
    )
    assert settings.anthropic_api_key == key  # the key is seen …
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(project), events=[event_to_pb(e) for e in _events(project)]
            ),
        )
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=60)
        status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        listed = await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project)))
    assert fake.requests == []  # … and never used: nothing went to the vendor
    assert status.projects[0].extractor == "rules"
    assert status.extractor_activity.backend == "rules"
    assert not status.extractor_activity.sends_to_vendor
    assert listed.memories and all(m.written_by == "rules" for m in listed.memories)
