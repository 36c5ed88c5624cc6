"""Extraction parked as a dead letter: the letter's reference, its back-off, its episode rebuilt."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime, timedelta

from squirrel_memory.extractors.base import ExtractionError
from squirrel_memory.models import Episode, StoredEvent

EXTRACTION_LETTER = "extraction"
"""Kind of a letter whose whole episode waits: the rules (and the model, if any) extract it."""
MODEL_LETTER_PREFIX = "model:"
"""Kind prefix of a letter whose rules' part is written and the named model's part waits."""
REF_DIGEST_MARK = "#"
"""Marks the digest in a letter's reference (an event id never starts with it)."""
REF_DIGEST_CHARS = 16
"""Hex digits of the event ids' SHA-256 in a letter's reference."""
MAX_PARKED_ATTEMPTS = 8
"""A parked episode is retried automatically this many times (with growing back-off); then it
stays parked, counted in `sqrl status`, until a forced retry (`sqrl process`) or a new backend."""


def model_letter(backend: str) -> str:
    """The kind of a letter parked for `backend`'s part of an episode: `model:claude_cli`."""
    return f"{MODEL_LETTER_PREFIX}{backend}"


def letter_backend(kind: str) -> str | None:
    """The model backend a letter waits for (None: a whole episode, or not extraction's)."""
    return kind.removeprefix(MODEL_LETTER_PREFIX) if kind.startswith(MODEL_LETTER_PREFIX) else None


def parked_ref(episode: Episode) -> str:
    """The dead letter's reference to a parked episode: `<episode id>:#<digest>`, where the
    digest (of its event ids) keeps it short however long the episode; the ids themselves are
    kept beside the letter (`Store.put_parked_events`)."""
    digest = hashlib.sha256("\n".join(episode.event_ids).encode()).hexdigest()[:REF_DIGEST_CHARS]
    return f"{episode.id}:{REF_DIGEST_MARK}{digest}"


def parked_ids(ref: str, kept: Sequence[str] | None) -> tuple[str, list[str]]:
    """The episode id and event ids of a parked episode: the ids kept beside its letter, or,
    for a letter parked before they were kept apart, the ids its reference lists
    (`<episode id>:<event id>,<event id>…`). Empty when neither names any."""
    episode_id, _, listed = ref.partition(":")
    if kept is not None:
        return episode_id, list(kept)
    if listed.startswith(REF_DIGEST_MARK):
        return episode_id, []
    return episode_id, [i for i in listed.split(",") if i]


def parked_backoff(attempts: int) -> timedelta:
    """How long a parked episode waits before its next try: 2, 4, 8 … minutes, at most 6 h."""
    return min(timedelta(minutes=2 ** max(1, attempts)), timedelta(hours=6))


def parked_episode(
    episode_id: str, event_ids: Sequence[str], events: Sequence[StoredEvent], now: datetime
) -> Episode:
    """The episode a dead letter names, rebuilt from its events (order as parked)."""
    first = min(events, key=lambda e: e.timestamp)
    return Episode(
        id=episode_id,
        project_id=first.project_id,
        user_id=first.user_id,
        session_id=first.session_id,
        start_ts=first.timestamp,
        end_ts=max(e.timestamp for e in events),
        event_count=len(events),
        summary="",
        importance=0.5,
        created_at=now,
        event_ids=tuple(event_ids),
    )


def loggable_reason(exc: BaseException) -> str:
    """Why extraction failed, as the log may carry it: our own messages (which name the fix)
    but never a backend's output, which may echo session text (that stays in the dead letter)."""
    if isinstance(exc, ExtractionError) and not exc.quotes_output:
        return str(exc)[:300]
    return f"{type(exc).__name__} (details with the parked episode: `sqrl status`)"
