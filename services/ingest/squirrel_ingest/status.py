"""What the ingest engine reports: counters per source, scan progress, watched roots."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from squirrel_core.events import SourceTool


@dataclass(frozen=True, slots=True)
class SourceCounters:
    """Counters of one source since start.

    Duplicates and rejections are reported by the sink per delivery; a delivery that mixes
    sources has them counted under the source with most events in it.
    """

    files_seen: int = 0
    lines_read: int = 0
    bytes_read: int = 0
    events_produced: int = 0
    events_delivered: int = 0
    duplicates: int = 0
    rejected: int = 0
    redactions: int = 0
    skipped: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class IngestStatus:
    """Counters for `sqrl status`; ids, paths of unregistered projects and counts, never text."""

    running: bool
    sources: dict[SourceTool, SourceCounters]
    buffered_events: int
    unregistered_projects: dict[str, int]
    unregistered_records: int
    records_without_cwd: int
    delivery_failures: int
    last_delivery_error: str | None
    last_delivery_at: datetime | None
    files_tracked: int
    files_missing: int
    resets: dict[str, int]
    events_already_delivered: int

    @property
    def lines_read(self) -> int:
        """Lines read over every source."""
        return sum(c.lines_read for c in self.sources.values())

    @property
    def events_produced(self) -> int:
        """Events parsed over every source."""
        return sum(c.events_produced for c in self.sources.values())

    @property
    def events_delivered(self) -> int:
        """Events handed to the sink over every source."""
        return sum(c.events_delivered for c in self.sources.values())

    @property
    def skipped(self) -> dict[str, int]:
        """Skipped records by reason over every source."""
        total: Counter[str] = Counter()
        for counters in self.sources.values():
            total.update(counters.skipped)
        return dict(total)

    @property
    def redactions(self) -> dict[str, int]:
        """Redactions per source (sources with none left out)."""
        return {s.value: c.redactions for s, c in self.sources.items() if c.redactions}


@dataclass(frozen=True, slots=True)
class ScanProgress:
    """Progress of `scan_once` (a backlog import or a rescan), counted from its start."""

    files_total: int = 0
    files_done: int = 0
    lines: int = 0
    events: int = 0
    duplicates: int = 0
    rejected: int = 0
    redactions: int = 0
    bytes_read: int = 0
    done: bool = False


@dataclass(frozen=True, slots=True)
class WatchedRoot:
    """One configured root: whether it exists and how many transcript files it holds."""

    source_tool: SourceTool
    root: str
    exists: bool
    files: int
