"""The gateway's team client follows the token file: a new token is used at once, a file that
cannot be read keeps the token in use, and the file is looked at no more than once a second."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from squirrel_core.home import HomeLayout
from squirrel_core.settings import load_settings
from squirrel_core.team_client import save_team_token, saved_team_link
from squirrel_gateway.team_connection import LOOK_EVERY_SECONDS, TeamConnection


class _Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def wait_a_look(self) -> None:
        self.now += LOOK_EVERY_SECONDS


@dataclass(frozen=True)
class _Team:
    """A team connection over a home whose token file the test rewrites, on the test's clock."""

    connection: TeamConnection
    layout: HomeLayout
    clock: _Clock


@pytest.fixture
async def team(tmp_path: Path) -> AsyncIterator[_Team]:
    """A connection that holds `first-token`, closed after the test."""
    settings = load_settings(
        {"SQRL_HOME": str(tmp_path / "home"), "SQRL_TEAM_SERVER": "localhost:9"}
    )
    layout = HomeLayout(settings.home).ensure()
    save_team_token(layout, "first-token")
    link = saved_team_link(settings)
    assert link is not None and link.token == "first-token"
    clock = _Clock()
    connection = TeamConnection(
        link, layout.team_token, lambda: saved_team_link(settings), timeout=1.0, clock=clock
    )
    try:
        yield _Team(connection, layout, clock)
    finally:
        await connection.close()


async def test_a_new_token_opens_a_new_client_and_an_unreadable_file_keeps_the_old(
    team: _Team,
) -> None:
    connection, layout, clock = team.connection, team.layout, team.clock
    first = connection.client()
    clock.wait_a_look()
    assert connection.client() is first  # nothing changed: the same client
    clock.wait_a_look()
    assert not connection.token_replaced()

    save_team_token(layout, "second-token")
    clock.wait_a_look()
    second = connection.client()
    assert second is not first
    assert connection.current_link().token == "second-token"

    save_team_token(layout, "second-token")  # saved again, the same token
    clock.wait_a_look()
    assert not connection.token_replaced()
    assert connection.client() is second

    layout.team_token.unlink()  # removed: the token in use stays
    clock.wait_a_look()
    assert not connection.token_replaced()
    layout.team_token.mkdir()  # a folder in its place
    clock.wait_a_look()
    assert not connection.token_replaced()
    assert connection.current_link().token == "second-token"
    shutil.rmtree(layout.team_token)
    layout.team_token.write_bytes(b"\xff\xfe not text")
    clock.wait_a_look()
    assert not connection.token_replaced()
    assert connection.client() is second


async def test_the_token_file_is_looked_at_once_a_second_whatever_the_calls(
    team: _Team,
) -> None:
    connection, layout, clock = team.connection, team.layout, team.clock
    first = connection.client()
    save_team_token(layout, "second-token")
    # Calls within a second of the last look do not look at the file again.
    for _ in range(50):
        clock.now += LOOK_EVERY_SECONDS / 100
        assert connection.client() is first
    assert connection.current_link().token == "first-token"
    # The first call a second after the last look finds the new token and uses it.
    clock.now += LOOK_EVERY_SECONDS / 2
    second = connection.client()
    assert second is not first
    assert connection.current_link().token == "second-token"
    # Every call after it uses it, looking again or not.
    clock.now += LOOK_EVERY_SECONDS / 10
    assert connection.client() is second
    clock.wait_a_look()
    assert connection.client() is second


async def test_after_a_refusal_the_next_call_after_a_new_token_is_saved_uses_it(
    team: _Team,
) -> None:
    connection, layout, clock = team.connection, team.layout, team.clock
    first = connection.client()
    connection.refused()  # the team server refused first-token
    clock.now += LOOK_EVERY_SECONDS / 100
    assert connection.client() is first  # looked: nothing saved yet
    save_team_token(layout, "second-token")  # `sqrl team join`
    clock.now += LOOK_EVERY_SECONDS / 100
    second = connection.client()
    assert second is not first and connection.current_link().token == "second-token"
    # The new token not refused, the file is looked at once a second again.
    save_team_token(layout, "third-token")
    clock.now += LOOK_EVERY_SECONDS / 100
    assert connection.client() is second
    clock.wait_a_look()
    assert connection.current_link().token == "third-token"
