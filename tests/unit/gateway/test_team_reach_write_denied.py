"""A write the token may not make leaves the team server in use for reads.

A `read` token's `remember` is refused (PERMISSION_DENIED: it may read the project, not write
it); the remember goes to local memory and the queue. The reads after it must still ask the team
server, which answers them: leaving the server alone for its 30 s after that refusal answered the
next searches, contexts and hooks from local memory only, saying the project was not granted.
A read the server refuses leaves it alone as before (the next reads would be refused too)."""

from __future__ import annotations

from squirrel_core.errors import PermissionDeniedError
from squirrel_gateway import team_away
from squirrel_gateway.team_reach import TeamReach

DENIED = "team token t1 (bob) may only read project 'github.com/acme/shop', not write it"


def _reach() -> TeamReach:
    return TeamReach(lambda root: "github.com/acme/shop", server="team.example:7443")


async def test_a_refused_write_leaves_the_next_read_to_the_team() -> None:
    reach = _reach()
    asked: list[str] = []

    async def write(team_id: str) -> str:
        asked.append("write")
        raise PermissionDeniedError(DENIED)

    async def read(team_id: str) -> str:
        asked.append("read")
        return "the team's answer"

    with team_away.collecting() as notes:
        assert await reach.ask(write, "/home/bob/shop", write=True, queued=True) is None
    assert len(notes) == 1
    assert "may only read project" in notes[0]
    assert notes[0].endswith("written to local memory and queued for the team server")

    with team_away.collecting() as notes:
        assert await reach.ask(read, "/home/bob/shop") == "the team's answer"
    assert notes == []
    assert asked == ["write", "read"]


async def test_a_refused_read_still_leaves_the_team_alone_for_a_while() -> None:
    reach = _reach()
    asked: list[str] = []

    async def read(team_id: str) -> str:
        asked.append("read")
        raise PermissionDeniedError("team token t1 (bob) is not granted project 'x'")

    with team_away.collecting() as first:
        assert await reach.ask(read, "/home/bob/shop") is None
    with team_away.collecting() as second:
        assert await reach.ask(read, "/home/bob/shop") is None
    assert asked == ["read"]  # the second read did not ask: left alone, and said so
    assert first == second and "not granted" in second[0]
