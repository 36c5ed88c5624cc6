"""Ingest and memory services in-process: real watchers, real parsers, real gRPC delivery."""

from __future__ import annotations

import json
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
    """How many events a fresh full read of the transcript at `path` produces."""
    return len(parse_file(SourceTool.CLAUDE_CODE, str(path), path.read_bytes()).events)


async def _events_total(settings: Settings, svc: object) -> int:
    async with memory_client(svc, settings) as c:  # type: ignore[arg-type]
        reply = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        return int(reply.projects[0].events_total)


async def test_appending_to_a_watched_transcript_delivers_exactly_the_new_events(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> None:
    settings = watched_claude_home(make_settings, tmp_path, project)
    async with (
        running("memory", memory_server.setup, settings) as mem,
        running("ingest", ingest_server.setup, settings) as ing,
    ):
        target = place_claude(TURN_1, tmp_path / "claude-projects", str(project), "session.jsonl")

        after_turn_1 = _parsed_events(target)

        async def first() -> bool:
            return await _events_total(settings, mem) >= after_turn_1

        await wait_for(first)  # every event of turn 1 is stored; then grow the file
        assert await _events_total(settings, mem) == after_turn_1
        turn_1_lines = len(TURN_1.read_text().splitlines())
        append_claude(TURN_2, target, str(project), turn_1_lines)

        expected = _parsed_events(target)

        async def second() -> bool:
            return await _events_total(settings, mem) >= expected

        await wait_for(second)
        total = await _events_total(settings, mem)
        token = HomeLayout(settings.home).token.read_text()
        client = IngestClient(open_channel(f"127.0.0.1:{ing.port}"), token)
        status = await client.call(client.stub.GetIngestStatus, ipb.GetIngestStatusRequest())
        await client.close()
    # A fresh full read of turn-2 produces the same number of events: nothing lost, none repeated.
    assert total == expected
    [claude] = [s for s in status.sources if s.source_tool == SOURCE_TOOL_CLAUDE_CODE]
    assert claude.events_delivered == total and claude.duplicates == 0


async def test_restart_resumes_from_committed_cursors_without_duplicates(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> None:
    settings = watched_claude_home(make_settings, tmp_path, project)
    target = place_claude(TURN_2, tmp_path / "claude-projects", str(project), "session.jsonl")
    first = _parsed_events(target)
    async with running("memory", memory_server.setup, settings) as mem:
        async with running("ingest", ingest_server.setup, settings):

            async def all_of_it() -> bool:
                return await _events_total(settings, mem) >= first

            await wait_for(all_of_it)  # the whole file is stored (with its cursor) before the stop
        assert await _events_total(settings, mem) == first
        async with running("ingest", ingest_server.setup, settings) as ing:
            token = HomeLayout(settings.home).token.read_text()
            client = IngestClient(open_channel(f"127.0.0.1:{ing.port}"), token)
            progress = [
                p
                async for p in client.stream(
                    client.stub.ImportBacklog, ipb.ImportBacklogRequest(), timeout=60
                )
            ]
            await client.close()
        assert progress[-1].done
        assert progress[-1].events == 0  # everything was already delivered before the restart
        assert await _events_total(settings, mem) == first


async def test_events_for_an_unregistered_project_are_counted_not_retried_forever(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> None:
    from datetime import UTC, datetime  # noqa: PLC0415

    from squirrel_core.clients import MemoryClient  # noqa: PLC0415
    from squirrel_core.events import Event, EventType, SourceTool  # noqa: PLC0415
    from squirrel_ingest.grpc_sink import GrpcSink  # noqa: PLC0415

    settings = watched_claude_home(make_settings, tmp_path, project)
    event = Event(SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, datetime.now(UTC), {"text": "hi"})
    async with running("memory", memory_server.setup, settings) as mem:
        token = HomeLayout(settings.home).token.read_text()
        sink = GrpcSink(lambda: MemoryClient(open_channel(f"127.0.0.1:{mem.port}"), token), "u")
        result = await sink.deliver(str(tmp_path / "never-registered"), [event], [])
        assert (result.accepted, result.rejected) == (0, 1)
        good = await sink.deliver(str(project), [event], [])
        assert good.accepted == 1
        await sink.close()


async def test_new_commits_of_a_registered_project_arrive_without_diffs(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> None:
    import sqlite3  # noqa: PLC0415

    def git(*args: str) -> None:
        subprocess.run(
            [
                "git",
                "-C",
                str(project),
                "-c",
                "user.name=Ada",
                "-c",
                "user.email=ada@example.com",
                *args,
            ],
            check=True,
            capture_output=True,
        )

    (project / "app.py").write_text("print('hello')\n")
    git("add", "app.py")
    git("commit", "-q", "-m", "Add the app entry point")
    settings = watched_claude_home(make_settings, tmp_path, project)
    settings = settings.with_values(ingest__git_poll_seconds=0.2)
    async with (
        running("memory", memory_server.setup, settings) as mem,
        running("ingest", ingest_server.setup, settings),
    ):

        async def committed() -> bool:
            return await _events_total(settings, mem) >= 1

        await wait_for(committed)
        (project / "db.py").write_text("SECRET_SAUCE = 1\n")
        git("add", "db.py")
        git("commit", "-q", "-m", "Add the database module")

        async def both() -> bool:
            return await _events_total(settings, mem) >= 2

        await wait_for(both)
    with sqlite3.connect(project / ".ctx" / "data.db") as conn:
        rows = conn.execute(
            "SELECT content_json, file_paths FROM events WHERE event_type = 'commit' ORDER BY timestamp"
        ).fetchall()
    assert [json.loads(c)["message"].strip() for c, _ in rows] == [
        "Add the app entry point",
        "Add the database module",
    ]
    assert json.loads(rows[1][1]) == ["db.py"]
    assert all("SECRET_SAUCE" not in c for c, _ in rows)
