"""A laptop joining a team late, against a real TLS team server on 127.0.0.1: its first read
(search, task context, the session-start hook) already has the project's shared memories,
though nothing was copied to it; a teammate's style stays theirs."""

from __future__ import annotations

import json
from pathlib import Path

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.home import HomeLayout
from squirrel_core.team_client import TeamLink, save_team_token, team_memory_client
from squirrel_core.team_grants import Role
from squirrel_core.team_tokens import TeamTokens
from squirrel_gateway import team_away
from squirrel_gateway.hook_service import HookService, HookSettings
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.reads import for_hooks, reads_backend
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.conftest import memory_client
from tests.integration.test_team_away import Homes
from tests.integration.test_team_delivery import _repo, _settings, serving

TEAM_ID = "github.com/acme/shop"
homes = delivery_tests.homes
PITFALL = "The cart tests fail without `STRIPE_MOCK=1`; export it before `make check`."
STYLE = "Alice wants commit messages in the imperative mood."


async def test_a_laptop_joining_late_reads_the_teams_memories_at_its_first_read(
    tmp_path: Path, homes: Homes, server_port: int
) -> None:
    server_settings, _, link = homes()
    port = server_port
    server_settings = server_settings.with_values(serve__address=f"127.0.0.1:{port}")
    target = f"localhost:{port}"
    _, dave_token = TeamTokens(HomeLayout(server_settings.home).team_tokens).issue(
        "dave", [TEAM_ID], Role.WRITE
    )
    dave = _settings(
        tmp_path / "dave",
        general_user_id="dave",
        team_server=target,
        team_ca_file=str(link.ca_file),
        team_machine="dave-mbp",
    )
    save_team_token(HomeLayout(dave.home).ensure(), dave_token)
    repo = _repo(tmp_path / "dave-clone", "https://github.com/acme/shop")
    async with serving(server_settings):
        # The team learnt things before Dave joined (Alice's laptop wrote them).
        alice = team_memory_client(
            TeamLink(target, link.token, link.ca_file, "alice-mbp"), timeout=120
        )
        try:
            await alice.call(alice.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
            for kind, text in (
                (memory_pb2.MEMORY_TYPE_PITFALL, PITFALL),
                (memory_pb2.MEMORY_TYPE_USER_STYLE, STYLE),
            ):
                await alice.call(
                    alice.stub.Remember,
                    pb.RememberRequest(project_id=TEAM_ID, type=kind, content=text, importance=0.9),
                )
            # The server's own first search (its index built) is not what is measured here.
            await alice.call(
                alice.stub.SearchMemory, pb.SearchMemoryRequest(project_id=TEAM_ID, query="cart")
            )
        finally:
            await alice.close()

        async with (
            serving(dave) as laptop,
            memory_client(laptop.service, dave) as local,
        ):
            await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
            reads, close = reads_backend(dave, GrpcMemoryBackend(local, lambda: [str(repo)]))
            try:
                with team_away.collecting() as notes:
                    page = await reads.search_memory(
                        str(repo),
                        query="cart tests STRIPE_MOCK",
                        top_k=5,
                        types=[],
                        scope_paths=[],
                        cursor=None,
                    )
                assert notes == []  # the team answered
                assert PITFALL in [r.content for r in page.results]
                hooks = HookService(
                    for_hooks(reads, 20_000), HookSettings(deadline_ms=20_000), tmp_path, None
                )
                try:
                    out = await hooks.answer("claude", "SessionStart", {"cwd": str(repo)})
                finally:
                    await hooks.close()
                injected = json.loads(out)["hookSpecificOutput"]["additionalContext"]
                assert "STRIPE_MOCK=1" in injected
                assert STYLE not in injected  # Alice's style is hers
                # Read from the team each time: nothing was copied into Dave's local memory.
                listed = await local.call(
                    local.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(repo))
                )
                assert list(listed.memories) == []
            finally:
                await close()
