"""Cursor not installed is not a problem: its folders missing log nothing, however often the
ingest service polls; a store that is there but unreadable is still a warning, once."""

from __future__ import annotations

from pathlib import Path

from structlog.testing import capture_logs

from squirrel_ingest.cursor.reader import CursorReader


def _polled(reader: CursorReader, times: int) -> list[dict[str, object]]:
    with capture_logs() as logs:
        for _ in range(times):
            reader.poll({})
    return logs


def test_cursor_not_installed_logs_nothing_on_any_poll(tmp_path: Path) -> None:
    roots = [tmp_path / p / "Cursor" / "User" for p in ("linux", "mac", "windows")]
    reader = CursorReader(roots)

    logs = _polled(reader, 3)

    assert logs == []
    assert reader.poll({}).skipped == {"store_missing": 3}  # still counted for `sqrl status`


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
