"""Extraction that failed, as the processor meets it: the model's retries, then (part of) the
episode parked as a dead letter with its event ids kept beside, and a count of the failures."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import structlog

from squirrel_memory.extractors.base import ExtractionError, Extractor
from squirrel_memory.models import Episode, MemoryCandidate, StoredEvent
from squirrel_memory.parking.letters import loggable_reason, model_letter, parked_ref
from squirrel_memory.storage import Store

log = structlog.get_logger()


class ExtractionFailures:
    """Parks failed extraction and retries the model's (after `retry_delays`, in seconds)."""

    def __init__(self, retry_delays: Sequence[float]) -> None:
        self._retry_delays = tuple(retry_delays)
        self.count = 0
        """Extraction attempts that failed since start (each retry counts)."""

    async def extract_with_retry(
        self, store: Store, model: Extractor, episode: Episode, events: list[StoredEvent]
    ) -> list[MemoryCandidate] | None:
        """The model's candidates, or None once retries ran out and the model's part of the
        episode was parked as a dead letter."""
        delays = list(self._retry_delays)
        kind = model_letter(model.name)
        while True:
            try:
                return await model.extract(episode, events)
            except ExtractionError as exc:
                if not exc.retryable or not delays:
                    await self.park(store, kind, episode, exc)
                    return None
                delay = max(delays.pop(0), exc.retry_after or 0.0)
                self.count += 1
                log.warning(
                    "extraction_retrying",
                    episode_id=episode.id,
                    error_type=type(exc).__name__,
                    delay_s=delay,
                )
                await asyncio.sleep(delay)
            except Exception as exc:
                await self.park(store, kind, episode, exc)
                return None

    async def park(
        self,
        store: Store,
        kind: str,
        episode: Episode,
        exc: BaseException,
        *,
        count_attempt: bool = True,
        ref: str | None = None,
    ) -> None:
        """Park (part of) `episode` as a dead letter of `kind` under `ref` (default: the
        episode's `parked_ref`; a retry keeps its letter's own), its event ids kept beside."""
        self.count += 1
        letter = await store.record_dead_letter(
            kind,
            ref or parked_ref(episode),
            f"{type(exc).__name__}: {exc}"[:500],
            count_attempt=count_attempt,
        )
        await store.put_parked_events(letter.id, episode.event_ids)
        log.error(
            "extraction_dead_lettered",
            kind=kind,
            episode_id=episode.id,
            error_type=type(exc).__name__,
            reason=loggable_reason(exc),
        )
