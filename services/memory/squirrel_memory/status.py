"""What the processing status reports: a project's counts, its parked work and recent activity,
and the extraction model's recent use."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from squirrel_core.errors import SquirrelError
from squirrel_memory.processor import Processor
from squirrel_memory.storage import DeadLetter, SqliteStore, Store

MAX_PARKED_LISTED = 50
"""Dead letters a status lists per project (all are counted)."""
ACTIVITY_DAYS = 30
"""Days of events per day a status reports."""


@dataclass(frozen=True)
class ProjectStatus:
    project_id: str
    events_total: int
    events_unprocessed: int
    episodes_total: int
    memories_live: int
    memories_deleted: int
    dead_letters: int
    last_processed_at: datetime | None
    extractor: str
    next_processing_at: datetime | None = None
    memories_by_writer: dict[str, int] = field(default_factory=dict)
    parked: tuple[DeadLetter, ...] = ()
    events_per_day: dict[str, int] = field(default_factory=dict)
    write_failure: str = ""
    """Why the store refused its last write (disk full, read-only), until one succeeds."""
    write_failed_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ExtractorActivity:
    backend: str
    model: str
    calls_last_hour: int
    tokens_last_day: int
    failures: int
    sends_to_vendor: bool


async def project_status(project_id: str, store: Store, processor: Processor) -> ProjectStatus:
    """One project's status, read from its store and the processor; a store that cannot be
    read while it refuses writes (its mapped index cut short) still says why, with no counts."""
    refused = store.write_failure() if isinstance(store, SqliteStore) else None
    try:
        counts = await store.counts()
    except SquirrelError:
        if not refused:
            raise
        return ProjectStatus(
            project_id,
            0,
            0,
            0,
            0,
            0,
            0,
            None,
            processor.extractor_name,
            write_failure=refused[0],
            write_failed_at=datetime.fromtimestamp(refused[1], UTC),
        )
    return ProjectStatus(
        project_id=project_id,
        events_total=counts["events"],
        events_unprocessed=counts["events_unprocessed"],
        episodes_total=counts["episodes"],
        memories_live=counts["memories_live"],
        memories_deleted=counts["memories_deleted"],
        dead_letters=counts["dead_letters"],
        last_processed_at=processor.last_processed_at.get(project_id),
        extractor=processor.extractor_name,
        next_processing_at=await processor.readiness.next_processing_at(store)
        if counts["events_unprocessed"]
        else None,
        memories_by_writer=await store.writer_counts(),
        parked=tuple((await store.list_dead_letters())[:MAX_PARKED_LISTED])
        if counts["dead_letters"]
        else (),
        events_per_day=await store.events_per_day(datetime.now(UTC) - timedelta(days=ACTIVITY_DAYS))
        if counts["events"]
        else {},
        write_failure=refused[0] if refused else "",
        write_failed_at=datetime.fromtimestamp(refused[1], UTC) if refused else None,
    )
