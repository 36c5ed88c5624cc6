"""Reading transcript files: the parser contracts, and one bounded, redacted read of a file."""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from squirrel_core.events import Event, SourceCursor, SourcePosition, SourceTool
from squirrel_core.redaction import redact_value
from squirrel_ingest.cursor.reader import CursorRead, CursorReader
from squirrel_ingest.tail import FilePosition, ResetReason, open_transcript, read_complete_lines

PARSER_STATE_KEY = "parser_state"
DOCUMENT_KEY = "document"


class LineParser(Protocol):
    """A stateful parser of one append-only transcript file, fed one complete line at a time."""

    @property
    def skipped(self) -> Mapping[str, int]: ...

    def feed(self, line: bytes, position: SourcePosition) -> list[Event]: ...


@runtime_checkable
class DocumentParser(Protocol):
    """A parser of a file rewritten whole on each update (Gemini CLI's legacy `session-*.json`)."""

    @property
    def skipped(self) -> Mapping[str, int]: ...

    def parse_document(self, data: bytes, position: SourcePosition) -> list[Event]: ...


@runtime_checkable
class StatefulParser(Protocol):
    """A parser whose memory (e.g. tool calls awaiting results) can travel in a cursor's `extra`."""

    def export_state(self) -> dict[str, Any]: ...

    def restore_state(self, state: dict[str, Any]) -> None: ...


ParserFactory = Callable[[Path, SourceTool], "LineParser | DocumentParser | None"]
"""Returns a fresh parser for a file under a root of the given source, or None to ignore it."""


@dataclass(frozen=True, slots=True)
class ReadLimits:
    """How much one read may take (from `EngineSettings`)."""

    max_line_bytes: int
    read_chunk_bytes: int
    max_read_bytes: int
    max_document_bytes: int


@dataclass(slots=True)
class TrackedFile:
    """A transcript file being read: its parser and how far it has been read."""

    path: Path
    key: str
    source: SourceTool
    parser: LineParser | DocumentParser
    position: FilePosition | None = None
    seen: tuple[int, int, int] | None = None  # (inode, size, mtime_ns) after the last full read


@dataclass(slots=True)
class ReadPass:
    """What one read of one file produced (computed off the event loop)."""

    events: list[Event] = field(default_factory=list)
    cursors: list[SourceCursor] = field(default_factory=list)
    lines: int = 0
    bytes: int = 0
    redactions: int = 0
    oversized: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    reset: ResetReason | None = None
    missing: bool = False
    at_end: bool = True


def new_parser(
    factory: ParserFactory, path: Path, source: SourceTool, state_from: SourceCursor | None
) -> LineParser | DocumentParser | None:
    """A fresh parser for `path`, carrying on from the parser state saved in `state_from`."""
    parser = factory(path, source)
    if parser is not None and state_from is not None and isinstance(parser, StatefulParser):
        state = state_from.extra.get(PARSER_STATE_KEY)
        if isinstance(state, dict):
            parser.restore_state(state)
    return parser


def read_lines(tracked: TrackedFile, factory: ParserFactory, limits: ReadLimits) -> ReadPass:
    """One bounded read of new complete lines, parsed and redacted (runs in a worker)."""
    read = read_complete_lines(
        tracked.path,
        tracked.position,
        limits.max_line_bytes,
        chunk_bytes=limits.read_chunk_bytes,
        max_read_bytes=limits.max_read_bytes,
    )
    if read.missing or read.cursor is None:
        return ReadPass(missing=True)
    if read.reset_reason is not None:
        fresh = new_parser(factory, tracked.path, tracked.source, None)
        if fresh is not None:
            tracked.parser = fresh
    parser = tracked.parser
    assert not isinstance(parser, DocumentParser)
    before = Counter(parser.skipped)
    events: list[Event] = []
    inode = read.cursor.inode
    for line, end in read.lines:
        events.extend(
            parser.feed(line, SourcePosition(path=tracked.key, inode=inode, end_offset=end))
        )
    result = ReadPass(
        lines=len(read.lines),
        bytes=sum(len(line) for line, _ in read.lines),
        oversized=read.oversized,
        reset=read.reset_reason,
        at_end=read.at_end,
    )
    result.skipped = Counter(parser.skipped)
    result.skipped.subtract(before)
    result.events, result.redactions = redacted(events)
    moved = read.cursor.offset != (tracked.position.offset if tracked.position else 0)
    if moved or read.reset_reason is not None:
        state = parser.export_state() if isinstance(parser, StatefulParser) else None
        result.cursors = [
            SourceCursor(
                source_tool=tracked.source,
                path=tracked.key,
                inode=inode,
                offset=read.cursor.offset,
                extra={PARSER_STATE_KEY: state} if state is not None else {},
            )
        ]
    tracked.position = read.cursor
    tracked.seen = (inode, read.size, read.mtime_ns) if read.at_end else None
    return result


