"""The memory service over real gRPC: append with cursors and dedup, processing, manual memory."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel.v1 import events_pb2, memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.events import Event, EventType, SourceCursor, SourcePosition, SourceTool
from squirrel_core.redaction import ruleset
from squirrel_core.settings import Settings
from squirrel_core.wire import cursor_to_pb, event_to_pb
from squirrel_ingest.parsers.claude import ClaudeFileParser
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _fixture_events(path: Path, cwd: str) -> tuple[list[Event], SourceCursor]:
    parser = ClaudeFileParser(str(path))
    events: list[Event] = []
    offset = 0
    inode = path.stat().st_ino
    with path.open("rb") as fh:
        for line in fh:
            offset += len(line)
            events.extend(parser.feed(line, SourcePosition(str(path), inode, offset)))
    moved = [
        Event(**{**{f: getattr(e, f) for f in e.__dataclass_fields__}, "cwd": cwd}) for e in events
    ]
    return moved, SourceCursor(SourceTool.CLAUDE_CODE, str(path), inode, offset)


def _a_transcript() -> Path:
    found = sorted((FIXTURES / "claude").rglob("*.jsonl"), key=lambda p: -p.stat().st_size)
    assert found, "fixture transcripts missing"
    return found[0]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root.resolve()


async def test_append_is_idempotent_and_commits_cursors(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings(processor_min_events="1000000")
    transcript = _a_transcript()
    events, cursor = _fixture_events(transcript, str(project))
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        request = pb.AppendEventsRequest(
            project_id=str(project),
            user_id="alice",
            events=[event_to_pb(e) for e in events],
            cursors=[cursor_to_pb(cursor)],
        )
        first = await c.call(c.stub.AppendEvents, request)
        assert first.accepted > 0 and first.accepted + first.duplicates + len(
            first.rejected
        ) == len(events)
        again = await c.call(c.stub.AppendEvents, request)
        assert again.accepted == 0 and again.duplicates == len(events) - len(first.rejected)
        stored = await c.call(c.stub.GetSourceCursors, pb.GetSourceCursorsRequest())
        [proj] = stored.projects
        assert proj.project_id == str(project)
        assert [(x.path, x.offset) for x in proj.cursors] == [(str(transcript), cursor.offset)]
        status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        assert status.projects[0].events_total == first.accepted
        assert status.projects[0].events_unprocessed == first.accepted


async def test_processing_turns_fixture_events_into_memories_with_history(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        for transcript in sorted((FIXTURES / "claude").rglob("*.jsonl"))[:12]:
            events, cursor = _fixture_events(transcript, str(project))
            await c.call(
                c.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(project),
                    events=[event_to_pb(e) for e in events],
                    cursors=[cursor_to_pb(cursor)],
                ),
            )
        report = await c.call(
            c.stub.ProcessNow,
            pb.ProcessNowRequest(project_id=str(project), drain=True),
            timeout=120,
        )
        assert report.events_processed > 0 and report.episodes_created > 0
        assert report.memories_added > 0
        listed = await c.call(
            c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project), page_size=500)
        )
        assert listed.total_count == len(listed.memories) > 0
        assert all(m.source == memory_pb2.MEMORY_SOURCE_RULES for m in listed.memories)
        some = listed.memories[0]
        history = await c.call(
            c.stub.GetMemoryHistory,
            pb.GetMemoryHistoryRequest(project_id=str(project), memory_id=some.memory_id),
        )
        assert history.versions and history.versions[0].source_event_ids
        status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        assert status.projects[0].events_unprocessed == 0
        assert status.projects[0].extractor == "rules"


async def test_manual_memory_remember_correct_forget(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        remember = pb.RememberRequest(
            project_id=str(project),
            type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
            key="database",
            content="Uses PostgreSQL 16 via asyncpg.",
        )
        first = await c.call(c.stub.Remember, remember)
        assert not first.updated and first.memory.source == memory_pb2.MEMORY_SOURCE_MANUAL
        remember.content = "Uses PostgreSQL 17 via asyncpg."
        second = await c.call(c.stub.Remember, remember)
        assert second.updated
        assert first.outcome == pb.REMEMBER_OUTCOME_ADDED
        assert second.outcome == pb.REMEMBER_OUTCOME_UPDATED
        history = await c.call(
            c.stub.GetMemoryHistory,
            pb.GetMemoryHistoryRequest(project_id=str(project), memory_id=second.memory.memory_id),
        )
        assert len(history.versions) >= 2
        gone = await c.call(
            c.stub.Forget,
            pb.ForgetRequest(
                project_id=str(project), memory_id=second.memory.memory_id, reason="moved"
            ),
        )
        assert gone.memory.deleted
        live = await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project)))
        assert second.memory.memory_id not in {m.memory_id for m in live.memories}
        with pytest.raises(NotFoundError):
            await c.call(
                c.stub.Forget, pb.ForgetRequest(project_id=str(project), memory_id="mem_nope")
            )


async def test_secrets_are_redacted_before_storage(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    secret = "sk-ant-api03-" + "Zq7" * 30
    event = Event(
        SourceTool.CLAUDE_CODE,
        EventType.USER_MESSAGE,
        datetime.now(UTC) - timedelta(minutes=1),
        {"text": f"my key is {secret} please use it"},
        session_id="s1",
        cwd=str(project),
    )
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        reply = await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(project_id=str(project), events=[event_to_pb(event)]),
        )
        assert reply.accepted == 1 and reply.redactions >= 1
    for file in (project / ".ctx").iterdir():
        if file.is_file():
            assert secret.encode() not in file.read_bytes()


async def test_content_redacted_by_the_same_rules_is_not_redacted_twice(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    secret = "sk-ant-api03-" + "Qx5" * 30

    def event(n: int) -> events_pb2.Event:
        return event_to_pb(
            Event(
                SourceTool.CLAUDE_CODE,
                EventType.USER_MESSAGE,
                datetime.now(UTC) - timedelta(minutes=1),
                {"text": f"note {n}: {secret}"},
                session_id="s1",
                cwd=str(project),
            )
        )

    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        # Another rule set (an older ingest, say) or none named: redacted here.
        for n, stamp in enumerate(("", "sha256:" + "0" * 64)):
            reply = await c.call(
                c.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(project), events=[event(n)], redacted_with=stamp
                ),
            )
            assert reply.accepted == 1 and reply.redactions == 1
        # The same rules, from this install: what was sent is what is stored (the sender vouches
        # for it; that is the point of the stamp, and why a team user's cannot be trusted).
        reply = await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(project), events=[event(2)], redacted_with=ruleset()
            ),
        )
        assert reply.accepted == 1 and reply.redactions == 0
    with closing(sqlite3.connect(project / ".ctx" / "data.db")) as db:
        texts = sorted(
            json.loads(row[0])["text"] for row in db.execute("SELECT content_json FROM events")
        )
    assert [secret in t for t in texts] == [False, False, True]


async def test_bad_requests_get_clear_codes(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        with pytest.raises(NotFoundError):
            await c.call(c.stub.AppendEvents, pb.AppendEventsRequest(project_id=str(project)))
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        bad_event = events_pb2.Event(event_type=events_pb2.EVENT_TYPE_USER_MESSAGE)
        reply = await c.call(
            c.stub.AppendEvents, pb.AppendEventsRequest(project_id=str(project), events=[bad_event])
        )
        assert reply.accepted == 0 and reply.rejected[0].reason == "unknown_source_tool"
        with pytest.raises(InvalidArgumentError):
            await c.call(
                c.stub.ListMemories,
                pb.ListMemoriesRequest(project_id=str(project), page_token="@@"),
            )
        with pytest.raises(InvalidArgumentError):
            await c.call(
                c.stub.Remember,
                pb.RememberRequest(project_id=str(project), type=memory_pb2.MEMORY_TYPE_RECIPE),
            )


async def test_every_memory_traces_back_to_stored_events_and_replay_changes_nothing(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    import sqlite3  # noqa: PLC0415

    settings = make_settings(processor_min_events="1000000")
    batches = []
    for transcript in sorted((FIXTURES / "claude").rglob("*.jsonl"))[:12]:
        events, cursor = _fixture_events(transcript, str(project))
        batches.append(
            pb.AppendEventsRequest(
                project_id=str(project),
                events=[event_to_pb(e) for e in events],
                cursors=[cursor_to_pb(cursor)],
            )
        )

    def snapshot() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
        with sqlite3.connect(project / ".ctx" / "data.db") as conn:
            memories = conn.execute(
                "SELECT id, content, version, deleted FROM memory_items ORDER BY id"
            ).fetchall()
            episodes = conn.execute("SELECT id, event_count FROM episodes ORDER BY id").fetchall()
        return memories, episodes

    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        for batch in batches:
            await c.call(c.stub.AppendEvents, batch)
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
        before = snapshot()
        for batch in batches:
            replay = await c.call(c.stub.AppendEvents, batch)
            assert replay.accepted == 0
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
        assert snapshot() == before
    with sqlite3.connect(project / ".ctx" / "data.db") as conn:
        event_ids = {r[0] for r in conn.execute("SELECT id FROM events")}
        rows = conn.execute("SELECT id, source_event_ids, source_episode_id FROM memory_items")
        traced = 0
        for memory_id, source_ids, episode_id in rows:
            ids = json.loads(source_ids)
            assert ids, f"{memory_id} has no source events"
            assert set(ids) <= event_ids, f"{memory_id} cites unknown events"
            assert (
                episode_id is None
                or conn.execute("SELECT 1 FROM episodes WHERE id = ?", (episode_id,)).fetchone()
            )
            traced += 1
    assert traced > 0


async def test_bad_events_are_rejected_one_by_one_and_the_rest_applied(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings(processor_min_events="1000000")
    now = datetime.now(UTC) - timedelta(minutes=1)
    good = Event(
        SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, now, {"text": "add a delete endpoint"}
    )
    huge = Event(SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, now, {"text": "x" * 2_000_000})
    future = Event(
        SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, now + timedelta(days=30), {"text": "later"}
    )
    no_time = events_pb2.Event(
        source_tool=events_pb2.SOURCE_TOOL_CLAUDE_CODE,
        event_type=events_pb2.EVENT_TYPE_USER_MESSAGE,
    )
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        reply = await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(project),
                events=[event_to_pb(good), event_to_pb(huge), no_time, event_to_pb(future)],
            ),
        )
        assert reply.accepted == 1
        assert {r.index: r.reason for r in reply.rejected} == {
            1: "content_too_large",
            2: "missing_timestamp",
            3: "timestamp_out_of_range",
        }


async def test_a_deleted_project_folder_does_not_hide_every_projects_cursors_or_status(
    make_settings: Callable[..., Settings], project: Path, tmp_path: Path
) -> None:
    """Ingest asks for every project's cursors at start (and `sqrl import` waits on it), `sqrl
    status` for every project's counts: one registered folder deleted must not fail the answer
    for the others; asked by name, it is still NOT_FOUND."""
    settings = make_settings(processor_min_events="1000000")
    gone = tmp_path / "gone"
    gone.mkdir()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        for root in (project, gone.resolve()):
            await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        shutil.rmtree(gone)
        stored = await c.call(c.stub.GetSourceCursors, pb.GetSourceCursorsRequest())
        assert [p.project_id for p in stored.projects] == [str(project)]
        status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        assert [p.project_id for p in status.projects] == [str(project)]
        with pytest.raises(NotFoundError):
            await c.call(
                c.stub.GetSourceCursors,
                pb.GetSourceCursorsRequest(project_ids=[str(gone.resolve())]),
            )
