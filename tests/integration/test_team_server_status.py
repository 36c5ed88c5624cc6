"""`sqrl status` on the machine that serves a team, against its real memory service.

The Projects table lists the team projects the server holds (by team id) beside the machine's
own roots, with their counts, so what "Memories by writer" counts is found in the table too.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.console import Console
from squirrel_cli.status_view import print_status, status_data
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings
from squirrel_core.status_probe import probe
from squirrel_core.team_client import TeamLink
from squirrel_core.wire import event_to_pb
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.conftest import memory_client
from tests.integration.fake_memory import register_projects
from tests.integration.test_team_delivery import TEAM_ID, _events, serving

homes = delivery_tests.homes
Homes = Callable[..., tuple[Settings, Settings, TeamLink]]


async def test_status_on_the_team_server_lists_its_team_projects_with_their_counts(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, _, _ = homes()
    own = (tmp_path / "own-repo").resolve()
    own.mkdir()
    async with serving(server_settings) as server:
        layout = HomeLayout(server_settings.home)
        async with memory_client(server.service, server_settings) as admin:
            await admin.call(admin.stub.RegisterProject, pb.RegisterProjectRequest(root=TEAM_ID))
            await admin.call(
                admin.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=TEAM_ID, events=[event_to_pb(e) for e in _events(7)]
                ),
            )
            await admin.call(
                admin.stub.Remember,
                pb.RememberRequest(
                    project_id=TEAM_ID,
                    type=memory_pb2.MEMORY_TYPE_RECIPE,
                    content="Run the shop's tests with `make check`.",
                ),
            )
        register_projects(server_settings, [str(own)])  # a root of its own, from `sqrl init`
        token = layout.token.read_text().strip()
        _, counts, _ = await probe(layout, token, {}, counts=True)
        data = status_data(server_settings, None, [], counts, None)

    assert data["memory"]["mode"] == "team-server", data["memory"]
    rows = {p["project"]: p for p in data["projects"]}
    assert set(rows) == {str(own), TEAM_ID}, rows
    team = rows[TEAM_ID]
    assert team["team"] and team["events"] == 7 and team["memories"] == 1, team
    assert not rows[str(own)].get("team"), rows[str(own)]
    out = io.StringIO()
    print_status(data, counts, Console(out))
    [row] = [line for line in out.getvalue().splitlines() if line.startswith(TEAM_ID)]
    cells = row.split("\t")  # project, initialised, events, waiting, memories, dead letters
    assert (cells[1], cells[2], cells[4]) == ("team project", "7", "1"), row


def test_status_on_a_laptop_lists_only_its_own_roots(tmp_path: Path) -> None:
    """Off a team server nothing is added: a count without a root is not a team project."""
    settings = delivery_tests._settings(tmp_path / "solo")
    own = (tmp_path / "repo").resolve()
    own.mkdir()
    register_projects(settings, [str(own)])
    counts = {str(own): {"events": 2}, "github.com/acme/shop": {"events": 5}}
    data = status_data(settings, None, [], counts, None)
    assert [p["project"] for p in data["projects"]] == [str(own)], data["projects"]
