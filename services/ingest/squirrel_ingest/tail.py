"""Byte-cursor line reader: complete new lines of an append-only file, in bounded memory."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from enum import StrEnum
from typing import BinaryIO, Final

import structlog

from squirrel_core.regular_files import NotAFileError, open_regular

DEFAULT_MAX_LINE_BYTES: Final = 5 * 1024 * 1024
DEFAULT_CHUNK_BYTES: Final = 1024 * 1024
DEFAULT_MAX_READ_BYTES: Final = 8 * 1024 * 1024

log = structlog.get_logger()


class ResetReason(StrEnum):
    """Why reading restarted from the beginning of a file."""

    TRUNCATED = "truncated"  # the file is now shorter than the cursor
    REPLACED = "replaced"  # another file (inode) now lives at the path


@dataclass(frozen=True, slots=True)
class FilePosition:
    """Where reading stopped in one file: its inode and the byte offset just past the last line."""

    inode: int
    offset: int


@dataclass(frozen=True, slots=True)
class TailRead:
    """The outcome of one read.

    `lines` holds complete lines (without the trailing `\\n` or `\\r\\n`) with the
    offset just past each one. `cursor` is where the next read starts (for a missing file, the
    cursor passed in). `oversized` counts lines longer than the cap that were skipped. `at_end` is
    False when the read stopped early at `max_read_bytes` and more complete lines may follow.
    """

    lines: list[tuple[bytes, int]] = field(default_factory=list)
    cursor: FilePosition | None = None
    reset_reason: ResetReason | None = None
    oversized: int = 0
    missing: bool = False
    at_end: bool = True
    size: int = 0
    mtime_ns: int = 0


def read_complete_lines(
    path: str | os.PathLike[str],
    cursor: FilePosition | None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    *,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    max_read_bytes: int = DEFAULT_MAX_READ_BYTES,
) -> TailRead:
    """Read the complete lines after `cursor` (from 0 when None, truncated or replaced).

    A last line without its newline is left for a later read and the cursor stays before it.
    Lines longer than `max_line_bytes` are skipped and counted; the cursor moves past them, and
    memory stays bounded by `chunk_bytes` plus `max_line_bytes`. A missing or unreadable file gives
    `missing=True` and keeps the cursor, and so do a link, a pipe and a device (`open_transcript`,
    never waited on). At most about `max_read_bytes` are consumed per call.
    """
    if max_line_bytes <= 0 or chunk_bytes <= 0 or max_read_bytes <= 0:
        raise ValueError("byte limits must be positive")
    limits = _Limits(max_line_bytes, chunk_bytes, max_read_bytes)
    try:
        with open_transcript(path) as handle:
            return _read(handle, cursor, limits)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError):
        return TailRead(cursor=cursor, missing=True)
    except NotAFileError:
        log.warning("transcript_not_a_file")  # a pipe or a device: never waited on nor read
        return TailRead(cursor=cursor, missing=True)
    except OSError as exc:
        if exc.errno != errno.ELOOP:  # a link: not read, as if missing
            raise
        return TailRead(cursor=cursor, missing=True)


def open_transcript(path: str | os.PathLike[str]) -> BinaryIO:
    """`path` opened for reading as bytes. A link (`OSError` ELOOP) is refused: a link in a
    watched folder may point anywhere on the machine, and nothing from outside the folder is
    read. So are a folder (`IsADirectoryError`) and a pipe or a device (`NotAFileError`),
    without waiting on them (`open_regular`)."""
    return open_regular(path, follow_links=False)


@dataclass(frozen=True, slots=True)
class _Limits:
    max_line_bytes: int
    chunk_bytes: int
    max_read_bytes: int


def _read(handle: BinaryIO, cursor: FilePosition | None, limits: _Limits) -> TailRead:
    stat = os.fstat(handle.fileno())
    inode, size, mtime_ns = stat.st_ino, stat.st_size, stat.st_mtime_ns
    start = 0
    reset: ResetReason | None = None
    if cursor is not None:
        if cursor.inode != inode:
            reset = ResetReason.REPLACED
        elif size < cursor.offset:
            reset = ResetReason.TRUNCATED
        else:
            start = cursor.offset
    handle.seek(start)
    lines: list[tuple[bytes, int]] = []
    oversized = 0
    committed = start  # offset just past the last complete line handled
    position = start  # offset of the next byte to read
    pending = bytearray()  # bytes of the current, not yet complete line
    skipping = False  # inside a line already known to be too long
    consumed = 0
    at_end = True
    while True:
        if consumed >= limits.max_read_bytes and committed > start and not skipping:
            at_end = False
            break
        chunk = handle.read(limits.chunk_bytes)
        if not chunk:
            break
        consumed += len(chunk)
        cut = 0
        while (newline := chunk.find(b"\n", cut)) != -1:
            end = position + newline + 1
            if skipping or len(pending) + (newline - cut) > limits.max_line_bytes:
                oversized += 1
            else:
                pending += chunk[cut:newline]
                line = bytes(pending)
                lines.append((line[:-1] if line.endswith(b"\r") else line, end))
            pending.clear()
            skipping = False
            committed = end
            cut = newline + 1
        if not skipping:
            if len(pending) + len(chunk) - cut > limits.max_line_bytes:
                skipping = True
                pending.clear()
            else:
                pending += chunk[cut:]
        position += len(chunk)
    return TailRead(
        lines=lines,
        cursor=FilePosition(inode=inode, offset=committed),
        reset_reason=reset,
        oversized=oversized,
        at_end=at_end,
        size=size,
        mtime_ns=mtime_ns,
    )
