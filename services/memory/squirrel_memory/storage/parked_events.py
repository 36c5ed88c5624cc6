"""The events a dead letter parks, kept beside the letter (not in its reference): shared checks.

A letter's `payload_ref` is short and unique per (kind, reference); the event ids of a parked
episode can run to thousands, so each backend keeps them in `dead_letter_events`, one row per
letter, removed with the letter. Written once for both backends (`SharedParkedEvents`)."""

from __future__ import annotations

from collections.abc import Sequence

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_memory.storage.checks import MAX_KEY_CHARS, check_text
from squirrel_memory.storage.queries import PlanRunner, WritePlan, changed, first

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


class SharedParkedEvents(PlanRunner):
    """Event ids kept beside dead letters; a backend names its `_dialect` and answers plans
    (`_read`, `_write`)."""

    async def put_parked_events(self, dead_letter_id: int, event_ids: Sequence[str]) -> None:
        """Keep the event ids `dead_letter_id` parks (replacing any kept before); they go with
        the letter when it is resolved. `NotFoundError` if this project has no such letter."""
        d = self._dialect
        ids = d.store_list(checked_event_ids(event_ids))
        mine, params = d.of_project(self.project_id)
        upsert = d.upsert(
            "dead_letter_events", ("dead_letter_id", "event_ids"), ("dead_letter_id",), ()
        )

        def write() -> WritePlan[None]:
            found = yield from first(
                f"SELECT 1 FROM dead_letters WHERE id = {d.mark}{mine}",  # noqa: S608
                dead_letter_id,
                *params,
            )
            if found is None:
                raise NotFoundError(f"no dead letter {dead_letter_id}")
            yield from changed(upsert, dead_letter_id, ids)

        await self._write(write())

    async def parked_events(self, dead_letter_id: int) -> list[str] | None:
        """The event ids kept for `dead_letter_id`, in order; None when none were kept (a
        letter parked before they were, whose reference lists them itself)."""
        d = self._dialect
        mine, params = d.of_project(self.project_id)
        # On a database of every project, the letter's row says whose it is.
        join = " JOIN dead_letters d ON d.id = e.dead_letter_id" if d.shared else ""
        row = await self._read(
            first(
                f"SELECT e.event_ids FROM dead_letter_events e{join} "  # noqa: S608
                f"WHERE e.dead_letter_id = {d.mark}{mine}",
                dead_letter_id,
                *params,
            )
        )
        return None if row is None else list(d.load_list(row[0]))
