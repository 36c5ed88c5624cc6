"""Team delivery keeps going whatever one round or one probe raises: a fault it did not foresee
is logged and waited out like a refused call, never the silent end of delivery (the events stay
in the local store until a later round sends them)."""

from __future__ import annotations

import asyncio

from structlog.testing import capture_logs

from squirrel_core.errors import UnavailableError
from squirrel_core.team_client import TeamLink
from squirrel_memory.storage import Store
from squirrel_memory.team.delivery import DeliveryReport, TeamDelivery
from tests.conftest import PATIENCE_SECONDS

LINK = TeamLink("team.example:7443", "sqt_token", None, "m")


async def _no_stores() -> list[Store]:
    return []


async def _rounds(delivery: TeamDelivery, first: BaseException) -> list[int]:
    rounds: list[int] = []

    async def deliver() -> DeliveryReport:
        rounds.append(len(rounds) + 1)
        if len(rounds) == 1:
            raise first
        return DeliveryReport()

    delivery.deliver = deliver  # type: ignore[method-assign]
    delivery.start()
    try:
        # Bounded by time, not by a count of polls: a loaded machine stretches the rounds.
        deadline = asyncio.get_running_loop().time() + PATIENCE_SECONDS
        while len(rounds) < 3 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
    finally:
        await delivery.stop()
    return rounds


async def test_a_probe_that_raises_is_taken_as_the_server_still_away() -> None:
    async def probe(link: TeamLink) -> bool:
        raise RuntimeError("a fault in the health check")

    delivery = TeamDelivery(_no_stores, LINK, interval=0.05, probe=probe, probe_every=0.01)
    with capture_logs() as logs:
        rounds = await _rounds(delivery, UnavailableError("the team server is away"))
    assert len(rounds) >= 3
    assert any(entry["event"] == "team_probe_failed" for entry in logs)


async def test_a_round_that_raises_something_unforeseen_is_retried() -> None:
    delivery = TeamDelivery(_no_stores, LINK, interval=0.01)
    with capture_logs() as logs:
        rounds = await _rounds(delivery, ValueError("a fault nobody foresaw"))
    assert len(rounds) >= 3
    failed = [entry for entry in logs if entry["event"] == "team_delivery_failed"]
    assert failed and failed[0]["error_type"] == "ValueError"
    assert "a fault nobody foresaw" not in repr(logs)  # the type is logged, never the text
