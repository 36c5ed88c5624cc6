"""The tail reader returns complete new lines, survives rewrites and deletion, and bounds memory."""

from __future__ import annotations

import io
import os
import tracemalloc
from pathlib import Path

import pytest

from squirrel_ingest import tail
from squirrel_ingest.tail import FilePosition, ResetReason, read_complete_lines
from tests.pipes import finished_on, make_fifo


def _append(path: Path, data: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(data)


def test_complete_lines_are_returned_with_their_end_offsets(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":2}\n')

    read = read_complete_lines(path, None)

    assert read.lines == [(b'{"a":1}', 8), (b'{"b":2}', 16)]
    assert read.cursor == FilePosition(inode=path.stat().st_ino, offset=16)
    assert read.reset_reason is None
    assert read.at_end


def test_half_written_line_is_read_once_complete(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":')

    first = read_complete_lines(path, None)
    _append(path, b"2}\n")
    second = read_complete_lines(path, first.cursor)

    assert first.lines == [(b'{"a":1}', 8)]
    assert first.cursor is not None and first.cursor.offset == 8
    assert second.lines == [(b'{"b":2}', 16)]
    assert second.cursor is not None and second.cursor.offset == 16


def test_reading_again_without_changes_returns_nothing(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"one\n")
    first = read_complete_lines(path, None)

    again = read_complete_lines(path, first.cursor)

    assert again.lines == []
    assert again.cursor == first.cursor


def test_truncated_file_restarts_from_the_beginning(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"first line\nsecond line\n")
    first = read_complete_lines(path, None)
    path.write_bytes(b"new\n")

    again = read_complete_lines(path, first.cursor)

    assert again.reset_reason is ResetReason.TRUNCATED
    assert again.lines == [(b"new", 4)]


def test_replaced_file_restarts_from_the_beginning(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"old line\n")
    first = read_complete_lines(path, None)
    replacement = tmp_path / "b.jsonl"
    replacement.write_bytes(b"old line\nplus more\n")
    replacement.replace(path)

    again = read_complete_lines(path, first.cursor)

    assert again.reset_reason is ResetReason.REPLACED
    assert [line for line, _ in again.lines] == [b"old line", b"plus more"]


def test_deleted_file_gives_a_missing_result_and_keeps_the_cursor(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"line\n")
    first = read_complete_lines(path, None)
    path.unlink()

    gone = read_complete_lines(path, first.cursor)

    assert gone.missing
    assert gone.lines == []
    assert gone.cursor == first.cursor


def test_directory_in_place_of_a_file_is_reported_missing(tmp_path: Path) -> None:
    assert read_complete_lines(tmp_path, None).missing


def test_a_link_is_not_followed_out_of_its_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside.jsonl"
    outside.write_bytes(b'{"secret": 1}\n')
    watched = tmp_path / "watched"
    watched.mkdir()
    (watched / "link.jsonl").symlink_to(outside)

    read = read_complete_lines(watched / "link.jsonl", None)

    assert read.missing and read.lines == []


def test_a_named_pipe_where_a_transcript_was_is_skipped_without_waiting(tmp_path: Path) -> None:
    fifo = make_fifo(tmp_path / "a.jsonl")
    cursor = FilePosition(inode=7, offset=16)

    read = finished_on(fifo, lambda: read_complete_lines(fifo, cursor))

    assert read.missing and read.lines == []
    assert read.cursor == cursor  # nothing read, nothing lost: the cursor stays


def test_a_file_truncated_while_it_is_read_keeps_what_was_complete_then_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"aaaa\nbbbbbbbb\n")

    class TruncatedUnderTheReader(io.FileIO):
        def read(self, size: int = -1) -> bytes:
            data = super().read(size)
            os.truncate(path, 0)  # another process truncates the file mid-read
            return data or b""

    monkeypatch.setattr(tail, "open_transcript", lambda p: TruncatedUnderTheReader(p, "r"))
    first = read_complete_lines(path, None, chunk_bytes=8)
    monkeypatch.undo()
    path.write_bytes(b"new\n")
    second = read_complete_lines(path, first.cursor)

    assert [line for line, _ in first.lines] == [b"aaaa"]  # the half line waits
    assert first.cursor is not None and first.cursor.offset == 5
    assert second.reset_reason is ResetReason.TRUNCATED
    assert [line for line, _ in second.lines] == [b"new"]


def test_zero_byte_file_reads_nothing(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")

    read = read_complete_lines(path, None)

    assert read.lines == []
    assert read.cursor is not None and read.cursor.offset == 0
    assert not read.missing


def test_crlf_line_endings_are_stripped(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"one\r\ntwo\r\n")

    read = read_complete_lines(path, None)

    assert [line for line, _ in read.lines] == [b"one", b"two"]


def test_line_at_the_cap_is_kept_and_one_byte_more_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"x" * 10 + b"\n" + b"y" * 11 + b"\nz\n")

    read = read_complete_lines(path, None, max_line_bytes=10, chunk_bytes=4)

    assert [line for line, _ in read.lines] == [b"x" * 10, b"z"]
    assert read.oversized == 1
    assert read.cursor is not None and read.cursor.offset == path.stat().st_size


def test_five_megabyte_line_is_skipped_and_counted_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    huge = 12 * 1024 * 1024
    with path.open("wb") as handle:
        handle.write(b"before\n")
        block = b"A" * (1024 * 1024)
        for _ in range(huge // len(block)):
            handle.write(block)
        handle.write(b"\nafter\n")

    tracemalloc.start()
    try:
        read = read_complete_lines(path, None, max_line_bytes=5 * 1024 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert [line for line, _ in read.lines] == [b"before", b"after"]
    assert read.oversized == 1
    assert read.cursor is not None and read.cursor.offset == path.stat().st_size
    assert peak < 8 * 1024 * 1024  # the line itself is 12 MB


def test_oversized_line_still_being_written_keeps_the_cursor_before_it(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"ok\n" + b"B" * 50)

    first = read_complete_lines(path, None, max_line_bytes=10, chunk_bytes=8)
    _append(path, b"\nnext\n")
    second = read_complete_lines(path, first.cursor, max_line_bytes=10, chunk_bytes=8)

    assert first.oversized == 0
    assert first.cursor is not None and first.cursor.offset == 3
    assert second.oversized == 1
    assert [line for line, _ in second.lines] == [b"next"]


def test_read_stops_after_max_read_bytes_and_continues_later(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"".join(b"line %03d\n" % i for i in range(100)))

    lines: list[bytes] = []
    cursor = None
    calls = 0
    while True:
        read = read_complete_lines(path, cursor, chunk_bytes=64, max_read_bytes=128)
        lines.extend(line for line, _ in read.lines)
        cursor = read.cursor
        calls += 1
        if read.at_end:
            break

    assert lines == [b"line %03d" % i for i in range(100)]
    assert calls > 1


@pytest.mark.parametrize("limit", ["max_line_bytes", "chunk_bytes", "max_read_bytes"])
def test_non_positive_limits_are_rejected(tmp_path: Path, limit: str) -> None:
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"x\n")
    limits = {"max_line_bytes": 10, "chunk_bytes": 10, "max_read_bytes": 10, limit: 0}

    with pytest.raises(ValueError):
        read_complete_lines(
            path,
            None,
            limits["max_line_bytes"],
            chunk_bytes=limits["chunk_bytes"],
            max_read_bytes=limits["max_read_bytes"],
        )
