"""The engine reads, redacts, routes and delivers every event exactly once per project."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourceCursor, SourcePosition, SourceTool
from squirrel_core.wire import cursor_to_pb, event_to_pb
from squirrel_ingest.delivery import Backoff, DeliveryResult, SinkUnavailableError
from squirrel_ingest.engine import EngineSettings, IngestEngine
from squirrel_ingest.git_poller import GitPoller, git_cursor_path
from squirrel_ingest.reading import DocumentParser, LineParser
from squirrel_ingest.routing import ProjectRouter
from squirrel_ingest.status import IngestStatus, ScanProgress, WatchedRoot
from tests.conftest import PATIENCE_SECONDS
from tests.gitrepos import git, make_repo

# watchdog warns when a nested tree appears faster than it adds watches; it still reports the
# files (which these tests check), so the warning is expected here.
pytestmark = pytest.mark.filterwarnings("ignore:Callback with id:RuntimeWarning")

DEADLINE_S = PATIENCE_SECONDS
FAKE_KEY = "ghp" + "_" + "Z" * 8 + "q1W2e3R4t5Y6u7I8o9P0aSdFgHjK"  # made up, not a credential


class Crash(BaseException):
    """Stands for the process dying in the middle of a flush."""


class JsonLinesParser:
    """A minimal transcript format: one JSON object per line with `text` and `cwd`.

    It counts the records it has seen and exports that count as its state, so resuming from a
    cursor can be checked.
    """

    def __init__(self) -> None:
        self.skipped: Counter[str] = Counter()
        self.count = 0

    def feed(self, line: bytes, position: SourcePosition) -> list[Event]:
        try:
            record = json.loads(line)
        except ValueError:
            self.skipped["malformed_json"] += 1
            return []
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            self.skipped["not_a_message"] += 1
            return []
        self.count += 1
        return [_event(record["text"], record.get("cwd"), position, n=self.count)]

    def export_state(self) -> dict[str, Any]:
        return {"count": self.count}

    def restore_state(self, state: dict[str, Any]) -> None:
        self.count = int(state.get("count", 0))


class JsonDocumentParser:
    """A whole-file format: a JSON list of messages with ids, rewritten on every update."""

    def __init__(self) -> None:
        self.skipped: Counter[str] = Counter()
        self.seen: set[str] = set()

    def parse_document(self, data: bytes, position: SourcePosition) -> list[Event]:
        try:
            messages = json.loads(data)
        except ValueError:
            self.skipped["malformed_document"] += 1
            return []
        events = []
        for message in messages:
            if message["id"] not in self.seen:
                self.seen.add(message["id"])
                events.append(_event(message["text"], message["cwd"], position))
        return events

    def export_state(self) -> dict[str, Any]:
        return {"seen": sorted(self.seen)}

    def restore_state(self, state: dict[str, Any]) -> None:
        self.seen = set(state.get("seen", []))


def _event(text: str, cwd: str | None, position: SourcePosition | None, n: int = 0) -> Event:
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.USER_MESSAGE,
        timestamp=datetime(2026, 1, 1, tzinfo=UTC),
        content={"text": text, "n": n},
        cwd=cwd,
        position=position,
    )


def parser_factory(path: Path, _source: SourceTool) -> LineParser | DocumentParser | None:
    if path.suffix == ".jsonl":
        return JsonLinesParser()
    if path.suffix == ".json":
        return JsonDocumentParser()
    return None


class FakeSink:
    """Keeps what a memory service would commit: events and cursors per project, atomically."""

    def __init__(self) -> None:
        self.events: dict[str, list[Event]] = {}
        self.cursors: dict[str, dict[str, SourceCursor]] = {}
        self.down = False
        self.failures = 0
        self.crash_on: str | None = None
        self.changed = asyncio.Condition()

    async def deliver(
        self, project_id: str, events: Sequence[Event], cursors: Sequence[SourceCursor]
    ) -> DeliveryResult:
        async with self.changed:
            if self.crash_on == project_id:
                raise Crash
            if self.down:
                self.failures += 1
                self.changed.notify_all()
                raise SinkUnavailableError("memory is not reachable")
            self.events.setdefault(project_id, []).extend(events)
            stored = self.cursors.setdefault(project_id, {})
            for cursor in cursors:
                stored[cursor.path] = cursor
            self.changed.notify_all()
        return DeliveryResult(accepted=len(events), duplicates=0, rejected=0)

    async def load_cursors(self) -> dict[str, list[SourceCursor]]:
        async with self.changed:
            if self.down:
                self.failures += 1
                self.changed.notify_all()
                raise ConnectionError("memory is not reachable")
        return {project: list(cursors.values()) for project, cursors in self.cursors.items()}

    def texts(self, project_id: str) -> list[str]:
        return [event.content["text"] for event in self.events.get(project_id, [])]

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(predicate), timeout=DEADLINE_S)


def _settings(**overrides: Any) -> EngineSettings:
    values: dict[str, Any] = {
        "batch_events": 500,
        "batch_age_s": 0.02,
        "rescan_interval_s": 60.0,
        "backoff": Backoff(initial_s=0.01, maximum_s=0.05),
    }
    values.update(overrides)
    return EngineSettings(**values)


def _line(text: str, cwd: Path | str) -> str:
    return json.dumps({"text": text, "cwd": str(cwd)}) + "\n"


def _write(path: Path, *lines: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.writelines(lines)


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A transcript root and two registered project folders."""
    root = tmp_path / "transcripts"
    root.mkdir()
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    return root, one.resolve(), two.resolve()


