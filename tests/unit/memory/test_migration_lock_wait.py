"""A team server waiting for another one's migration asks for the lock at every poll, and how
far the other one is only now and then: that question counts every row the migration goes
over, beside it."""

from __future__ import annotations

import pytest

from squirrel_memory.storage.postgres import schema
from squirrel_memory.storage.postgres.online import CountProgress


async def test_a_waiting_server_asks_how_far_the_other_is_at_its_first_poll_and_then_seldom(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    polls: list[int] = []
    asked: list[int] = []

    async def locked(_conn: object) -> bool:
        polls.append(1)
        return len(polls) > 2 * schema.PROGRESS_EVERY_POLLS + 5

    async def stands(_conn: object, _migrations: object) -> CountProgress:
        asked.append(len(polls))
        return CountProgress(1, 2, "events", "rehashed")

    monkeypatch.setattr(schema, "_locked", locked)
    monkeypatch.setattr(schema, "_another_ones_progress", stands)
    monkeypatch.setattr(schema, "LOCK_POLL_SECONDS", 0)
    told: list[CountProgress] = []

    await schema._take_lock(object(), (), told.append)  # type: ignore[arg-type]

    every = schema.PROGRESS_EVERY_POLLS
    assert asked == [1, 1 + every, 1 + 2 * every]
    assert len(told) == 3