def read_document(tracked: TrackedFile, limits: ReadLimits) -> ReadPass:
    """Parse a whole rewritten document when it changed (runs in a worker)."""
    parser = tracked.parser
    assert isinstance(parser, DocumentParser)
    try:
        with open_transcript(tracked.path) as handle:
            stat = os.fstat(handle.fileno())
            if stat.st_size > limits.max_document_bytes:
                tracked.seen = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
                return ReadPass(skipped=Counter({"document_too_large": 1}))
            data = handle.read()
    except OSError:
        return ReadPass(missing=True)
    before = Counter(parser.skipped)
    position = SourcePosition(path=tracked.key, inode=stat.st_ino, end_offset=len(data))
    events = parser.parse_document(data, position)
    result = ReadPass(lines=1, bytes=len(data))
    result.skipped = Counter(parser.skipped)
    result.skipped.subtract(before)
    result.events, result.redactions = redacted(events)
    extra: dict[str, Any] = {DOCUMENT_KEY: True}
    if isinstance(parser, StatefulParser):
        extra[PARSER_STATE_KEY] = parser.export_state()
    result.cursors = [
        SourceCursor(
            source_tool=tracked.source,
            path=tracked.key,
            inode=stat.st_ino,
            offset=len(data),
            extra=extra,
        )
    ]
    tracked.position = FilePosition(stat.st_ino, len(data))
    tracked.seen = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    return result


def read_pass(tracked: TrackedFile, factory: ParserFactory, limits: ReadLimits) -> ReadPass:
    """One read of a tracked file: the whole document, or its new complete lines (runs in a
    worker)."""
    if isinstance(tracked.parser, DocumentParser):
        return read_document(tracked, limits)
    return read_lines(tracked, factory, limits)


def read_unchanged(
    files: Sequence[TrackedFile], factory: ParserFactory, limits: ReadLimits
) -> list[tuple[TrackedFile, ReadPass | Exception]]:
    """Reads, in order, the line files among `files` unchanged since they were read to their
    end, until one has news (events, or more to read); each read's outcome, or the error it
    raised (runs in a worker: one hop for most files of a caught-up home)."""
    done: list[tuple[TrackedFile, ReadPass | Exception]] = []
    for tracked in files:
        if tracked.seen is None or isinstance(tracked.parser, DocumentParser):
            continue
        if stat_key(tracked.path) != tracked.seen:
            continue
        try:
            result = read_lines(tracked, factory, limits)
        except Exception as error:  # the caller handles it as any failed read
            done.append((tracked, error))
            continue
        done.append((tracked, result))
        if result.events or not result.at_end:
            break  # it had news after all: the rest wait for room one by one
    return done


def read_cursor(reader: CursorReader, floors: Mapping[str, SourceCursor | None]) -> ReadPass:
    """One bounded poll of Cursor's chats past `floors`, redacted (runs in a worker)."""
    read: CursorRead = reader.poll(floors)
    events, redactions = redacted(read.events)
    return ReadPass(
        events=events,
        cursors=read.cursors,
        lines=read.bubbles,
        bytes=read.bytes,
        redactions=redactions,
        skipped=read.skipped,
        at_end=read.at_end,
    )


def stat_key(path: Path) -> tuple[int, int, int] | None:
    """(inode, size, mtime_ns) of a file, or None when it cannot be read."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


def redacted(events: list[Event]) -> tuple[list[Event], int]:
    """The events with secrets redacted from their content (and from the shorter form a kept
    event is known by, `Event.first`), and how many were redacted from their content."""
    out: list[Event] = []
    total = 0
    for event in events:
        content, count = redact_value(event.content)
        total += count
        if event.first is not None:  # the shorter form the event is known by, redacted alike
            first = redact_value(event.first)[0]
            out.append(dataclasses.replace(event, content=content, first=first))
            continue
        out.append(dataclasses.replace(event, content=content) if count else event)
    return out, total
