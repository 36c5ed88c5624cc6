"""Limits and timings of the ingest engine."""

from __future__ import annotations

from dataclasses import dataclass, field

from squirrel_ingest.delivery import Backoff


@dataclass(frozen=True, slots=True)
class EngineSettings:
    """Limits and timings of the engine (the `[ingest]` settings section feeds these)."""

    batch_events: int = 500
    batch_age_s: float = 0.2
    buffer_events: int = 20_000
    rescan_interval_s: float = 60.0
    git_poll_interval_s: float = 60.0
    cursor_poll_interval_s: float = 5.0
    max_line_bytes: int = 5 * 1024 * 1024
    read_chunk_bytes: int = 1024 * 1024
    max_read_bytes: int = 8 * 1024 * 1024
    max_document_bytes: int = 64 * 1024 * 1024
    backoff: Backoff = field(default_factory=Backoff)
