"""The memory browser's team switch: a joined project's memory as the team server holds it.

`where=team` on a project's list or a memory's page reads the team server (under the project's
team id, as this laptop's token's user, like `sqrl memories` on a joined laptop) instead of local
memory. The team's memories are shown read-only: corrections go through `sqrl` or the
assistant, which write to the team. When the team server is not used (refused token,
unreachable…), the page says why in one line and lists nothing. Everything else about the
browser (its Host and Origin checks, session cookie, form token) is unchanged: these are GETs.
"""

from __future__ import annotations

from typing import Final

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_gateway import team_away
from squirrel_gateway.team_backend import TeamMemoryBackend
from squirrel_gateway.ui.html import esc, href

TEAM: Final = "team"


def switch(project_id: str, path: str, where: str, joined: bool) -> str:
    """The links between this laptop's memory and the team's ("" on a laptop not joined)."""
    if not joined:
        return ""
    links = []
    for value, label in (("", "This laptop"), (TEAM, "Team server")):
        extra = {"where": value} if value else {}
        current = " aria-current='page'" if value == where else ""
        links.append(f"<a href='{href(path, project=project_id, **extra)}'{current}>{label}</a>")
    return (
        "<nav class='bar switch' aria-label='Whose memory'>Memory of: "
        + " | ".join(links)
        + ("</nav>")
    )


def away_notice(notes: list[str]) -> str:
    said = "; ".join(notes) or "the team server did not answer"
    return f"<p class='error' role='alert'>{esc(said)}</p>"


class TeamBrowse:
    """List and history calls on the team server for the browser."""

    def __init__(self, team: TeamMemoryBackend) -> None:
        self._team = team

    @property
    def backend(self) -> TeamMemoryBackend:
        return self._team

    async def list_memories(
        self, project_id: str, request: pb.ListMemoriesRequest
    ) -> tuple[pb.ListMemoriesResponse | None, list[str]]:
        """The team's page of the project's memories (None when the team was not used, with
        the reason in the notes)."""

        async def call(client: MemoryClient, team_id: str) -> pb.ListMemoriesResponse:
            sent = pb.ListMemoriesRequest()
            sent.CopyFrom(request)
            sent.project_id = team_id
            return await client.call(client.stub.ListMemories, sent)

        with team_away.collecting() as notes:
            reply = await self._team.on_team(project_id, call)
        return reply, notes

    async def history(
        self, project_id: str, memory_id: str
    ) -> tuple[pb.GetMemoryHistoryResponse | None, list[str]]:
        async def call(client: MemoryClient, team_id: str) -> pb.GetMemoryHistoryResponse:
            return await client.call(
                client.stub.GetMemoryHistory,
                pb.GetMemoryHistoryRequest(project_id=team_id, memory_id=memory_id),
            )

        with team_away.collecting() as notes:
            reply = await self._team.on_team(project_id, call)
        return reply, notes
