"""A team server names who contributed each memory it answers a team token with: the user
whose session it was learnt from, or the first to `remember` it, by the name their token was
issued to (never the token). The server machine's own caller, whose memories are all its
own, is told no name. Against a real TLS team server, with two users' tokens."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.team_client import TeamLink, team_memory_client
from squirrel_core.team_grants import Role
from squirrel_core.team_tokens import TeamTokens
from squirrel_core.wire import event_to_pb
from tests.integration.conftest import memory_client
from tests.integration.test_team_delivery import (
    TEAM_ID,
    _pitfall_session,
    homes,  # noqa: F401 (a fixture)
    serving,
)

PITFALL = memory_pb2.MEMORY_TYPE_PITFALL
FACT = memory_pb2.MEMORY_TYPE_PROJECT_FACT
BOBS_FACT = "Releases are tagged from the release branch after the changelog is merged."


async def _contributors(client: MemoryClient, query: str) -> dict[int, set[str]]:
    """Memory type → the contributors named beside the search's results of that type."""
    reply = await client.call(
        client.stub.SearchMemory, pb.SearchMemoryRequest(project_id=TEAM_ID, query=query, top_k=10)
    )
    named: dict[int, set[str]] = {}
    for result in reply.results:
        named.setdefault(result.type, set()).add(result.contributor)
    return named


async def test_a_teammates_memories_name_who_contributed_them(
    homes: Callable[..., tuple[Settings, Settings, TeamLink]],  # noqa: F811
) -> None:
    server_settings, _, link = homes()
    _, bob_token = TeamTokens(HomeLayout(server_settings.home).team_tokens).issue(
        "bob", ["github.com/acme/*"], Role.WRITE
    )
    start = datetime.now(UTC) - timedelta(hours=1)
    async with serving(server_settings) as server:
        target = f"localhost:{server.service.team_port}"
        alice = team_memory_client(TeamLink(target, link.token, link.ca_file, "alice-mbp"))
        bob = team_memory_client(TeamLink(target, bob_token, link.ca_file, "bob-x1"))
        try:
            await alice.call(alice.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
            events = [event_to_pb(e) for e in _pitfall_session("s-alice", start)]
            await alice.call(
                alice.stub.AppendEvents, pb.AppendEventsRequest(project_id=TEAM_ID, events=events)
            )
            async with memory_client(server.service, server_settings) as admin:
                await admin.call(
                    admin.stub.ProcessNow, pb.ProcessNowRequest(project_id=TEAM_ID, drain=True)
                )
                await bob.call(
                    bob.stub.Remember,
                    pb.RememberRequest(project_id=TEAM_ID, content=BOBS_FACT, type=FACT),
                )
                # The server machine's own caller: every memory there is its own; no name.
                local = await _contributors(admin, "cart tests release branch")
                assert local and all(names == {""} for names in local.values()), local

            # Bob sees the pitfall learnt from Alice's session as hers, Alice the fact as Bob's.
            assert (await _contributors(bob, "cart tests types"))[PITFALL] == {"alice"}
            assert (await _contributors(alice, "release branch changelog"))[FACT] == {"bob"}

            pitfalls = await bob.call(
                bob.stub.GetPitfallsView,
                pb.GetPitfallsViewRequest(project_id=TEAM_ID),
            )
            assert [i.contributor for i in pitfalls.view.items] == ["alice"]
            context = await bob.call(
                bob.stub.GetTaskContext,
                pb.GetTaskContextRequest(project_id=TEAM_ID, task_description="fix the cart tests"),
            )
            named = {m.type: m.contributor for m in context.context.selected_memories}
            assert named.get(PITFALL) == "alice", named
            brief = await alice.call(
                alice.stub.GetProjectBriefView, pb.GetProjectBriefViewRequest(project_id=TEAM_ID)
            )
            view = brief.view
            assert len(view.key_fact_contributors) == len(view.key_facts)
            by_fact = dict(zip(view.key_facts, view.key_fact_contributors, strict=True))
            assert [by_fact[f] for f in by_fact if BOBS_FACT in f] == ["bob"], by_fact
            assert {by_fact[f] for f in by_fact if BOBS_FACT not in f} == {"alice"}, by_fact
            assert link.token not in repr(by_fact) and bob_token not in repr(by_fact)
        finally:
            await alice.close()
            await bob.close()
