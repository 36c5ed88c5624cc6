"""A transcript renamed or moved while the services run (a watchdog `moved` event), through the
real watchdog observer, ingest and memory services and gRPC: its events are stored once, none
lost, and what is appended to it under its new name arrives."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from squirrel.v1 import ingest_service_pb2 as ipb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel.v1.events_pb2 import SOURCE_TOOL_CLAUDE_CODE
from squirrel_core.clients import IngestClient, open_channel
from squirrel_core.events import SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_ingest import server as ingest_server
from squirrel_ingest.parsers import parse_file
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running, wait_for, watched_claude_home
from tests.transcripts import FIXTURES, append_claude, place_claude

TURN_1 = FIXTURES / "claude" / "incremental-simple" / "turn-1.jsonl"
TURN_2 = FIXTURES / "claude" / "incremental-simple" / "turn-2.jsonl"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root.resolve()


def _parsed_events(path: Path) -> int:
    return len(parse_file(SourceTool.CLAUDE_CODE, str(path), path.read_bytes()).events)


async def _events_total(settings: Settings, svc: object) -> int:
    async with memory_client(svc, settings) as c:  # type: ignore[arg-type]
        reply = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        return int(reply.projects[0].events_total)


async def _claude_status(settings: Settings, port: int) -> ipb.SourceStatus:
    token = HomeLayout(settings.home).token.read_text()
    client = IngestClient(open_channel(f"127.0.0.1:{port}"), token)
    status = await client.call(client.stub.GetIngestStatus, ipb.GetIngestStatusRequest())
    await client.close()
    [claude] = [s for s in status.sources if s.source_tool == SOURCE_TOOL_CLAUDE_CODE]
    return claude


@pytest.mark.parametrize("where", ["same folder", "other folder", "folder renamed"])
async def test_a_renamed_transcript_is_stored_once_and_read_on_under_its_new_name(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path, where: str
) -> None:
    settings = watched_claude_home(make_settings, tmp_path, project)
    async with (
        running("memory", memory_server.setup, settings) as mem,
        running("ingest", ingest_server.setup, settings) as ing,
    ):
        target = place_claude(TURN_1, tmp_path / "claude-projects", str(project), "session.jsonl")
        after_turn_1 = _parsed_events(target)
        kept = target.parent.with_name("kept")
        if where == "other folder":  # watched before the file moves in (see docs/architecture.md)
            kept.mkdir()

        async def first() -> bool:
            return await _events_total(settings, mem) >= after_turn_1

        await wait_for(first)
        delivered_before = (await _claude_status(settings, ing.port)).events_delivered
        if where == "folder renamed":  # the folder holding it renamed, the file with it
            renamed = target.parent.rename(kept) / target.name
        else:
            folder = target.parent if where == "same folder" else kept
            renamed = target.rename(folder / "session-renamed.jsonl")
        turn_1_lines = len(TURN_1.read_text().splitlines())
        append_claude(TURN_2, renamed, str(project), turn_1_lines)
        expected = _parsed_events(renamed)
        assert expected > after_turn_1

        async def second() -> bool:
            return await _events_total(settings, mem) >= expected

        await wait_for(second)
        total = await _events_total(settings, mem)
        claude = await _claude_status(settings, ing.port)
    assert total == expected  # nothing lost, nothing stored twice
    # nothing read twice either: only turn 2's events were sent after the rename
    assert claude.events_delivered - delivered_before == expected - after_turn_1
    assert claude.duplicates == 0
