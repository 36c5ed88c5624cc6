"""Two laptops' terminals on one team server, all real processes talking TLS gRPC on 127.0.0.1.

The server runs `sqrl serve`; Alice's and Bob's homes each `sqrl team join` it and `sqrl up` on
their own clone of one repository. A pitfall Alice types with `sqrl remember` reaches Bob's
`sqrl context`; `sqrl history` on Bob's laptop shows who and which machine taught a pitfall the
server learned; once Bob's token is revoked, his reads and writes say that they left the team
out, and why, on stderr.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import load_token
from squirrel_core.clients import MemoryClient, open_channel, target_of
from tests.conftest import wait_until
from tests.e2e.team_homes import (
    TEAM_ID,
    Home,
    alice_session,
    append_events,
    home_in,
    joined_laptop,
    team_server,
)
from tests.tls_certs import make_tls_files

pytestmark = pytest.mark.e2e

PITFALL = "Checkout tests hang unless STRIPE_MOCK=1 is exported before pytest starts"


@dataclass
class Laptops:
    server: Home
    ids: dict[str, str]
    alice: Home
    bob: Home


@pytest.fixture
def laptops(tmp_path: Path) -> Iterator[Laptops]:
    tls = make_tls_files(tmp_path / "tls")
    server = home_in(tmp_path, "server")
    issued = {
        user: server.json("team", "token", "add", user, "--projects", "github.com/acme/*", *role)
        for user, role in (("alice", ("--role", "admin")), ("bob", ("--role", "write")))
    }
    with team_server(server, tls, tmp_path / "serve.log") as (port, _):
        homes: list[Home] = []
        try:
            for name, remote in (
                ("alice", "git@github.com:acme/shop.git"),
                ("bob", "https://github.com/acme/shop"),
            ):
                token = issued[name]["token"]
                home, joined = joined_laptop(tmp_path, name, remote, port, tls, token)
                assert "the server accepted the token" in joined
                homes.append(home)
            yield Laptops(server, {u: issued[u]["id"] for u in issued}, homes[0], homes[1])
        finally:
            for home in homes:
                home.sqrl("down")


def _team_has_project(server: Home) -> bool:
    listed = asyncio.run(_admin_of(server, "ListProjects", pb.ListProjectsRequest()))
    return TEAM_ID in {p.project_id for p in listed.projects}


async def _admin_of(server: Home, call: str, request: object) -> Any:
    """`call` on the server's own memory service, as the server (its install token)."""
    layout = server.layout
    client = MemoryClient(
        open_channel(target_of(layout.service_file("memory"))), load_token(layout.token), 300
    )
    try:
        return await client.call(getattr(client.stub, call), request, timeout=300)
    finally:
        await client.close()


def test_the_terminal_shares_through_the_team_and_says_when_it_cannot(laptops: Laptops) -> None:
    alice, bob, server = laptops.alice, laptops.bob, laptops.server
    # Alice's first delivery round creates the team project (her token may).
    wait_until(lambda: _team_has_project(server), timeout=120, interval=0.2)

    remembered = alice.sqrl("remember", PITFALL, "--type", "pitfall")
    assert remembered.returncode == 0, remembered.stderr
    assert "on the team server" in remembered.stdout and not remembered.stderr.strip()

    # Bob's terminal reads it from the team at once; his own memory alone does not hold it.
    context = bob.sqrl("context", "run the checkout tests with pytest")
    assert context.returncode == 0, context.stderr
    assert "STRIPE_MOCK=1" in context.stdout and "not used" not in context.stderr
    alone = bob.sqrl("context", "run the checkout tests with pytest", "--local")
    assert alone.returncode == 0 and "STRIPE_MOCK=1" not in alone.stdout
    assert not alone.stderr.strip()  # --local asks no team: nothing to say
    listed = bob.json("memories", "--type", "pitfall")
    assert PITFALL in {m["content"] for m in listed["memories"]}
    mine = bob.json("memories", "--type", "pitfall", "--local")
    assert PITFALL not in {m["content"] for m in mine["memories"]}

    # A pitfall the server learned from Alice's session: Bob's history says who taught it.
    asyncio.run(append_events(alice, alice_session()))
    wait_until(lambda: not alice.json("status")["memory"]["events_waiting"], timeout=120)
    asyncio.run(
        _admin_of(server, "ProcessNow", pb.ProcessNowRequest(project_id=TEAM_ID, drain=True))
    )
    learned = bob.json("memories", "--type", "pitfall")["memories"]
    money = next(m for m in learned if "Money" in m["content"])
    history = bob.json("history", money["memory_id"])
    assert {(e["user_id"], e["machine"]) for e in history["source_events"]} == {
        ("alice", "alice-mbp")
    }
    shown = bob.sqrl("history", money["memory_id"])
    assert shown.returncode == 0, shown.stderr
    assert "on the team server" in shown.stdout and "alice@alice-mbp" in shown.stdout

    # Bob's token revoked: his reads and writes fall back to his laptop, and say so.
    revoked = server.sqrl("team", "token", "revoke", laptops.ids["bob"])
    assert revoked.returncode == 0, revoked.stderr
    after = bob.sqrl("context", "run the checkout tests with pytest")
    assert after.returncode == 0, after.stderr
    said = [line for line in after.stderr.splitlines() if "not used" in line]
    assert len(said) == 1, after.stderr
    assert "refused this laptop's token" in said[0] and "local memory only" in said[0]
    assert "STRIPE_MOCK=1" not in after.stdout
    kept = bob.sqrl("remember", "Run make lint before pushing", "--type", "recipe")
    assert kept.returncode == 0, kept.stderr
    # Written locally and queued for the team (sent when his token is accepted again).
    assert "written to local memory and queued for the team server" in kept.stderr
    assert "on the team server" not in kept.stdout
    assert "Run make lint" in json.dumps(bob.json("memories", "--local"))
