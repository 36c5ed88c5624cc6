"""Only the user's own words become user_style, through the real memory service; history shows
who said each source event. The rules of an instruction file the host loaded are the file's:
tagged as loaded and written, never counted as the user's voice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from squirrel.v1 import events_pb2, memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.events import Event, SourcePosition
from squirrel_core.host_files import LOADED_TAG, WRITTEN_TAG
from squirrel_core.memory_shapes import source_event_row
from squirrel_core.settings import Settings
from squirrel_core.wire import ORIGINS, event_to_pb
from squirrel_ingest.parsers import ClaudeFileParser, line_parser_for
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TRANSCRIPTS = sorted(
    [
        *(FIXTURES / "claude" / "speakers").rglob("*.jsonl"),
        *(FIXTURES / "codex" / "speakers").rglob("*.jsonl"),
        *(FIXTURES / "gemini" / "speakers").rglob("*.jsonl"),
    ]
)
#: "Always …" said by someone other than the user, in the fixtures.
NOT_THE_USER = (
    "tabs",  # a system reminder (CLAUDE.md) and the compaction summary
    "four spaces",  # a subagent's prompt
    "every finding",  # an isMeta skill body
    "verbatim",  # the compaction agent's instructions
    "dataclasses",  # a Codex subagent's prompt
    "80 characters",  # a Gemini subagent's prompt
)
#: A rule of the AGENTS.md Codex loaded into its session: the project's written rule, kept as
#: the file's (tagged, cited to the file), never as something the user said.
THE_FILE = "make check"
#: "Always …" the user said: queued, as slash-command arguments, as an answer, typed.
THE_USER = ("linter", "push directly to main", "error handling", "pnpm", "type hints")


def _events(cwd: str) -> list[Event]:
    events: list[Event] = []
    for path in TRANSCRIPTS:
        parser = line_parser_for(str(path)) or ClaudeFileParser(str(path))
        offset = 0
        for line in path.read_bytes().splitlines(keepends=True):
            offset += len(line)
            for event in parser.feed(line, SourcePosition(str(path), 1, offset)):
                fields = {f: getattr(event, f) for f in event.__dataclass_fields__}
                events.append(Event(**{**fields, "cwd": cwd}))
    return events


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    root.mkdir()
    return root.resolve()


async def test_user_style_comes_only_from_the_users_own_words(
    make_settings: Callable[..., Settings], project: Path
) -> None:
    settings = make_settings(processor_min_events="1000000")
    events = _events(str(project))
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
        appended = await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(project), user_id="dev", events=[event_to_pb(e) for e in events]
            ),
        )
        assert list(appended.rejected) == []
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(project), drain=True))
        listed = await c.call(
            c.stub.ListMemories,
            pb.ListMemoriesRequest(
                project_id=str(project),
                types=[memory_pb2.MEMORY_TYPE_USER_STYLE],
                page_size=100,
            ),
        )
        written = [m for m in listed.memories if LOADED_TAG in m.tags]
        assert [m for m in written if THE_FILE in m.content] == written != []
        assert all(WRITTEN_TAG in m.tags for m in written)
        styles = [m for m in listed.memories if LOADED_TAG not in m.tags]
        text = " ".join(m.content.lower() for m in styles)
        assert THE_FILE not in text
        for words in NOT_THE_USER:
            assert words not in text, words
        for words in THE_USER:
            assert words in text, words
        sources: list[events_pb2.SourceEventRef] = []
        for memory in styles:
            history = await c.call(
                c.stub.GetMemoryHistory,
                pb.GetMemoryHistoryRequest(project_id=str(project), memory_id=memory.memory_id),
            )
            assert len(history.source_events) >= 1
            sources.extend(history.source_events)
    said_by = {str(ORIGINS[s.origin]) for s in sources}
    assert said_by <= {"typed", "queued", "slash_command", "answer"}
    assert {"queued", "slash_command", "answer"} <= said_by
    rows = [source_event_row(s) for s in sources]
    assert {r["origin"] for r in rows} == said_by
    assert all(r["event_type"] == "user_message" and not r["sidechain"] for r in rows)
