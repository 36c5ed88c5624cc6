"""What the ingest engine has counted: per source what it read, produced, delivered and skipped;
file resets and delivery failures; and the scan progress and status counters made of them."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from squirrel_core.events import Event, SourceTool
from squirrel_ingest.delivery import DeliveryResult
from squirrel_ingest.reading import ReadPass
from squirrel_ingest.status import ScanProgress, SourceCounters

PROGRESS_KEYS = ("lines", "events", "duplicates", "rejected", "redactions", "bytes")


class Tally:
    """The engine's counters (all touched on the event loop only)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.per_source: defaultdict[SourceTool, Counter[str]] = defaultdict(Counter)
        self.skipped: defaultdict[SourceTool, Counter[str]] = defaultdict(Counter)
        self.resets: Counter[str] = Counter()
        self.last_error: str | None = None
        self.last_delivery_at: datetime | None = None

    def totals(self) -> dict[str, int]:
        """The progress counters summed over every source."""
        return {key: sum(c[key] for c in self.per_source.values()) for key in PROGRESS_KEYS}

    def progress(
        self, baseline: Mapping[str, int], files_total: int, files_done: int, *, done: bool
    ) -> ScanProgress:
        """A scan's progress: what was counted since `baseline` (its `totals()` at the start)."""
        now = self.totals()
        delta = {key: now[key] - baseline[key] for key in now}
        return ScanProgress(
            files_total=files_total,
            files_done=files_done,
            lines=delta["lines"],
            events=delta["events"],
            duplicates=delta["duplicates"],
            rejected=delta["rejected"],
            redactions=delta["redactions"],
            bytes_read=delta["bytes"],
            done=done,
        )

    def read(self, source: SourceTool, result: ReadPass) -> None:
        """Counts what one read of `source` produced and skipped."""
        counts = self.per_source[source]
        counts["lines"] += result.lines
        counts["bytes"] += result.bytes
        counts["events"] += len(result.events)
        counts["redactions"] += result.redactions
        skipped = self.skipped[source]
        if result.oversized:
            skipped["oversized_line"] += result.oversized
        skipped.update({k: v for k, v in result.skipped.items() if v > 0})

    def delivered(self, events: Sequence[Event], result: DeliveryResult) -> None:
        """Counts a delivery the sink took; its duplicates and rejects go to its main source."""
        self.last_delivery_at = datetime.now(UTC)
        by_source = Counter(event.source_tool for event in events)
        for source, count in by_source.items():
            self.per_source[source]["delivered"] += count
        if by_source:
            main = self.per_source[by_source.most_common(1)[0][0]]
            main["duplicates"] += result.duplicates
            main["rejected"] += result.rejected

    def delivery_failed(self, error: BaseException) -> None:
        self.counts["delivery_failures"] += 1
        self.last_error = type(error).__name__

    def sources(
        self,
        configured: Iterable[SourceTool],
        files_seen: Counter[SourceTool],
        delivered: Counter[SourceTool],
    ) -> dict[SourceTool, SourceCounters]:
        """The counters of every source configured, counted, seen or delivered."""
        return {
            source: SourceCounters(
                files_seen=files_seen[source],
                lines_read=counts["lines"],
                bytes_read=counts["bytes"],
                events_produced=counts["events"],
                events_delivered=max(counts["delivered"], delivered[source]),
                duplicates=counts["duplicates"],
                rejected=counts["rejected"],
                redactions=counts["redactions"],
                skipped={k: v for k, v in self.skipped[source].items() if v > 0},
            )
            for source in {*configured, *self.per_source, *files_seen, *delivered}
            for counts in (self.per_source[source],)
        }
