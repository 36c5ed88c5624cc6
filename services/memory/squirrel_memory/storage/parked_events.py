"""The events a dead letter parks, kept beside the letter (not in its reference): shared checks.

A letter's `payload_ref` is short and unique per (kind, reference); the event ids of a parked
episode can run to thousands, so each backend keeps them in `dead_letter_events`, one row per
letter, removed with the letter."""

from __future__ import annotations

from collections.abc import Sequence

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.storage.checks import MAX_KEY_CHARS, check_text

MAX_PARKED_EVENTS = 100_000
"""More event ids than any episode holds: a bound on one letter's list, not a working limit."""


def checked_event_ids(event_ids: Sequence[str]) -> list[str]:
    """`event_ids` as stored for a letter: non-empty ids, in order; `InvalidArgumentError` if
    the list is empty, too long, or holds something that is not an id."""
    if isinstance(event_ids, str) or not event_ids:
        raise InvalidArgumentError("a parked letter needs at least one event id")
    if len(event_ids) > MAX_PARKED_EVENTS:
        raise InvalidArgumentError(f"a parked letter holds at most {MAX_PARKED_EVENTS} event ids")
    return [check_text("event id", i, MAX_KEY_CHARS) for i in event_ids]
