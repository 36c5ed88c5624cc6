"""Every model backend through the real memory service: memories written with their backend,
failures parked and retried without loss or duplicates, and the CLIs' own sessions never read."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel.v1 import ingest_service_pb2 as ipb
from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import IngestClient, open_channel
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from squirrel_ingest import server as ingest_server
from squirrel_memory import server as memory_server
from squirrel_memory.bootstrap import init_project_files
from tests.integration.conftest import memory_client, running
from tests.integration.llm_fakes.fake_openai import running_fake_openai
from tests.integration.test_llm_callers import FAKE_ENV, install_fake_clis


def episode(project: Path, session: str = "s1") -> list[Event]:
    start = datetime.now(UTC) - timedelta(days=1)
    texts = ["Please run make check before you commit.", "running make check", "all green"]
    kinds = [EventType.USER_MESSAGE, EventType.ASSISTANT_RESPONSE, EventType.ASSISTANT_RESPONSE]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            start + timedelta(minutes=i),
            {"text": text},
            session_id=session,
            cwd=str(project),
        )
        for i, (kind, text) in enumerate(zip(kinds, texts, strict=True))
    ]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = (tmp_path / "proj").resolve()
    root.mkdir()
    return root


async def run_once(settings: Settings, project: Path) -> tuple[Any, Any, list[Any]]:
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(project), events=[event_to_pb(e) for e in episode(project)]
            ),
        )
        report = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
        status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        listed = await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project)))
        return report, status.projects[0], list(listed.memories)


@pytest.mark.parametrize("backend", ["claude_cli", "codex_cli", "gemini_cli"])
async def test_a_cli_backend_writes_the_memories(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path, backend: str
) -> None:
    bins = install_fake_clis(tmp_path / "bin")
    settings = make_settings(
        extractor_backend=backend,
        extractor_cli_env=",".join(FAKE_ENV),
        **{f"{backend}_command": str(bins[backend.removesuffix("_cli")])},
        processor_min_events="1000000",
    )
    report, status, memories = await run_once(settings, project)
    assert report.memories_added == 1 and report.dead_lettered == 0
    assert status.extractor == backend
    [memory] = memories
    assert memory.key == "recipe:test" and "make check" in memory.content
    assert memory.written_by.split(":")[0] == backend


async def test_the_openai_compatible_backend_writes_the_memories(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    with running_fake_openai() as server:
        settings = make_settings(
            extractor_backend="openai_compatible",
            openai_compatible_base_url=server.url,
            openai_compatible_model="llama3.2",
            processor_min_events="1000000",
        )
        report, status, memories = await run_once(settings, project)
    assert report.memories_added == 1
    assert status.extractor == "openai_compatible"
    assert memories[0].key == "recipe:test"
    assert memories[0].written_by == "openai_compatible:llama3.2"
    assert server.requests[0]["model"] == "llama3.2"


async def test_a_failing_cli_parks_the_episode_and_a_later_pass_recovers_it_once(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> None:
    bins = install_fake_clis(tmp_path / "bin")
    mode = tmp_path / "mode"
    mode.write_text("malformed")
    os.environ["FAKE_LLM_MODE_FILE"] = str(mode)
    try:
        settings = make_settings(
            extractor_backend="claude_cli",
            extractor_cli_env=",".join(FAKE_ENV),
            claude_cli_command=str(bins["claude"]),
            processor_min_events="1000000",
        )
        async with (
            running("memory", memory_server.setup, settings) as svc,
            memory_client(svc, settings) as c,
        ):
            await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
            await c.call(
                c.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(project), events=[event_to_pb(e) for e in episode(project)]
                ),
            )
            first = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
            assert first.dead_lettered == 1 and first.memories_added == 0
            status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
            assert status.projects[0].dead_letters == 1
            assert status.projects[0].events_unprocessed == 0  # parked, not lost, not re-read
            mode.write_text("ok")  # the CLI works again
            second = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
            third = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
            status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
            listed = await c.call(
                c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project))
            )
    finally:
        os.environ.pop("FAKE_LLM_MODE_FILE", None)
    assert second.memories_added == 1 and third.memories_added == 0
    assert status.projects[0].dead_letters == 0
    assert [m.key for m in listed.memories] == ["recipe:test"]


async def test_sessions_the_cli_writes_itself_are_never_ingested(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    """The fake CLI writes its own transcript (as the real ones do) under a watched root, saying
    "Always use tabs"; even with the home inside a registered folder, no event comes from it."""
    outer = (tmp_path / "outer").resolve()
    outer.mkdir()
    (outer / ".git").mkdir()
    claude_root = tmp_path / "claude-projects"
    claude_root.mkdir()
    bins = install_fake_clis(tmp_path / "bin")
    os.environ["FAKE_LLM_TRANSCRIPTS"] = str(claude_root)
    try:
        settings = make_settings(
            home=str(outer / "sqrl-home"),
            extractor_backend="claude_cli",
            extractor_cli_env=",".join(FAKE_ENV),
            claude_cli_command=str(bins["claude"]),
            ingest_claude_roots=str(claude_root),
            ingest_codex_roots=str(tmp_path / "none-codex"),
            ingest_gemini_roots=str(tmp_path / "none-gemini"),
            ingest_cursor_roots=str(tmp_path / "none-cursor"),
            ingest_batch_age_seconds="0.05",
            ingest_rescan_seconds="3600",
            processor_min_events="1000000",
        )
        layout = HomeLayout(settings.home).ensure()
        init_project_files(outer)
        add_project(layout.projects, outer)
        async with (
            running("memory", memory_server.setup, settings) as svc,
            running("ingest", ingest_server.setup, settings) as ing,
            memory_client(svc, settings) as c,
        ):
            token = HomeLayout(settings.home).token.read_text()
            ingest = IngestClient(open_channel(f"127.0.0.1:{ing.port}"), token)
            await c.call(
                c.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(outer), events=[event_to_pb(e) for e in episode(outer)]
                ),
            )
            await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
            written = list(claude_root.rglob("internal-*.jsonl"))
            assert written, "the fake CLI should have written its own session"
            record = json.loads(written[0].read_text().splitlines()[0])
            assert record["cwd"].startswith(str(settings.home))
            await ingest.call(ingest.stub.Rescan, ipb.RescanRequest(), timeout=60)
            read = await ingest.call(ingest.stub.GetIngestStatus, ipb.GetIngestStatusRequest())
            await ingest.close()
            await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
            status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
            listed = await c.call(
                c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(outer))
            )
    finally:
        os.environ.pop("FAKE_LLM_TRANSCRIPTS", None)
    assert sum(src.lines_read for src in read.sources) >= 1  # the file was read …
    assert sum(src.events_delivered for src in read.sources) == 0  # … and nothing delivered
    assert not read.unregistered_projects  # not even counted as someone else's activity
    assert status.projects[0].events_total == 3  # only the episode sent above
    assert all("tabs" not in m.content for m in listed.memories)


def _refs(body: dict[str, Any]) -> dict[str, str]:
    """key → ref (m1, m2 …) from the consolidation request's memory lines."""
    text = body["messages"][1]["content"]
    found = {}
    for line in text.splitlines():
        ref, _, rest = line.partition(" ")
        if ref.startswith("m") and "] " in rest:
            key = rest.split("] ", 1)[1].split(": ", 1)[0]
            found[key] = ref
    return found


