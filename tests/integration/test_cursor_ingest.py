"""Cursor's chats through the real ingest and memory services: stored once, across restarts."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from squirrel.v1 import ingest_service_pb2 as ipb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel.v1.events_pb2 import SOURCE_TOOL_CURSOR
from squirrel_core.clients import IngestClient, open_channel
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.settings import Settings
from squirrel_ingest import server as ingest_server
from squirrel_memory import server as memory_server
from squirrel_memory.bootstrap import init_project_files
from tests.cursor_stores import CursorFolder, assistant_bubble, tool, user_bubble
from tests.integration.conftest import memory_client, running, wait_for

FAKE_KEY = "ghp" + "_" + "Z" * 8 + "q1W2e3R4t5Y6u7I8o9P0aSdFgHjK"  # made up, not a credential


@pytest.fixture
def project(repo: Path) -> Path:
    return repo


def _setup(make_settings: Callable[..., Settings], tmp_path: Path, project: Path) -> Settings:
    settings = make_settings(
        ingest_claude_roots=str(tmp_path / "none-claude"),
        ingest_codex_roots=str(tmp_path / "none-codex"),
        ingest_gemini_roots=str(tmp_path / "none-gemini"),
        ingest_cursor_roots=str(tmp_path / "Cursor" / "User"),
        ingest_cursor_poll_seconds="0.1",
        ingest_batch_age_seconds="0.05",
        ingest_rescan_seconds="3600",
        processor_min_events="1000000",
    )
    layout = HomeLayout(settings.home).ensure()
    init_project_files(project)
    add_project(layout.projects, project)
    return settings


async def _stored(settings: Settings, svc: object) -> int:
    async with memory_client(svc, settings) as c:  # type: ignore[arg-type]
        reply = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        return int(reply.projects[0].events_total)


async def _cursor_status(settings: Settings, port: int) -> ipb.SourceStatus:
    token = HomeLayout(settings.home).token.read_text()
    client = IngestClient(open_channel(f"127.0.0.1:{port}"), token)
    try:
        progress = [
            p
            async for p in client.stream(
                client.stub.ImportBacklog,
                ipb.ImportBacklogRequest(source_tools=[SOURCE_TOOL_CURSOR]),
                timeout=60,
            )
        ]
        status = await client.call(client.stub.GetIngestStatus, ipb.GetIngestStatusRequest())
    finally:
        await client.close()
    assert progress[-1].done
    [cursor] = [s for s in status.sources if s.source_tool == SOURCE_TOOL_CURSOR]
    return cursor


async def test_cursor_chats_are_stored_once_across_restarts_and_growth(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> None:
    settings = _setup(make_settings, tmp_path, project)
    cursor = CursorFolder(tmp_path / "Cursor" / "User")
    cursor.workspace("ws", project.as_uri(), ["chat-1"])
    cursor.chat(
        "chat-1",
        [
            user_bubble("b1", f"deploy with token {FAKE_KEY} please"),
            assistant_bubble(
                "b2",
                "Running the tests first.",
                1,
                tool=tool("run_terminal_cmd", {"command": "mix test"}, {"output": "ok"}),
            ),
        ],
    )
    async with running("memory", memory_server.setup, settings) as mem:
        async with running("ingest", ingest_server.setup, settings) as ing:

            async def first() -> bool:
                return await _stored(settings, mem) == 5

            await wait_for(first)
            cursor.append("chat-1", [user_bubble("b3", "now push it", 2)])

            async def grown() -> bool:
                return await _stored(settings, mem) == 6

            await wait_for(grown)
            status = await _cursor_status(settings, ing.port)
            assert (status.events_delivered, status.duplicates) == (6, 0)

        async with running("ingest", ingest_server.setup, settings) as ing:
            status = await _cursor_status(settings, ing.port)  # a full look at every chat
            assert status.lines_read == 0  # nothing read again after the restart
            assert status.events_delivered == 6  # and status still says what was delivered
            assert status.files_seen == 1  # one chat
        assert await _stored(settings, mem) == 6

    with sqlite3.connect(project / ".ctx" / "data.db") as db:
        rows = db.execute(
            "SELECT event_type, origin, content_json FROM events WHERE source_tool = 'cursor' "
            "ORDER BY timestamp"
        ).fetchall()
    db.close()
    assert [(kind, origin) for kind, origin, _ in rows][:2] == [
        ("user_message", "typed"),
        ("assistant_response", "assistant"),
    ]
    stored = "".join(content for _, _, content in rows)
    assert FAKE_KEY not in stored and "[REDACTED" in stored
    assert json.loads(rows[-1][2])["text"] == "now push it"
