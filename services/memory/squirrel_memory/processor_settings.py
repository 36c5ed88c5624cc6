"""The processor's cadence and batch size (the `processor.*` settings) and its retry delays."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from squirrel_core.settings import Settings

RETRY_DELAYS_SECONDS = (1.0, 4.0, 15.0)


@dataclass
class ProcessorSettings:
    """Cadence of processing (spec §4.2: every 30 s or at ≥ 20 waiting events, 200 at a time)."""

    interval_seconds: float = 30.0
    min_events: int = 20
    batch_size: int = 200
    session_idle_seconds: float = 180.0
    """A session idle this long is finished for now and processed (at most the episode gap)."""
    retry_delays: Sequence[float] = field(default_factory=lambda: RETRY_DELAYS_SECONDS)

    @classmethod
    def from_settings(cls, settings: Settings) -> ProcessorSettings:
        """The `processor.*` settings (retry delays keep their default)."""
        return cls(
            interval_seconds=settings.float_("processor.interval_seconds"),
            min_events=settings.int_("processor.min_events"),
            batch_size=settings.int_("processor.batch_size"),
            session_idle_seconds=settings.float_("processor.session_idle_seconds"),
        )
