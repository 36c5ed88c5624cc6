"""Transcripts re-read after a cursor reset add nothing, however much more context they carry."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from squirrel.v1 import ingest_service_pb2 as ipb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import IngestClient, open_channel
from squirrel_core.commands import is_test_command
from squirrel_core.events import EventType
from squirrel_core.home import HomeLayout
from squirrel_core.rpc import GrpcService
from squirrel_core.settings import Settings
from squirrel_ingest import server as ingest_server
from squirrel_ingest.parsers import base as parsers_base
from squirrel_memory import server as memory_server
from squirrel_memory.dedup import HashedFields, event_hash
from squirrel_memory.storage.formats import from_db_time, json_strings
from tests.integration.conftest import memory_client, running, wait_for, watched_claude_home
from tests.transcripts import FIXTURES, place_claude

SESSIONS = sorted((FIXTURES / "claude" / "constructed" / "elixir").glob("*.jsonl"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "ledger"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root.resolve()


def _setup(make_settings: Callable[..., Settings], tmp_path: Path, project: Path) -> Settings:
    settings = watched_claude_home(make_settings, tmp_path, project)
    claude = tmp_path / "claude-projects"
    for session in SESSIONS:
        place_claude(session, claude, str(project))
    return settings


def _counts(db: Path) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT event_type, COUNT(*) FROM events GROUP BY event_type")
        return {str(kind): int(n) for kind, n in rows}


def _as_an_older_version_stored_them(db: Path) -> int:
    """Commands stored without the shell folder, hashed as that version hashed them."""
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        rows = conn.execute(
            "SELECT id, project_id, source_tool, session_id, timestamp, event_type, "
            "content_json, file_paths FROM events WHERE json_extract(content_json, '$.cwd') "
            "IS NOT NULL"
        ).fetchall()
        for row in rows:
            content = json.loads(row[6])
            del content["cwd"]
            fields = HashedFields(
                row[2], row[5], row[3], from_db_time(row[4]), json_strings(row[7]), content
            )
            conn.execute(
                "UPDATE events SET content_json = ?, hash = ? WHERE id = ?",
                (json.dumps(content), event_hash(row[1], fields), row[0]),
            )
        conn.execute("DELETE FROM source_cursors WHERE source_tool != 'git'")  # doctor --repair
        conn.execute("COMMIT")
        return len(rows)


def _forget_cursors(db: Path) -> None:
    """The transcripts' read positions forgotten (as `sqrl doctor --repair` may)."""
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("DELETE FROM source_cursors WHERE source_tool != 'git'")


async def _delivered(mem: GrpcService, settings: Settings, db: Path) -> bool:
    """Whether events are stored and the memory service counts every one of them."""
    async with memory_client(mem, settings) as c:
        reply = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
    stored = sum(_counts(db).values())
    return stored > 0 and int(reply.projects[0].events_total) == stored


async def _reimport(settings: Settings) -> int:
    async with running("ingest", ingest_server.setup, settings) as ing:
        token = HomeLayout(settings.home).token.read_text()
        client = IngestClient(open_channel(f"127.0.0.1:{ing.port}"), token)
        try:
            progress = [
                p
                async for p in client.stream(
                    client.stub.ImportBacklog, ipb.ImportBacklogRequest(), timeout=60
                )
            ]
        finally:
            await client.close()
    assert progress[-1].done
    return int(progress[-1].events)


@asynccontextmanager
async def _imported(settings: Settings, db: Path) -> AsyncIterator[GrpcService]:
    """The memory service running, the transcripts imported and every event read delivered.

    The service's own first rescan starts with it and may read the files before the import
    does (the import then counts none as its own); either way, once the import is done
    everything read is delivered."""
    async with running("memory", memory_server.setup, settings) as mem:
        await _reimport(settings)
        await wait_for(lambda: _delivered(mem, settings, db))
        yield mem


async def test_a_reimport_after_a_cursor_reset_adds_no_event_even_with_new_context(
    make_settings: Callable[..., Settings], tmp_path: Path, project: Path
) -> None:
    settings = _setup(make_settings, tmp_path, project)
    db = project / ".ctx" / "data.db"
    async with _imported(settings, db) as mem:
        before = _counts(db)
        assert before.get("command_run", 0) + before.get("test_run", 0) > 10

        # The same transcripts read again from the start, by this version: nothing new.
        _forget_cursors(db)
        await _reimport(settings)
        assert _counts(db) == before

        # Stored by a version that did not record the shell folder, re-read by this one.
        assert _as_an_older_version_stored_them(db) > 10
        await _reimport(settings)
        assert _counts(db) == before
        assert await _delivered(mem, settings, db)


async def test_a_reread_after_commands_are_classified_anew_stores_each_event_once(
    make_settings: Callable[..., Settings],
    tmp_path: Path,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = _setup(make_settings, tmp_path, project)
    db = project / ".ctx" / "data.db"
    async with _imported(settings, db):
        before = _counts(db)
        assert before.get("command_run", 0) > 0 and before.get("test_run", 0) > 0

        # A newer classifier reads every command the other way round (a test run is a plain
        # command, and the reverse); the transcripts are read again from the start.
        def flipped(command: str) -> EventType:
            return EventType.COMMAND_RUN if is_test_command(command) else EventType.TEST_RUN

        monkeypatch.setattr(parsers_base, "command_event_type", flipped)
        _forget_cursors(db)
        await _reimport(settings)
        assert _counts(db) == before
