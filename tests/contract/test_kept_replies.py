"""Replies of writes sent with an idempotency key, on every backend: a key is claimed once per
project, its kept reply answers every later claim, a failed call's claim is released, an
abandoned claim is taken over, and old replies are dropped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.storage import Store
from squirrel_memory.storage.kept_replies import CLAIM_SECONDS, KEEP_DAYS, KeptReply

from .conftest import Opener

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


class Clock:
    """The store's clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def clocked(store: Store) -> Clock:
    clock = Clock()
    store._clock = clock  # type: ignore[attr-defined]
    return clock


async def test_a_key_is_claimed_once_and_its_kept_reply_answers_after(store: Store) -> None:
    clocked(store)
    assert await store.claim_reply("k-1", "Remember", "fp") is None
    # While the first call runs, a second one learns the key is held, with no reply yet.
    assert await store.claim_reply("k-1", "Remember", "fp") == KeptReply("Remember", "fp", None)
    await store.keep_reply("k-1", b"\x00reply\xff")
    assert await store.claim_reply("k-1", "Remember", "fp") == KeptReply(
        "Remember", "fp", b"\x00reply\xff"
    )
    # Another key is its own claim.
    assert await store.claim_reply("k-2", "Remember", "fp") is None


async def test_the_same_key_with_another_request_shows_what_it_was_claimed_for(
    store: Store,
) -> None:
    clocked(store)
    assert await store.claim_reply("k", "Forget", "first") is None
    await store.keep_reply("k", b"one")
    kept = await store.claim_reply("k", "ConfirmMemory", "second")
    assert kept == KeptReply("Forget", "first", b"one")


async def test_a_released_claim_runs_again_but_a_kept_reply_is_not_released(
    store: Store,
) -> None:
    clocked(store)
    assert await store.claim_reply("failed", "Remember", "fp") is None
    await store.release_reply("failed")
    assert await store.claim_reply("failed", "Remember", "fp") is None
    await store.keep_reply("failed", b"done")
    await store.release_reply("failed")
    assert await store.claim_reply("failed", "Remember", "fp") == KeptReply(
        "Remember", "fp", b"done"
    )


async def test_an_abandoned_claim_is_taken_over_only_after_the_claim_time(store: Store) -> None:
    clock = clocked(store)
    assert await store.claim_reply("k", "Remember", "fp") is None
    clock.now = T0 + timedelta(seconds=CLAIM_SECONDS - 1)
    assert await store.claim_reply("k", "Remember", "fp") == KeptReply("Remember", "fp", None)
    clock.now = T0 + timedelta(seconds=CLAIM_SECONDS + 1)
    assert await store.claim_reply("k", "Remember", "fp") is None
    await store.keep_reply("k", b"late")
    # A kept reply is never taken over, however old the claim (until it is dropped).
    clock.now = T0 + timedelta(days=KEEP_DAYS - 1)
    assert await store.claim_reply("k", "Remember", "fp") == KeptReply("Remember", "fp", b"late")


async def test_replies_older_than_the_keeping_time_are_dropped(store: Store) -> None:
    clock = clocked(store)
    assert await store.claim_reply("old", "Remember", "fp") is None
    await store.keep_reply("old", b"then")
    clock.now = T0 + timedelta(days=KEEP_DAYS, seconds=1)
    assert await store.claim_reply("old", "Remember", "fp") is None


async def test_a_key_is_unique_per_project_not_across_projects(
    opener: Opener, project: str, other_project: str
) -> None:
    mine, theirs = await opener.open(project), await opener.open(other_project)
    clocked(mine), clocked(theirs)
    assert await mine.claim_reply("shared-key", "Remember", "a") is None
    await mine.keep_reply("shared-key", b"mine")
    assert await theirs.claim_reply("shared-key", "Remember", "b") is None
    await theirs.keep_reply("shared-key", b"theirs")
    assert await mine.claim_reply("shared-key", "Remember", "a") == KeptReply(
        "Remember", "a", b"mine"
    )
    assert await theirs.claim_reply("shared-key", "Remember", "b") == KeptReply(
        "Remember", "b", b"theirs"
    )


@pytest.mark.parametrize("key", ["", "a b", "x" * 129, "naïve", "k;drop"])
async def test_a_malformed_key_is_refused_and_nothing_is_kept(store: Store, key: str) -> None:
    with pytest.raises(InvalidArgumentError):
        await store.claim_reply(key, "Remember", "fp")


@pytest.mark.parametrize(
    "key", ["0f1e2d3c4b5a69788796a5b4c3d2e1f0", "6c1b-4f-uuid:retry_1.a", "x" * 128]
)
async def test_keys_in_the_accepted_shapes_are_claimed(store: Store, key: str) -> None:
    clocked(store)
    assert await store.claim_reply(key, "Remember", "fp") is None
