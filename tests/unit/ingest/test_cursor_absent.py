"""Cursor not installed is not a problem: its folders missing log nothing, however often the
ingest service polls; a store that is there but unreadable is still a warning, once."""

from __future__ import annotations

from pathlib import Path

from structlog.testing import capture_logs

from squirrel_core.events import SourceTool
from squirrel_ingest.cursor.reader import CursorReader
from squirrel_ingest.engine import EngineSettings, IngestEngine
from squirrel_ingest.routing import ProjectRouter
from tests.unit.ingest.test_engine import FakeSink


def _polled(reader: CursorReader, times: int) -> list[dict[str, object]]:
    with capture_logs() as logs:
        for _ in range(times):
            reader.poll({})
    return logs


def test_cursor_not_installed_logs_nothing_on_any_poll(tmp_path: Path) -> None:
    roots = [tmp_path / p / "Cursor" / "User" for p in ("linux", "mac", "windows")]
    reader = CursorReader(roots)

    first = reader.poll({})
    logs = _polled(reader, 3)

    assert logs == []
    assert first.skipped == {"store_missing": 3}  # still counted for `sqrl status`
    assert reader.poll({}).skipped == {}


async def test_a_missing_store_is_counted_once_not_at_every_look(tmp_path: Path) -> None:
    """`sqrl status` counted `store_missing` at every look (every 5 s, for each of Cursor's
    three default folders): thousands a day on a machine without Cursor. Once per store, and
    once more only when a store that was there is gone again."""
    root = tmp_path / "Cursor" / "User"
    reader = CursorReader([root])
    engine = IngestEngine(
        {},
        ProjectRouter([]),
        FakeSink(),
        lambda _path, _source: None,
        EngineSettings(batch_age_s=0.02),
        cursor_reader=reader,
    )

    for _ in range(3):
        await engine.scan_once()

    assert engine.status().sources[SourceTool.CURSOR].skipped == {"store_missing": 1}


def test_cursor_installed_without_its_store_yet_is_one_info_line(tmp_path: Path) -> None:
    root = tmp_path / "Cursor" / "User"
    root.mkdir(parents=True)

    logs = _polled(CursorReader([root]), 3)

    assert [(e["event"], e["log_level"]) for e in logs] == [("cursor_store_missing", "info")]


def test_a_store_that_is_not_a_database_is_still_one_warning(tmp_path: Path) -> None:
    store = tmp_path / "User" / "globalStorage" / "state.vscdb"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"garbage" * 100)

    logs = _polled(CursorReader([tmp_path / "User"]), 3)

    assert [(e["event"], e["log_level"], e["reason"]) for e in logs] == [
        ("cursor_store_unreadable", "warning", "store_not_a_database")
    ]