def _engine(root: Path, projects: Sequence[Path], sink: FakeSink, **settings: Any) -> IngestEngine:
    return IngestEngine(
        {SourceTool.CLAUDE_CODE: [root]},
        ProjectRouter(projects),
        sink,
        parser_factory,
        _settings(**settings),
    )


async def _scan(
    root: Path, projects: Sequence[Path], sink: FakeSink, **settings: Any
) -> IngestStatus:
    engine = _engine(root, projects, sink, **settings)
    await engine.scan_once()
    return engine.status()


async def test_scan_delivers_each_event_to_the_project_of_its_cwd(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, two = layout
    _write(
        root / "s1.jsonl",
        _line("a1", one),
        _line("b1", two / "sub"),
        _line("x", "/elsewhere"),
        _line("a2", one),
    )
    sink = FakeSink()

    status = await _scan(root, [one, two], sink)

    assert sink.texts(str(one)) == ["a1", "a2"]
    assert sink.texts(str(two)) == ["b1"]
    assert status.unregistered_records == 1
    assert status.events_delivered == 3
    assert status.lines_read == 4
    end = (root / "s1.jsonl").stat().st_size
    assert sink.cursors[str(one)][str(root / "s1.jsonl")].offset == end
    assert sink.cursors[str(two)][str(root / "s1.jsonl")].offset == end


async def test_a_session_in_the_main_checkout_working_in_a_worktree_is_the_projects(
    tmp_path: Path,
) -> None:
    """`git worktree add ../app-fix` from the main checkout, then work there: delivered as the
    project's own paths, not another folder's; a clone's paths stay as they are."""
    repo = make_repo(tmp_path / "app")
    fix = tmp_path / "app-fix"
    git(repo, "worktree", "add", "-q", "-b", "fix", str(fix))
    clone = tmp_path / "app-clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    root = tmp_path / "transcripts"
    _write(
        root / "s.jsonl",
        _line(f"cd {fix} && pytest tests/test_cart.py", repo),
        _line(f"diff {fix}/setup.cfg {clone}/setup.cfg", fix / "src"),
    )
    sink = FakeSink()

    await _scan(root, [repo], sink)

    assert sink.texts(str(repo)) == [
        f"cd {repo} && pytest tests/test_cart.py",
        f"diff {repo}/setup.cfg {clone}/setup.cfg",
    ]


async def test_restart_with_stored_cursors_delivers_nothing_again(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    _write(root / "s1.jsonl", _line("a1", one), _line("a2", one))
    sink = FakeSink()
    await _scan(root, [one], sink)

    _write(root / "s1.jsonl", _line("a3", one))
    status = await _scan(root, [one], sink)

    assert sink.texts(str(one)) == ["a1", "a2", "a3"]
    assert status.lines_read == 1


async def test_secrets_are_redacted_before_delivery_and_counted(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    _write(root / "s1.jsonl", _line(f"my token is {FAKE_KEY} ok", one))
    sink = FakeSink()

    status = await _scan(root, [one], sink)

    assert sink.texts(str(one)) == ["my token is [REDACTED:github_token] ok"]
    assert status.redactions == {"claude_code": 1}


async def test_malformed_and_oversized_lines_are_skipped_and_counted(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    _write(
        root / "s1.jsonl",
        _line("a1", one),
        "{not json\n",
        json.dumps({"text": "x" * 3000, "cwd": str(one)}) + "\n",
        "\n",
        _line("a2", one),
    )
    sink = FakeSink()

    status = await _scan(root, [one], sink, max_line_bytes=1024)

    assert sink.texts(str(one)) == ["a1", "a2"]
    assert status.skipped == {"malformed_json": 2, "oversized_line": 1}


class WireSink(FakeSink):
    """A sink that puts what it takes on the wire first, as the memory service's client does."""

    async def deliver(
        self, project_id: str, events: Sequence[Event], cursors: Sequence[SourceCursor]
    ) -> DeliveryResult:
        for event in events:
            event_to_pb(event, json_content=True)
        for cursor in cursors:
            cursor_to_pb(cursor)
        return await super().deliver(project_id, events, cursors)


async def test_a_transcript_named_in_another_encoding_is_counted_and_blocks_nothing(
    layout: tuple[Path, Path, Path],
) -> None:
    """A file whose name is Latin-1 bytes (`caf\\xe9.jsonl`) cannot be named on the wire: its
    delivery failed and was retried for ever, holding back every other file's events (`sqrl
    import` never returned). It is skipped and counted; the other files are delivered."""
    root, one, _ = layout
    _write(Path(os.fsdecode(os.fsencode(root) + b"/caf\xe9.jsonl")), _line("odd", one))
    _write(root / "s1.jsonl", _line("a1", one))
    sink = WireSink()

    status = await asyncio.wait_for(_scan(root, [one], sink), timeout=DEADLINE_S)

    assert sink.texts(str(one)) == ["a1"]
    assert status.skipped == {"path_not_utf8": 1}


async def test_a_root_reached_again_through_a_link_is_read_once(
    layout: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """`~/.config/claude` a link to `~/.claude` (both default roots): every transcript was read
    under both paths (its events sent twice) and a file skipped counted twice, at every
    rescan. Each is read, and counted, once, under the root listed first; a file the watcher
    or a hook names under the link is the same file."""
    root, one, _ = layout
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    _write(Path(os.fsdecode(os.fsencode(root) + b"/caf\xe9.jsonl")), _line("odd", one))
    _write(root / "s1.jsonl", _line("a1", one))
    sink = WireSink()
    engine = IngestEngine(
        {SourceTool.CLAUDE_CODE: [root, alias]},
        ProjectRouter([one]),
        sink,
        parser_factory,
        _settings(),
    )

    await asyncio.wait_for(engine.scan_once(), timeout=DEADLINE_S)
    await asyncio.wait_for(engine.scan_once(), timeout=DEADLINE_S)
    assert await engine.read_now(alias / "s1.jsonl") == 0

    status = engine.status()
    assert sink.texts(str(one)) == ["a1"]
    assert status.skipped == {"path_not_utf8": 1}
    assert status.files_tracked == 1


async def test_a_root_inside_another_is_read_once_and_two_roots_apart_both(
    layout: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    root, one, _ = layout
    inner = root / "inner"
    apart = tmp_path / "apart"
    _write(inner / "s1.jsonl", _line("a1", one))
    _write(apart / "s2.jsonl", _line("b1", one))
    sink = FakeSink()
    engine = IngestEngine(
        {SourceTool.CLAUDE_CODE: [inner, root, apart]},
        ProjectRouter([one]),
        sink,
        parser_factory,
        _settings(),
    )

    await asyncio.wait_for(engine.scan_once(), timeout=DEADLINE_S)

    assert sorted(sink.texts(str(one))) == ["a1", "b1"]
    assert engine.status().files_tracked == 2


async def test_empty_and_unrelated_files_are_harmless(layout: tuple[Path, Path, Path]) -> None:
    root, one, _ = layout
    (root / "empty.jsonl").write_bytes(b"")
    (root / "notes.txt").write_text("ignored")
    sink = FakeSink()

    status = await _scan(root, [one], sink)

    assert status.files_tracked == 1
    assert sink.events == {}


async def test_a_transcript_linked_from_outside_the_folder_is_never_read(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    outside = root.parent / "outside.jsonl"
    _write(outside, _line("from outside", one))
    (root / "linked.jsonl").symlink_to(outside)
    _write(root / "s1.jsonl", _line("a1", one))
    sink = FakeSink()

    status = await _scan(root, [one], sink)

    assert sink.texts(str(one)) == ["a1"]
    assert status.files_tracked == 1


async def test_a_fifty_megabyte_line_is_skipped_and_the_lines_around_it_delivered(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    path = root / "s1.jsonl"
    _write(path, _line("before", one))
    with path.open("ab") as handle:
        handle.write(b'{"text": "')
        block = b"x" * (1024 * 1024)
        for _ in range(50):
            handle.write(block)
        handle.write(b'", "cwd": "' + str(one).encode() + b'"}\n')
    _write(path, _line("after", one))
    sink = FakeSink()

    status = await _scan(root, [one], sink)

    assert sink.texts(str(one)) == ["before", "after"]
    assert status.skipped == {"oversized_line": 1}


async def test_sink_down_for_a_while_then_up_delivers_everything_once_in_order(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    sink = FakeSink()
    engine = _engine(
        root,
        [one],
        sink,
        batch_events=5,
        buffer_events=10,
        max_read_bytes=256,
        read_chunk_bytes=128,
    )
    expected = [f"m{i:03d}" for i in range(60)]
    _write(root / "s1.jsonl", *(_line(text, one) for text in expected))
    await engine.start()
    try:
        await sink.wait_until(lambda: len(sink.texts(str(one))) > 0)
        sink.down = True
        _write(root / "s2.jsonl", *(_line(f"late{i}", one) for i in range(40)))
        await sink.wait_until(lambda: sink.failures >= 3)
        held = engine.status()
        assert held.lines_read < 100  # reading paused while the buffer is full
        assert held.buffered_events <= 10 + 10  # bounded: the cap plus one read's worth
        assert held.delivery_failures >= 1  # quick retries while the sink is down count once
        sink.down = False
        await sink.wait_until(lambda: len(sink.texts(str(one))) == 100)
    finally:
        await engine.stop()

    texts = sink.texts(str(one))
    assert len(set(texts)) == 100
    assert [t for t in texts if t.startswith("m")] == expected
    assert [t for t in texts if t.startswith("late")] == [f"late{i}" for i in range(40)]


async def test_lines_appended_after_start_are_delivered_through_the_watcher(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    sink = FakeSink()
    engine = _engine(root, [one], sink, rescan_interval_s=3600.0)
    await engine.start()
    try:
        target = root / "-home-dev-one" / "abc" / "subagents" / "agent-1.jsonl"
        _write(target, _line("first", one), '{"text": "half')
        await sink.wait_until(lambda: sink.texts(str(one)) == ["first"])
        _write(target, f'", "cwd": "{one}"}}\n')
        await sink.wait_until(lambda: sink.texts(str(one)) == ["first", "half"])
    finally:
        await engine.stop()


async def test_a_folder_linked_into_the_root_while_running_is_never_read(
    layout: tuple[Path, Path, Path],
) -> None:
    """A link to a folder elsewhere, made in a watched folder while the service runs: the
    watcher's report of it had every transcript under the link's target tracked and read."""
    root, one, _ = layout
    outside = root.parent / "elsewhere"
    _write(outside / "s9.jsonl", _line("from outside", one))
    sink = FakeSink()
    engine = _engine(root, [one], sink, rescan_interval_s=3600.0)
    _write(root / "s1.jsonl", _line("a0", one))
    await engine.start()
    try:
        await sink.wait_until(lambda: "a0" in sink.texts(str(one)))  # the folder is watched
        (root / "linked").symlink_to(outside, target_is_directory=True)
        _write(root / "s1.jsonl", _line("a1", one))  # reported with the link, or after it
        await sink.wait_until(lambda: "a1" in sink.texts(str(one)))
        tracked = engine.status().files_tracked
    finally:
        await engine.stop()
    assert sink.texts(str(one)) == ["a0", "a1"]
    assert tracked == 1


async def test_crash_between_projects_loses_and_repeats_nothing(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, two = layout
    path = root / "s1.jsonl"
    _write(path, _line("a1", one), _line("b1", two))
    sink = FakeSink()
    await _scan(root, [one, two], sink)
    _write(path, _line("a2", one), _line("b2", two), _line("a3", one))
    sink.crash_on = str(two)
    with pytest.raises(Crash):
        await _scan(root, [one, two], sink)
    assert sink.texts(str(one)) == ["a1", "a2", "a3"]
    assert sink.texts(str(two)) == ["b1"]

    sink.crash_on = None
    _write(path, _line("b3", two), _line("a4", one))
    status = await _scan(root, [one, two], sink)

    assert sink.texts(str(one)) == ["a1", "a2", "a3", "a4"]
    assert sink.texts(str(two)) == ["b1", "b2", "b3"]
    assert status.events_already_delivered == 2  # a2 and a3, read again for project two
    end = path.stat().st_size
    assert {sink.cursors[p][str(path)].offset for p in (str(one), str(two))} == {end}


async def test_crash_before_a_project_ever_got_a_cursor_loses_nothing(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, two = layout
    _write(root / "s1.jsonl", _line("a1", one), _line("b1", two), _line("a2", one))
    sink = FakeSink()
    sink.crash_on = str(two)
    with pytest.raises(Crash):
        await _scan(root, [one, two], sink)

    sink.crash_on = None
    await _scan(root, [one, two], sink)

    assert sink.texts(str(one)) == ["a1", "a2"]
    assert sink.texts(str(two)) == ["b1"]


async def test_projects_without_events_still_get_the_file_cursor(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, two = layout
    path = root / "s1.jsonl"
    _write(path, _line("a1", one), _line("a2", one))
    sink = FakeSink()

    await _scan(root, [one, two], sink)

    assert str(two) not in sink.events or sink.texts(str(two)) == []
    assert sink.cursors[str(two)][str(path)].offset == path.stat().st_size


async def test_project_registered_later_gets_past_events_once(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, two = layout
    _write(root / "s1.jsonl", _line("a1", one), _line("b1", two))
    sink = FakeSink()
    first = await _scan(root, [one], sink)
    assert first.unregistered_records == 1

    await _scan(root, [one, two], sink)

    assert sink.texts(str(one)) == ["a1"]
    assert sink.texts(str(two)) == ["b1"]


async def test_project_registered_while_running_gets_past_events_once(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, two = layout
    _write(root / "s1.jsonl", _line("a1", one), _line("b1", two))
    sink = FakeSink()
    engine = _engine(root, [one], sink)
    await engine.start()
    try:
        await sink.wait_until(lambda: sink.texts(str(one)) == ["a1"])
        await engine.update_projects([one, two])
        await sink.wait_until(lambda: sink.texts(str(two)) == ["b1"])
        _write(root / "s1.jsonl", _line("a2", one))
        await sink.wait_until(lambda: sink.texts(str(one)) == ["a1", "a2"])
    finally:
        await engine.stop()

    assert sink.texts(str(two)) == ["b1"]


async def test_parser_state_travels_in_the_cursor(layout: tuple[Path, Path, Path]) -> None:
    root, one, _ = layout
    _write(root / "s1.jsonl", _line("a1", one), _line("a2", one))
    sink = FakeSink()
    await _scan(root, [one], sink)

    _write(root / "s1.jsonl", _line("a3", one))
    await _scan(root, [one], sink)

    assert [event.content["n"] for event in sink.events[str(one)]] == [1, 2, 3]


async def test_truncated_file_is_read_again_from_the_start(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    path = root / "s1.jsonl"
    _write(path, _line("old-1", one), _line("old-2", one))
    sink = FakeSink()
    await _scan(root, [one], sink)

    path.write_text(_line("new", one))
    status = await _scan(root, [one], sink)

    assert sink.texts(str(one)) == ["old-1", "old-2", "new"]
    assert status.resets == {"truncated": 1}


async def test_replaced_file_while_running_is_read_from_the_start(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    path = root / "s1.jsonl"
    _write(path, _line("v1", one))
    sink = FakeSink()
    engine = _engine(root, [one], sink)
    await engine.start()
    try:
        await sink.wait_until(lambda: sink.texts(str(one)) == ["v1"])
        staging = root.parent / "staging.jsonl"
        staging.write_text(_line("v2-a", one) + _line("v2-b", one))
        staging.replace(path)
        await sink.wait_until(lambda: sink.texts(str(one)) == ["v1", "v2-a", "v2-b"])
    finally:
        await engine.stop()
    assert engine.status().resets == {"replaced": 1}


@pytest.mark.parametrize("into_a_folder", [False, True], ids=["deleted", "replaced-by-a-folder"])
async def test_deleted_file_is_counted_and_reading_goes_on(
    layout: tuple[Path, Path, Path], into_a_folder: bool
) -> None:
    root, one, _ = layout
    doomed = root / "doomed.jsonl"
    _write(doomed, _line("d1", one))
    sink = FakeSink()
    engine = _engine(root, [one], sink)
    await engine.start()
    try:
        await sink.wait_until(lambda: sink.texts(str(one)) == ["d1"])
        doomed.unlink()
        if into_a_folder:  # the transcript's name now a folder holding another transcript
            doomed.mkdir()
        _write((doomed if into_a_folder else root) / "other.jsonl", _line("o1", one))
        await sink.wait_until(lambda: sink.texts(str(one)) == ["d1", "o1"])
    finally:
        await engine.stop()
    assert engine.status().files_tracked == 1


async def test_whole_document_is_reparsed_and_only_new_messages_delivered(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    doc = root / "session-1.json"

    def message(i: int) -> dict[str, str]:
        return {"id": f"m{i}", "text": f"t{i}", "cwd": str(one)}

    doc.write_text(json.dumps([message(1), message(2)]))
    sink = FakeSink()
    await _scan(root, [one], sink)

    doc.write_text(json.dumps([message(1), message(2), message(3)]))
    await _scan(root, [one], sink)

    assert sink.texts(str(one)) == ["t1", "t2", "t3"]


async def test_start_waits_for_the_sink_cursors_before_reading(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    _write(root / "s1.jsonl", _line("a1", one))
    sink = FakeSink()
    await _scan(root, [one], sink)
    sink.down = True
    engine = _engine(root, [one], sink)
    await engine.start()
    try:
        await sink.wait_until(lambda: sink.failures >= 1)
        _write(root / "s1.jsonl", _line("a2", one))
        sink.down = False
        await sink.wait_until(lambda: sink.texts(str(one)) == ["a1", "a2"])
    finally:
        await engine.stop()


def _git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Dev",
        "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "Dev",
        "GIT_COMMITTER_EMAIL": "dev@example.com",
    }
    done = subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env
    )
    return done.stdout.strip()


def _parse_git(output: str, repo_root: str) -> list[Event]:
    events = []
    for line in output.splitlines():
        sha, stamp, message = line.split("\x1f")
        events.append(
            Event(
                source_tool=SourceTool.GIT,
                event_type=EventType.COMMIT,
                timestamp=datetime.fromisoformat(stamp),
                content={"sha": sha, "message": message},
                cwd=repo_root,
            )
        )
    return events


GIT_ARGS = ("log", "--format=%H%x1f%aI%x1f%s")


async def test_git_poller_returns_commits_after_the_last_seen_one(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "first")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "second")
    poller = GitPoller(GIT_ARGS, _parse_git)

    events, head = await poller.poll(str(repo), None)
    _git(repo, "commit", "-q", "--allow-empty", "-m", "third")
    later, newer = await poller.poll(str(repo), head)

    assert [e.content["message"] for e in events] == ["first", "second"]
    assert head == _git(repo, "rev-parse", "HEAD~1")
    assert [e.content["message"] for e in later] == ["third"]
    assert newer == _git(repo, "rev-parse", "HEAD")


async def test_git_poller_ignores_folders_that_are_not_repositories(tmp_path: Path) -> None:
    poller = GitPoller(GIT_ARGS, _parse_git)

    assert await poller.poll(str(tmp_path), None) == ([], None)


async def test_engine_delivers_commits_once_with_their_cursor(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    _git(one, "init", "-q")
    _git(one, "commit", "-q", "--allow-empty", "-m", "initial commit")
    sink = FakeSink()

    def engine() -> IngestEngine:
        return IngestEngine(
            {SourceTool.CLAUDE_CODE: [root]},
            ProjectRouter([one]),
            sink,
            parser_factory,
            _settings(),
            git_poller=GitPoller(GIT_ARGS, _parse_git),
        )

    first = engine()
    await first.start()
    try:
        await sink.wait_until(lambda: len(sink.events.get(str(one), [])) == 1)
    finally:
        await first.stop()
    await engine().scan_once()
    _git(one, "commit", "-q", "--allow-empty", "-m", "second commit")
    await engine().scan_once()

    assert [e.content["message"] for e in sink.events[str(one)]] == [
        "initial commit",
        "second commit",
    ]
    cursor = sink.cursors[str(one)][git_cursor_path(str(one))]
    assert cursor.extra["sha"] == _git(one, "rev-parse", "HEAD")


class ExplodingParser:
    skipped: Counter[str]

    def __init__(self) -> None:
        self.skipped = Counter()

    def feed(self, line: bytes, position: SourcePosition) -> list[Event]:
        raise RuntimeError("parser bug")


async def test_a_failing_parser_is_counted_and_other_files_still_flow(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    _write(root / "bad.jsonl", _line("never", one))
    _write(root / "good.jsonl", _line("fine", one))

    def factory(path: Path, source: SourceTool) -> LineParser | DocumentParser | None:
        return ExplodingParser() if path.name == "bad.jsonl" else parser_factory(path, source)

    sink = FakeSink()
    engine = IngestEngine(
        {SourceTool.CLAUDE_CODE: [root]}, ProjectRouter([one]), sink, factory, _settings()
    )
    await engine.scan_once()

    assert sink.texts(str(one)) == ["fine"]
    assert engine.status().skipped == {"read_error": 1}


CLAUDE_FIXTURE = Path(__file__).parents[2] / "fixtures" / "claude" / "incremental-simple"


def _claude_factory(path: Path, _source: SourceTool) -> LineParser | DocumentParser | None:
    from squirrel_ingest.parsers import line_parser_for  # noqa: PLC0415 - the real parsers

    return line_parser_for(str(path))


def _fingerprint(events: Sequence[Event]) -> list[tuple[str, str]]:
    return [(e.event_type.value, json.dumps(e.content, sort_keys=True)) for e in events]


async def test_real_transcript_read_in_torn_pieces_across_restarts_equals_one_read(
    tmp_path: Path,
) -> None:
    data = (CLAUDE_FIXTURE / "turn-2.jsonl").read_bytes()
    project = "/Users/User/repo/codemie-ai/codemie-code"

    def engine(root: Path, sink: FakeSink) -> IngestEngine:
        return IngestEngine(
            {SourceTool.CLAUDE_CODE: [root]},
            ProjectRouter([project]),
            sink,
            _claude_factory,
            _settings(),
        )

    whole_root = tmp_path / "whole" / "projects" / "-Users-User-repo"
    whole_root.mkdir(parents=True)
    (whole_root / "s.jsonl").write_bytes(data)
    whole = FakeSink()
    await engine(tmp_path / "whole", whole).scan_once()

    torn_root = tmp_path / "torn" / "projects" / "-Users-User-repo"
    torn_root.mkdir(parents=True)
    torn = FakeSink()
    for start in range(0, len(data), 9_973):  # pieces end mid-line
        _write_bytes(torn_root / "s.jsonl", data[start : start + 9_973])
        await engine(tmp_path / "torn", torn).scan_once()

    assert whole.events[project]
    assert _fingerprint(torn.events[project]) == _fingerprint(whole.events[project])


def _write_bytes(path: Path, data: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(data)


async def test_backlog_scan_reports_progress_per_file_and_a_final_done(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    for name in ("a", "b", "c"):
        _write(root / f"{name}.jsonl", _line(f"{name}1", one), _line(f"{name}2", one))
    progress: list[ScanProgress] = []

    final = await _engine(root, [one], FakeSink()).scan_once(on_progress=progress.append)

    assert [p.files_done for p in progress] == [1, 2, 3, 3]
    assert [p.done for p in progress] == [False, False, False, True]
    assert final == progress[-1]
    assert (final.files_total, final.lines, final.events) == (3, 6, 6)


async def test_scan_of_selected_sources_reads_only_their_roots(
    layout: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    root, one, _ = layout
    codex_root = tmp_path / "codex"
    _write(root / "claude.jsonl", _line("from-claude", one))
    _write(codex_root / "rollout.jsonl", _line("from-codex", one))
    sink = FakeSink()
    engine = IngestEngine(
        {SourceTool.CLAUDE_CODE: [root], SourceTool.CODEX: [codex_root]},
        ProjectRouter([one]),
        sink,
        parser_factory,
        _settings(),
    )

    await engine.scan_once(sources=[SourceTool.CODEX])

    assert sink.texts(str(one)) == ["from-codex"]
    status = engine.status()
    assert status.sources[SourceTool.CODEX].files_seen == 1
    assert status.sources[SourceTool.CLAUDE_CODE].files_seen == 0


async def test_status_counts_per_source_and_unregistered_folders(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    _write(
        root / "s.jsonl",
        _line("a1", one),
        _line("x1", "/not/registered"),
        _line("x2", "/not/registered"),
        "garbage\n",
    )
    engine = _engine(root, [one], FakeSink())

    await engine.scan_once()
    status = engine.status()

    claude = status.sources[SourceTool.CLAUDE_CODE]
    assert (claude.files_seen, claude.lines_read, claude.events_produced) == (1, 4, 3)
    assert claude.events_delivered == 1
    assert claude.skipped == {"malformed_json": 1}
    assert status.unregistered_projects == {"/not/registered": 2}
    assert status.last_delivery_at is not None
    assert status.buffered_events == 0


async def test_watched_sources_lists_each_root_and_whether_it_exists(
    layout: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    root, one, _ = layout
    _write(root / "s.jsonl", _line("a1", one))
    missing = tmp_path / "no-such-root"
    engine = IngestEngine(
        {SourceTool.CLAUDE_CODE: [root], SourceTool.GEMINI_CLI: [missing]},
        ProjectRouter([one]),
        FakeSink(),
        parser_factory,
        _settings(),
    )
    await engine.scan_once()

    assert sorted(engine.watched_sources(), key=lambda w: w.root) == sorted(
        [
            WatchedRoot(SourceTool.CLAUDE_CODE, str(root), exists=True, files=1),
            WatchedRoot(SourceTool.GEMINI_CLI, str(missing), exists=False, files=0),
        ],
        key=lambda w: w.root,
    )


async def test_a_parser_factory_that_fails_is_counted_and_other_files_still_flow(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, _ = layout
    _write(root / "boom.jsonl", _line("never", one))
    _write(root / "good.jsonl", _line("fine", one))

    def factory(path: Path, source: SourceTool) -> LineParser | DocumentParser | None:
        if path.name == "boom.jsonl":
            raise RuntimeError("constructor bug")
        return parser_factory(path, source)

    sink = FakeSink()
    engine = IngestEngine(
        {SourceTool.CLAUDE_CODE: [root]}, ProjectRouter([one]), sink, factory, _settings()
    )
    await engine.scan_once()

    assert sink.texts(str(one)) == ["fine"]
    assert engine.status().skipped == {"read_error": 1}


async def test_status_counts_events_delivered_before_a_restart_and_never_twice(
    layout: tuple[Path, Path, Path],
) -> None:
    root, one, two = layout
    _write(root / "s1.jsonl", _line("a1", one), _line("a2", one), _line("b1", two))
    sink = FakeSink()
    first = await _scan(root, [one], sink)
    assert first.sources[SourceTool.CLAUDE_CODE].events_delivered == 2

    # A restart: the file is already delivered, nothing is read again, and status still says
    # that its events were delivered.
    again = await _scan(root, [one], sink)
    counters = again.sources[SourceTool.CLAUDE_CODE]
    assert (counters.lines_read, counters.events_delivered) == (0, 2)

    # A project registered later gets its own events; the file is read again for it, and the
    # events the first project already has are not counted a second time.
    engine = _engine(root, [one], sink)
    await engine.scan_once()
    await engine.update_projects([one, two])
    await engine.scan_once()
    counters = engine.status().sources[SourceTool.CLAUDE_CODE]
    assert sink.texts(str(two)) == ["b1"]
    assert counters.events_produced == 3 and counters.events_delivered == 3
    _write(root / "s1.jsonl", _line("a3", one))
    await engine.scan_once()
    assert engine.status().sources[SourceTool.CLAUDE_CODE].events_delivered == 4
    assert sink.cursors[str(one)][str(root / "s1.jsonl")].extra["delivered"] == 3


async def test_repeated_backlog_scans_read_only_what_changed_in_many_files(
    layout: tuple[Path, Path, Path],
) -> None:
    """A caught-up home's files are checked many at a time; the ones that changed, anywhere in
    the list, are still read to their end, once."""
    root, one, _ = layout
    paths = [root / f"s{n:03}.jsonl" for n in range(150)]
    for n, path in enumerate(paths):
        _write(path, _line(f"{n}-a", one))
    _write(paths[7], '{"text": "7-tail')  # a line not finished yet
    sink = FakeSink()
    engine = _engine(root, [one], sink)
    await engine.scan_once()
    again: list[ScanProgress] = []
    nothing = await engine.scan_once(on_progress=again.append)

    _write(paths[7], f'", "cwd": "{one}"}}\n')
    _write(paths[70], _line("70-b", one))
    _write(paths[149], _line("149-b", one))
    final = await engine.scan_once()

    assert (nothing.lines, nothing.events, nothing.files_done) == (0, 0, 150)
    assert [p.files_done for p in again] == [*range(1, 151), 150]
    assert [p.done for p in again] == [False] * 150 + [True]
    assert sorted(sink.texts(str(one))) == sorted(
        [f"{n}-a" for n in range(150)] + ["7-tail", "70-b", "149-b"]
    )
    assert (final.events, final.files_done) == (3, 150)
