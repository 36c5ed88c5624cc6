"""Cursor's chats are read from its SQLite stores into events, each delivered once per project."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.cursor_workspaces import folder_from_uri
from squirrel_core.events import Event, EventType, Origin, SourceCursor, SourceTool
from squirrel_ingest.cursor.reader import CursorLimits, CursorReader, resume_point
from squirrel_ingest.delivery import Backoff, DeliveryResult
from squirrel_ingest.engine import IngestEngine
from squirrel_ingest.engine_settings import EngineSettings
from squirrel_ingest.routing import ProjectRouter
from tests.conftest import PATIENCE_SECONDS
from tests.cursor_stores import CursorFolder, assistant_bubble, tool, user_bubble
from tests.gitrepos import git

DEADLINE_S = PATIENCE_SECONDS


class Sink:
    """What a memory service commits: events and cursors per project, atomically."""

    def __init__(self) -> None:
        self.events: dict[str, list[Event]] = {}
        self.cursors: dict[str, dict[str, SourceCursor]] = {}
        self.changed = asyncio.Condition()

    async def deliver(
        self, project_id: str, events: Sequence[Event], cursors: Sequence[SourceCursor]
    ) -> DeliveryResult:
        async with self.changed:
            self.events.setdefault(project_id, []).extend(events)
            self.cursors.setdefault(project_id, {}).update({c.path: c for c in cursors})
            self.changed.notify_all()
        return DeliveryResult(accepted=len(events), duplicates=0, rejected=0)

    async def load_cursors(self) -> dict[str, list[SourceCursor]]:
        return {p: list(c.values()) for p, c in self.cursors.items()}

    def texts(self, project_id: str) -> list[str]:
        return [
            str(e.content.get("text") or e.content.get("command") or e.content.get("tool"))
            for e in self.events.get(project_id, [])
        ]

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(predicate), timeout=DEADLINE_S)


@pytest.fixture
def project(repo: Path) -> Path:
    """The registered project: a git repository."""
    return repo


@pytest.fixture
def cursor(tmp_path: Path, project: Path) -> CursorFolder:
    folder = CursorFolder(tmp_path / "Cursor" / "User")
    folder.workspace("ws1", project.as_uri(), ["chat-1"])
    return folder


def _engine(
    cursor: CursorFolder, projects: Sequence[Path], sink: Sink, **limits: Any
) -> IngestEngine:
    return IngestEngine(
        {},
        ProjectRouter(projects),
        sink,
        lambda _path, _source: None,
        EngineSettings(batch_age_s=0.02, cursor_poll_interval_s=0.05, backoff=Backoff(0.01, 0.05)),
        cursor_reader=CursorReader([cursor.root], CursorLimits(**limits)),
    )


async def _scan(cursor: CursorFolder, projects: Sequence[Path], sink: Sink, **limits: Any) -> Any:
    engine = _engine(cursor, projects, sink, **limits)
    await engine.scan_once()
    return engine.status()


def _conversation(project: Path) -> list[dict[str, Any]]:
    return [
        user_bubble("b1", "Please make the tests pass; use pytest -x, never unittest."),
        assistant_bubble("b2", "I'll run the tests first.", 1),
        assistant_bubble(
            "b3",
            minute=2,
            tool=tool(
                "run_terminal_cmd",
                {"command": "pytest -x tests", "is_background": False},
                {"output": "1 failed, 3 passed", "exitCode": 1},
            ),
        ),
        assistant_bubble(
            "b4",
            minute=3,
            tool=tool(
                "edit_file",
                {"target_file": str(project / "app" / "models.py"), "instructions": "fix"},
                {"diff": {"chunks": []}},
            ),
        ),
        assistant_bubble("b5", "Fixed the off-by-one in models.py.", 4),
    ]


async def test_a_chat_becomes_the_same_events_as_other_sources_with_speakers(
    cursor: CursorFolder, project: Path
) -> None:
    cursor.chat("chat-1", _conversation(project))
    sink = Sink()

    status = await _scan(cursor, [project], sink)

    events = sink.events[str(project)]
    kinds = [(e.event_type, e.origin) for e in events]
    assert kinds == [
        (EventType.USER_MESSAGE, Origin.TYPED),
        (EventType.ASSISTANT_RESPONSE, Origin.ASSISTANT),
        (EventType.TOOL_CALL, Origin.ASSISTANT),
        (EventType.TOOL_RESULT, Origin.TOOL_RESULT),
        (EventType.TEST_RUN, Origin.ASSISTANT),
        (EventType.TOOL_CALL, Origin.ASSISTANT),
        (EventType.TOOL_RESULT, Origin.TOOL_RESULT),
        (EventType.CODE_CHANGE, Origin.ASSISTANT),
        (EventType.ASSISTANT_RESPONSE, Origin.ASSISTANT),
    ]
    assert {e.source_tool for e in events} == {SourceTool.CURSOR}
    assert {e.session_id for e in events} == {"chat-1"}
    assert {e.cwd for e in events} == {str(project)}
    test_run = events[4]
    assert test_run.content["command"] == "pytest -x tests"
    assert test_run.content["exit_code"] == 1 and test_run.content["is_error"] is True
    assert events[7].file_paths == ("app/models.py",)
    assert events[0].content["text"].startswith("Please make the tests pass")
    assert status.sources[SourceTool.CURSOR].events_delivered == len(events)
    stored = sink.cursors[str(project)]
    [(key, chat_cursor)] = stored.items()
    assert key == f"{cursor.global_store}#chat-1"
    assert (chat_cursor.offset, chat_cursor.extra["last"]) == (5, "b5")


async def test_restart_delivers_nothing_twice_and_new_bubbles_once(
    cursor: CursorFolder, project: Path
) -> None:
    cursor.chat("chat-1", _conversation(project)[:2])
    sink = Sink()
    await _scan(cursor, [project], sink)
    again = await _scan(cursor, [project], sink)
    assert again.sources[SourceTool.CURSOR].events_produced == 0

    cursor.append("chat-1", _conversation(project)[4:])
    await _scan(cursor, [project], sink)

    assert sink.texts(str(project)) == [
        "Please make the tests pass; use pytest -x, never unittest.",
        "I'll run the tests first.",
        "Fixed the off-by-one in models.py.",
    ]


async def test_bubbles_added_while_running_are_delivered_once(
    cursor: CursorFolder, project: Path
) -> None:
    cursor.chat("chat-1", [user_bubble("b1", "first question")])
    sink = Sink()
    engine = _engine(cursor, [project], sink)
    await engine.start()
    try:
        await sink.wait_until(lambda: len(sink.events.get(str(project), [])) == 1)
        cursor.append("chat-1", [assistant_bubble("b2", "first answer", 1)])
        cursor.append("chat-1", [user_bubble("b3", "second question", 2)])
        await sink.wait_until(lambda: len(sink.events.get(str(project), [])) == 3)
        cursor.chat("chat-2", [user_bubble("c1", "another chat")])  # no workspace lists it yet
        cursor.workspace("ws1", project.as_uri(), ["chat-1", "chat-2"])
        await sink.wait_until(lambda: len(sink.events.get(str(project), [])) == 4)
    finally:
        await engine.stop()
    assert sink.texts(str(project)) == [
        "first question",
        "first answer",
        "second question",
        "another chat",
    ]


async def test_a_generating_chat_is_read_once_its_last_bubble_is_final(
    cursor: CursorFolder, project: Path
) -> None:
    running = tool("run_terminal_cmd", {"command": "make test"}, status="running")
    cursor.chat(
        "chat-1",
        [user_bubble("b1", "run it"), assistant_bubble("b2", minute=1, tool=running)],
        status="generating",
    )
    sink = Sink()
    await _scan(cursor, [project], sink)
    assert sink.texts(str(project)) == ["run it"]

    done = tool("run_terminal_cmd", {"command": "make test"}, {"output": "ok", "exitCode": 0})
    cursor.chat("chat-1", [assistant_bubble("b2", minute=1, tool=done)], headers=["b1", "b2"])
    await _scan(cursor, [project], sink)

    kinds = [e.event_type for e in sink.events[str(project)]]
    assert kinds == [
        EventType.USER_MESSAGE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.TEST_RUN,
    ]


async def test_a_rewound_chat_delivers_the_new_turns_and_repeats_none(
    cursor: CursorFolder, project: Path
) -> None:
    cursor.chat(
        "chat-1",
        [user_bubble("b1", "one"), assistant_bubble("b2", "two", 1), user_bubble("b3", "three")],
    )
    sink = Sink()
    await _scan(cursor, [project], sink)

    # The user edited their second message: Cursor drops the turns after it and goes on.
    cursor.chat(
        "chat-1",
        [user_bubble("n3", "three, edited", 3), assistant_bubble("n4", "four", 4)],
        headers=["b1", "b2", "n3", "n4"],
    )
    await _scan(cursor, [project], sink)
    await _scan(cursor, [project], sink)

    assert sink.texts(str(project)) == ["one", "two", "three", "three, edited", "four"]


async def test_bad_rows_are_skipped_with_a_reason_and_the_rest_is_read(
    cursor: CursorFolder, project: Path
) -> None:
    cursor.workspace("ws1", project.as_uri(), ["chat-1", "chat-2", "chat-3"])
    cursor.chat("chat-1", [user_bubble("b1", "before"), user_bubble("b3", "after", 2)])
    cursor.chat(
        "chat-1",
        [],
        headers=["b1", "b2", "b9", "b3"],  # b9 is listed but was never written
    )
    cursor.put_raw("bubbleId:chat-1:b2", '{"type": 2, "text": "torn')
    cursor.put_raw("composerData:chat-2", "{not json")
    cursor.put_raw("composerData:chat-3", "null")
    cursor.chat("chat-4", [user_bubble("x1", "no workspace lists this chat")])
    sink = Sink()

    status = await _scan(cursor, [project], sink)

    assert sink.texts(str(project)) == ["before", "after"]
    skipped = status.sources[SourceTool.CURSOR].skipped
    assert skipped["malformed_bubble"] == 1
    assert skipped["missing_bubble"] == 1
    assert skipped["malformed_chat"] == 2
    assert skipped["chat_without_folder"] == 1


async def test_a_huge_bubble_keeps_its_text_and_tool_call_without_loading_it_whole(
    cursor: CursorFolder, project: Path
) -> None:
    huge_result = {"contents": "x" * 400_000}
    cursor.chat(
        "chat-1",
        [
            user_bubble("b1", "read the big file"),
            assistant_bubble(
                "b2",
                "It is a big file.",
                1,
                tool=tool("read_file", {"target_file": "big.txt"}, huge_result),
            ),
            assistant_bubble("b3", "done", 2),
        ],
    )
    sink = Sink()

    status = await _scan(cursor, [project], sink, max_bubble_bytes=100_000)

    events = sink.events[str(project)]
    assert [e.event_type for e in events] == [
        EventType.USER_MESSAGE,
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.ASSISTANT_RESPONSE,
    ]
    assert events[2].file_paths == ("big.txt",)
    assert len(events[3].content["output"]) < 25_000  # a file read, capped like every source's
    assert status.sources[SourceTool.CURSOR].skipped["oversized_bubble"] == 1


@pytest.mark.parametrize(
    ("uri", "reason"),
    [
        ("vscode-remote://ssh-remote+box/home/u/app", "remote_folder"),
        ("file://fileserver/share/app", "network_folder"),
        ("file:relative/app", "bad_folder_uri"),
        ("file:///app%00/x", "bad_folder_uri"),
        ("", "bad_folder_uri"),
        ("x" * 10_000, "bad_folder_uri"),
    ],
)
def test_folder_uris_other_than_local_folders_are_refused_with_a_reason(
    uri: str, reason: str
) -> None:
    assert folder_from_uri(uri) == (None, reason)


def test_local_folder_uris_are_decoded() -> None:
    assert folder_from_uri("file:///home/u/my%20app/../app") == ("/home/u/app", None)
    assert folder_from_uri("file:///c%3A/Users/u/app") == ("c:/Users/u/app", None)


async def test_chats_of_hostile_or_foreign_folders_reach_no_project(
    cursor: CursorFolder, project: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cursor.workspace("ws2", "vscode-remote://ssh-remote+box" + str(project), ["chat-r"])
    cursor.workspace("ws3", elsewhere.as_uri(), ["chat-e"])
    cursor.workspace("ws4", "file://" + str(project) + "/../../../etc", ["chat-x"])
    for chat in ("chat-r", "chat-e", "chat-x"):
        cursor.chat(chat, [user_bubble(f"{chat}-1", f"said in {chat}")])
    cursor.chat("chat-1", [user_bubble("b1", "said in the project")])
    sink = Sink()

    status = await _scan(cursor, [project], sink)

    assert sink.texts(str(project)) == ["said in the project"]
    assert status.unregistered_records == 2  # the foreign folder and the escaped one
    assert status.sources[SourceTool.CURSOR].skipped["chat_without_folder"] == 1


async def test_a_chat_in_a_linked_worktree_counts_for_its_repository(
    cursor: CursorFolder, project: Path, tmp_path: Path
) -> None:
    git(project, "commit", "-q", "--allow-empty", "-m", "init")
    tree = tmp_path / "app-worktrees" / "feature"
    git(project, "worktree", "add", "-q", "-b", "feature", str(tree))
    edit = tool("edit_file", {"target_file": str(tree / "lib" / "x.ex")}, {"ok": True})
    cursor.workspace("ws5", tree.as_uri(), ["chat-w"])
    cursor.chat("chat-w", [assistant_bubble("w1", minute=1, tool=edit)])
    sink = Sink()

    await _scan(cursor, [project], sink)

    changes = [e for e in sink.events[str(project)] if e.event_type is EventType.CODE_CHANGE]
    assert [c.file_paths for c in changes] == [("lib/x.ex",)]


def _files(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


async def test_reading_writes_nothing_in_cursors_folder(
    cursor: CursorFolder, project: Path
) -> None:
    cursor.chat("chat-1", _conversation(project))
    before = _files(cursor.root)
    assert not any(name.endswith(("-wal", "-shm")) for name in before)

    await _scan(cursor, [project], Sink())

    assert _files(cursor.root) == before


async def test_a_locked_store_is_read_from_a_private_copy(tmp_path: Path, project: Path) -> None:
    cursor = CursorFolder(tmp_path / "Cursor" / "User", wal=False)
    cursor.workspace("ws1", project.as_uri(), ["chat-1"])
    cursor.chat("chat-1", [user_bubble("b1", "committed before the lock")])
    writer = sqlite3.connect(cursor.global_store, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("INSERT INTO cursorDiskKV VALUES ('bubbleId:chat-1:b2', '{}')")
    sink = Sink()
    try:
        status = await _scan(cursor, [project], sink, busy_timeout_s=0.05)
    finally:
        writer.execute("ROLLBACK")
        writer.close()

    assert sink.texts(str(project)) == ["committed before the lock"]
    assert status.sources[SourceTool.CURSOR].skipped.get("store_locked") is None
    assert sorted(p.name for p in cursor.global_store.parent.iterdir()) == ["state.vscdb"]


async def test_a_missing_store_or_table_is_reported_and_read_once_it_is_there(
    tmp_path: Path, project: Path
) -> None:
    root = tmp_path / "Cursor" / "User"
    sink = Sink()
    engine = IngestEngine(
        {},
        ProjectRouter([project]),
        sink,
        lambda _path, _source: None,
        EngineSettings(batch_age_s=0.02),
        cursor_reader=CursorReader([root]),
    )
    await engine.scan_once()
    assert engine.status().sources[SourceTool.CURSOR].skipped == {"store_missing": 1}

    (root / "globalStorage").mkdir(parents=True)
    with sqlite3.connect(root / "globalStorage" / "state.vscdb") as db:
        db.execute("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)")
    db.close()
    await engine.scan_once()
    assert engine.status().sources[SourceTool.CURSOR].skipped["store_missing_table"] == 1

    (root / "globalStorage" / "state.vscdb").unlink()
    cursor = CursorFolder(root)
    cursor.workspace("ws1", project.as_uri(), ["chat-1"])
    cursor.chat("chat-1", [user_bubble("b1", "hello")])
    await engine.scan_once()
    assert sink.texts(str(project)) == ["hello"]

    cursor.global_store.unlink()  # Cursor uninstalled: nothing breaks, nothing is lost
    await engine.scan_once()
    assert engine.status().sources[SourceTool.CURSOR].skipped["store_missing"] == 2


async def test_a_file_that_is_not_a_database_is_reported(tmp_path: Path, project: Path) -> None:
    store = tmp_path / "User" / "globalStorage" / "state.vscdb"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"garbage" * 100)
    reader = CursorReader([tmp_path / "User"])

    read = reader.poll({})

    assert read.skipped == {"store_not_a_database": 1}
    assert read.events == []


def test_resume_point_follows_the_last_delivered_bubble() -> None:
    def at(offset: int, last: str | None, tail: list[str], generation: int = 0) -> SourceCursor:
        extra: dict[str, Any] = {"last": last, "tail": tail} if last else {}
        return SourceCursor(SourceTool.CURSOR, "k", generation, offset, extra)

    assert resume_point(None, ["a", "b"]) == (0, 0)
    assert resume_point(at(2, "b", ["a", "b"]), ["a", "b", "c"]) == (2, 0)
    assert resume_point(at(3, "c", ["a", "b", "c"]), ["a", "b", "x", "y"]) == (2, 1)
    assert resume_point(at(3, "c", ["c"]), ["p", "q"]) == (2, 1)
    assert resume_point(at(2, None, []), ["a", "b", "c"]) == (2, 0)


def test_the_cursor_extra_is_plain_json() -> None:
    cursor = SourceCursor(SourceTool.CURSOR, "k", 1, 2, {"last": "b", "tail": ["a", "b"]})
    assert json.loads(json.dumps(cursor.extra)) == cursor.extra


async def test_long_chats_are_read_in_bounded_steps_each_bubble_once(
    cursor: CursorFolder, project: Path
) -> None:
    cursor.workspace("ws1", project.as_uri(), ["chat-1", "chat-2"])
    cursor.chat("chat-1", [user_bubble(f"a{n}", f"a{n}", n % 60) for n in range(23)])
    cursor.chat("chat-2", [user_bubble(f"b{n}", f"b{n}", n % 60) for n in range(9)])
    sink = Sink()
    engine = _engine(cursor, [project], sink, bubbles_per_read=7)
    await engine.start()
    try:
        await sink.wait_until(lambda: len(sink.events.get(str(project), [])) == 32)
    finally:
        await engine.stop()
    texts = sink.texts(str(project))
    assert sorted(texts) == sorted([f"a{n}" for n in range(23)] + [f"b{n}" for n in range(9)])
    assert len(set(texts)) == 32
    status = engine.status()
    assert status.sources[SourceTool.CURSOR].files_seen == 2  # chats, for Cursor
    [watched] = [w for w in engine.watched_sources() if w.source_tool is SourceTool.CURSOR]
    assert (watched.exists, watched.files) == (True, 2)


async def test_older_inline_chats_subagents_and_answers_keep_their_speakers(
    cursor: CursorFolder, project: Path
) -> None:
    cursor.workspace("ws1", project.as_uri(), ["old", "parent", "child"])
    inline = {
        "composerId": "old",
        "createdAt": 1_700_000_000_000,
        "conversation": [
            {"bubbleId": "o1", "type": 1, "text": "an older chat, held inline"},
            {"bubbleId": "o2", "type": 2, "text": "answered inline"},
        ],
    }
    cursor.put_raw("composerData:old", json.dumps(inline))
    question = tool(
        "ask_question",
        {
            "questions": [
                {
                    "prompt": "Which database?",
                    "options": [
                        {"id": "pg", "label": "PostgreSQL"},
                        {"id": "my", "label": "MySQL"},
                    ],
                }
            ]
        },
        {"answers": [{"questionId": "pg"}]},
    )
    cursor.chat(
        "parent", [user_bubble("p1", "set up the app"), assistant_bubble("p2", tool=question)]
    )
    cursor.chat(
        "child",
        [user_bubble("c1", "explore the schema"), assistant_bubble("c2", "three tables", 1)],
        extra={"subagentInfo": {"parentComposerId": "parent", "subagentTypeName": "explore"}},
    )
    sink = Sink()

    await _scan(cursor, [project], sink)

    said = {
        (e.session_id, e.content.get("text"), e.origin, e.sidechain)
        for e in sink.events[str(project)]
        if e.event_type in (EventType.USER_MESSAGE, EventType.ASSISTANT_RESPONSE)
    }
    assert said == {
        ("old", "an older chat, held inline", Origin.TYPED, False),
        ("old", "answered inline", Origin.ASSISTANT, False),
        ("parent", "set up the app", Origin.TYPED, False),
        ("parent", "PostgreSQL", Origin.ANSWER, False),
        ("parent", "explore the schema", Origin.PARENT_AGENT, True),
        ("parent", "three tables", Origin.ASSISTANT, True),
    }
