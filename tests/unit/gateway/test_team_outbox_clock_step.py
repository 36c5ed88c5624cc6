"""The outbox's lease is kept in its file on the wall clock, which can step. A step is harmless:
back, a claim made before it is void once it ends further ahead than a lease (the rows wait a
lease at most, never the size of the step); forward, a second sender may take rows still being
sent, and both sends carry the row's one idempotency key (the team server answers the second
with the first one's reply, `test_team_retried_writes`)."""

from __future__ import annotations

from pathlib import Path

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_gateway.team_outbox import LEASE_SECONDS, TeamOutbox

HOUR = 3600.0


class _Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _queued(tmp_path: Path, clock: _Clock) -> TeamOutbox:
    outbox = TeamOutbox(tmp_path / "team" / "outbox.db", clock=clock)
    outbox.put("/home/alice/shop", pb.RememberRequest(content="deploy with make ship"))
    return outbox


def test_a_claim_made_before_the_clock_stepped_back_does_not_hold_the_row(tmp_path: Path) -> None:
    clock = _Clock(1_800_000_000.0)
    outbox = _queued(tmp_path, clock)
    [claimed] = outbox.claim()  # its sender then stops without sending or releasing it
    clock.now -= HOUR  # NTP steps the clock an hour back

    [again] = outbox.claim()

    assert again.id == claimed.id


def test_a_claim_within_its_lease_still_holds_the_row(tmp_path: Path) -> None:
    """Must not fire: no step, or a step back smaller than the claim's time left, keeps the
    claim (another sender leaves the row alone)."""
    clock = _Clock(1_800_000_000.0)
    outbox = _queued(tmp_path, clock)
    assert len(outbox.claim()) == 1
    clock.now += LEASE_SECONDS / 2
    assert outbox.claim() == []
    clock.now -= LEASE_SECONDS / 4
    assert outbox.claim() == []


def test_a_step_forward_sends_again_with_the_same_idempotency_key(tmp_path: Path) -> None:
    clock = _Clock(1_800_000_000.0)
    outbox = _queued(tmp_path, clock)
    [first] = outbox.claim()
    clock.now += HOUR  # the lease looks over while its sender still sends

    [second] = outbox.claim()

    assert second.id == first.id
    assert second.request.idempotency_key == first.request.idempotency_key != ""