async def test_consolidation_merges_and_retires_but_never_touches_manual_memories(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    with running_fake_openai() as server:
        server.answer = {
            "memories": [
                {
                    "type": "recipe",
                    "key": "recipe:test",
                    "content": "Run make check.",
                    "importance": 0.7,
                    "source_event_ids": ["e1"],
                },
                {
                    "type": "recipe",
                    "key": "recipe:check",
                    "content": "Before committing run make check",
                    "importance": 0.6,
                    "source_event_ids": ["e1"],
                },
                {
                    "type": "project_fact",
                    "key": "database",
                    "content": "The project uses MySQL.",
                    "importance": 0.6,
                    "source_event_ids": ["e1"],
                },
                {
                    "type": "project_fact",
                    "key": "database:now",
                    "content": "The project moved from MySQL to PostgreSQL.",
                    "importance": 0.7,
                    "source_event_ids": ["e3"],
                },
            ]
        }
        seen: list[dict[str, str]] = []

        def consolidate(body: dict[str, Any]) -> dict[str, Any]:
            refs = _refs(body)
            seen.append(refs)
            return {
                "merge": [
                    {
                        "keep": refs["recipe:test"],
                        "drop": [refs["recipe:check"]],
                        "content": "Run `make check` before every commit.",
                    }
                ],
                "retire": [
                    {"ref": refs["database"], "contradicted_by": refs["database:now"]},
                    {"ref": refs.get("deploy", "m99"), "contradicted_by": refs["database:now"]},
                ],
            }

        server.other_tools = consolidate
        settings = make_settings(
            extractor_backend="openai_compatible",
            openai_compatible_base_url=server.url,
            openai_compatible_model="llama3.2",
            extractor_consolidate_hours="0",
            processor_min_events="1000000",
        )
        async with (
            running("memory", memory_server.setup, settings) as svc,
            memory_client(svc, settings) as c,
        ):
            await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
            await c.call(
                c.stub.Remember,
                pb.RememberRequest(
                    project_id=str(project),
                    type=memory_pb2.MEMORY_TYPE_RECIPE,
                    key="deploy",
                    content="Deploy with make deploy.",
                    importance=0.9,
                ),
            )
            await c.call(
                c.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(project), events=[event_to_pb(e) for e in episode(project)]
                ),
            )
            await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
            tidy = await c.call(
                c.stub.ProcessNow,
                pb.ProcessNowRequest(project_id=str(project), consolidate=True),
                timeout=120,
            )
            listed = await c.call(
                c.stub.ListMemories,
                pb.ListMemoriesRequest(project_id=str(project), include_deleted=True),
            )
            by_key = {m.key: m for m in listed.memories}
            history = await c.call(
                c.stub.GetMemoryHistory,
                pb.GetMemoryHistoryRequest(
                    project_id=str(project), memory_id=by_key["recipe:test"].memory_id
                ),
            )
    assert seen and "deploy" not in seen[0]  # manual memories are never shown to the model
    assert tidy.memories_updated == 1 and tidy.memories_deleted == 2
    kept = by_key["recipe:test"]
    assert kept.content == "Run `make check` before every commit." and not kept.deleted
    assert kept.written_by == "openai_compatible:llama3.2" and kept.version == 2
    assert by_key["recipe:check"].deleted and by_key["database"].deleted
    assert not by_key["database:now"].deleted
    assert not by_key["deploy"].deleted and by_key["deploy"].content == "Deploy with make deploy."
    assert any("consolidated" in v.reason for v in history.versions)
