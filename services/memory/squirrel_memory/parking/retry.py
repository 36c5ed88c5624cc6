"""Parked extraction tried again: after its back-off, at once when forced, or when the chosen
model backend changed. Nothing is dropped and no event is read twice (see `retry_parked`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Protocol

import structlog

from squirrel_memory.extractors.base import Extractor
from squirrel_memory.models import Episode, MemoryCandidate, MemorySource
from squirrel_memory.parking.letters import (
    EXTRACTION_LETTER,
    MAX_PARKED_ATTEMPTS,
    letter_backend,
    model_letter,
    parked_backoff,
    parked_episode,
    parked_ids,
)
from squirrel_memory.pass_report import Decide, PassReport
from squirrel_memory.storage import Store
from squirrel_memory.storage.values import DeadLetter

log = structlog.get_logger()

WriteFound = Callable[
    [Store, Sequence[MemoryCandidate], str, Decide, MemorySource], Awaitable[PassReport]
]
"""Decides and writes a parked episode's candidates (store, candidates, user, decide, source)."""


class Park(Protocol):
    """Parks (part of) an episode as a dead letter of `kind`."""

    async def __call__(
        self,
        store: Store,
        kind: str,
        episode: Episode,
        exc: BaseException,
        *,
        count_attempt: bool = True,
        ref: str | None = None,
    ) -> None: ...


class ParkedRetry:
    """Tries the dead letters of extraction again with the processor's extractors.

    The rules extract every episode; `model` (None: rules only) adds its part. `write_found`
    decides and writes what an extractor found, `park` parks a failure again."""

    def __init__(
        self,
        *,
        rules: Extractor,
        model: Extractor | None,
        rules_decide: Decide,
        decide: Decide,
        write_found: WriteFound,
        park: Park,
        user_id: str,
        per_user: bool,
        clock: Callable[[], datetime],
    ) -> None:
        self._rules = rules
        self._model = model
        self._rules_decide = rules_decide
        self._decide = decide
        self._write_found = write_found
        self._park = park
        self._user_id = user_id
        self._per_user = per_user
        self._clock = clock

    async def retry_parked(self, store: Store, *, force: bool = False) -> PassReport:
        """Extraction parked after its retries ran out, tried once more when its back-off has
        passed: success writes its memories and clears the letter, a failure counts another
        attempt. After `MAX_PARKED_ATTEMPTS` automatic tries a letter waits, parked, for a
        forced retry or another model backend. `force` (`sqrl process`, the browser's retry
        button) tries every letter at once, exhausted or not, and its failures do not count
        against the automatic budget. A letter parked for a model backend is retried only by
        the model (the rules' part was written); one parked by another model backend than the
        chosen one is tried at once, with a fresh budget. Its events stay processed throughout:
        nothing is read twice, nothing is dropped. The caller holds the processor's lock."""
        report = PassReport()
        for letter in await store.list_dead_letters():
            report.add(await self._retry_letter(store, letter, force=force))
        return report

    async def _retry_letter(self, store: Store, letter: DeadLetter, *, force: bool) -> PassReport:
        backend = letter_backend(letter.kind)
        if letter.kind != EXTRACTION_LETTER and backend is None:
            return PassReport()  # not extraction's
        model = self._model
        if backend is not None and model is None:
            return PassReport()  # the model's part waits for a model backend
        switched = backend is not None and model is not None and backend != model.name
        now = self._clock()
        if (
            not force
            and not switched
            and (
                letter.attempts >= MAX_PARKED_ATTEMPTS
                or now - letter.updated_at < parked_backoff(letter.attempts)
            )
        ):
            return PassReport()
        episode_id, ids = parked_ids(letter.payload_ref, await store.parked_events(letter.id))
        events = await store.get_events(ids) if ids else []
        if not events:
            log.warning("parked_events_gone", kind=letter.kind, episode_id=episode_id)
            await store.resolve_dead_letter(letter.id)
            return PassReport()
        episode = parked_episode(episode_id, ids, events, now)
        user = self._user_id
        if self._per_user:
            user = events[0].user_id or self._user_id
        report = PassReport()
        if backend is None:  # nothing of this episode was written: the rules' part first
            try:
                found = await self._rules.extract(episode, events)
            except Exception as exc:
                await self._park(
                    store,
                    letter.kind,
                    episode,
                    exc,
                    count_attempt=not force,
                    ref=letter.payload_ref,
                )
                return PassReport(dead_lettered=1)
            report.add(
                await self._write_found(store, found, user, self._rules_decide, MemorySource.RULES)
            )
        if model is not None:
            try:
                found = await model.extract(episode, events)
            except Exception as exc:
                kind = model_letter(model.name)
                if kind != letter.kind:  # parked anew for the chosen model, with a fresh budget
                    await self._park(store, kind, episode, exc)  # before the old letter goes
                    await store.resolve_dead_letter(letter.id)
                else:
                    await self._park(
                        store, kind, episode, exc, count_attempt=not force, ref=letter.payload_ref
                    )
                report.dead_lettered += 1
                return report
            report.add(await self._write_found(store, found, user, self._decide, MemorySource.LLM))
        await store.resolve_dead_letter(letter.id)
        log.info("parked_episode_retried", episode_id=episode_id, attempts=letter.attempts)
        return report
